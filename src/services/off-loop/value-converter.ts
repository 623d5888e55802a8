import type { TypeRegistry } from '../../grid/type-registry';
import { etagOf } from '../../model/etag';
import { listingJson } from '../../model/media/listing-json';
import { essence, type MediaType, PROTOSTREAM } from '../../model/media/media-type';
import type { JavaValue } from '../../model/java/java-value';
import { NO_TYPES } from '../../model/protobuf/protostream-json';
import { type StorageForm, toStorageForm } from '../../model/media/storage-form';
import { toJava, transcode } from '../../model/media/transcoding';
import type { OffLoop } from './off-loop';
import { asBuffer, type ConvertedValue } from './off-loop.jobs';
import type { TypesSnapshot } from '../../grid/type-registry';

/**
 * Values up to this size are converted at once, on the event loop: the costliest conversion
 * measured (JSON of 64-bit integers into protostream) took ~20 ms for 64 KiB on a loaded 2-core
 * machine, most take well under one; a hop to the worker costs more than that for small values.
 */
export const INLINE_CONVERSION_BYTES = 64 * 1024;

/**
 * Conversions of entry values — reads in another media type, writes into the storage type, the
 * entries listing — whose cost grows with the value, and a value may be as large as the request
 * body limit (`max-content-length`, 10 MB by default). Up to INLINE_CONVERSION_BYTES they run at
 * once; a larger value is converted on the off-loop worker (its queue and deadline bound the
 * work), with the same functions, so the bytes answered do not depend on where it ran. The
 * protostream conversions take the schemas along; the worker keeps the registry it builds.
 */
export class ValueConverter {
  constructor(private readonly offLoop: OffLoop, private readonly schemas: TypeRegistry) {}

  /** A stored value of media type `from` as `to`, and the ETag of what is answered. */
  read(value: Buffer, from: MediaType, to: MediaType): ConvertedValue | Promise<ConvertedValue> {
    if (value.length <= INLINE_CONVERSION_BYTES) {
      const body = transcode(value, from, to, this.schemas);
      return { body, etag: etagOf(body) };
    }
    return this.offLoop.run('value.convert', { bytes: value, from, to, schemas: this.schemasFor(from, to) })
      .then((r) => ({ body: asBuffer(r.body), etag: r.etag }));
  }

  /** A request body of media type `contentType` as the cache stores it (model/media/storage-form.ts). */
  store(body: Buffer, contentType: MediaType, storage: MediaType): StorageForm | Promise<StorageForm> {
    if (body.length <= INLINE_CONVERSION_BYTES) return toStorageForm(body, contentType, storage, this.schemas);
    return this.offLoop.run('value.store', { bytes: body, contentType, storage, schemas: this.schemasFor(contentType, storage) })
      .then((r) => ({ value: asBuffer(r.value), valueType: r.valueType }));
  }

  /**
   * A stored protostream value as the entries listing writes it (its canonical JSON). Values of
   * other types need no schemas and are written a piece at a time on the loop (listingPieces).
   */
  protostreamListing(bytes: Buffer): string | Promise<string> {
    if (bytes.length <= INLINE_CONVERSION_BYTES) return listingJson(bytes, 'json', this.schemas);
    return this.offLoop.run('value.listing', { bytes, schemas: this.schemas.snapshot() });
  }

  /** Bytes of media type `type` as a Java value, read without schemas (`___protobuf_metadata` values). */
  javaValue(bytes: Buffer, type: MediaType): JavaValue | Promise<JavaValue> {
    if (bytes.length <= INLINE_CONVERSION_BYTES) return toJava(bytes, type, NO_TYPES);
    return this.offLoop.run('value.java', { bytes, type })
      .then((v) => (v.type === 'byte[]' ? { type: v.type, value: asBuffer(v.value) } : v));
  }

  private schemasFor(a: MediaType, b: MediaType): TypesSnapshot | undefined {
    return essence(a) === PROTOSTREAM || essence(b) === PROTOSTREAM ? this.schemas.snapshot() : undefined;
  }
}

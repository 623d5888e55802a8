import { encodeHex } from '../model/media/content-codecs';
import { fromStoredKey, storedKeyText } from '../model/media/key-codec';
import { APPLICATION_UNKNOWN, essence, JAVA_OBJECT, JSON_TYPE, type MediaType, OCTET_STREAM, PROTOSTREAM, TEXT_PLAIN } from '../model/media/media-type';
import { listingJson, listingPieces, type Representation } from '../model/media/listing-json';
import type { ProtobufTypes } from '../model/protobuf/protostream-json';
import { isConvertible } from '../model/media/transcoding';
import { expiresAt, type StoredEntry } from '../store/store';
import { between, formatPages, type Pages } from '../util/pages';
import { inChunks } from '../util/slices';
import { storageTypes } from './storage-types';
import { type CacheView, handleOf } from './cache-view';
import type { ValueConverter } from './off-loop/value-converter';

export interface EntriesOptions {
  limit: number;
  metadata: boolean;
  contentNegotiation: boolean;
}

/**
 * Whole-cache reads, produced as text in chunks (src/util/slices.ts `inChunks`), so a big cache
 * never becomes one string and no chunk holds the event loop for more than a slice.
 */
export class BulkService {
  /** `types`: the schema registry, for keys; `values` writes protostream values (on the worker when large). */
  constructor(private readonly types: ProtobufTypes, private readonly values: ValueConverter) {}

  /** `?action=keys`: a JSON array of the keys as text (the key storage type converted to text/plain). */
  async *keysJson(cache: CacheView, limit: number): AsyncGenerator<string> {
    const storage = storageTypes(cache).key;
    yield* inChunks(jsonArray(keysOf(cache), limit, (key, first) => [(first ? '' : ',') + JSON.stringify(this.keyText(key, storage))]));
  }

  /** Every live key, every write acknowledged before the call included, a page at a time (the v1 key listing, event streams). */
  keys(cache: CacheView): Pages<Buffer> {
    return keysOf(cache);
  }

  /** One stored key as `target` (listings, entry events); ISPN000492 when it cannot convert. */
  keyAs(cache: CacheView, key: Buffer, target: MediaType): Buffer {
    return fromStoredKey(key, storageTypes(cache).key, target, this.types);
  }

  /** A stored key as `target` text for events; one with no such form (text that is not JSON) as text. */
  keyString(cache: CacheView, key: Buffer, target: MediaType): string {
    const storage = storageTypes(cache).key;
    try {
      return fromStoredKey(key, storage, target, this.types).toString('utf8');
    } catch {
      return this.keyText(key, storage);
    }
  }

  /** A stored key as text; a key that does not convert (a broken protostream key) is shown as hex. */
  private keyText(key: Buffer, storage: MediaType): string {
    try {
      return storedKeyText(key, storage, this.types);
    } catch {
      return encodeHex(key);
    }
  }

  /** `?action=entries`: a JSON array of `{key, value[, metadata…]}`; large values are written in pieces. */
  async *entriesJson(cache: CacheView, opts: EntriesOptions): AsyncGenerator<string> {
    const { key: keyRep, value: valueRep } = this.representations(cache, opts.contentNegotiation);
    const t = storageTypes(cache);
    const keyProto = essence(t.key) === PROTOSTREAM ? this.types : undefined;
    const valueProto = essence(t.value) === PROTOSTREAM;
    const keyJava = essence(t.key) === JAVA_OBJECT;
    const keyText = (key: Buffer) => this.keyText(key, t.key);
    const values = this.values;
    yield* inChunks(jsonArray(entriesOf(cache), opts.limit, function* (e, first) {
      const key = keyJava && keyRep === 'text' ? JSON.stringify(keyText(e.key)) : listingJson(e.key, keyRep, keyProto);
      yield `${first ? '' : ','}{"key":${key},"value":`;
      // protostream as a whole (on the worker when large), any other value a piece at a time: inChunks may pause between them
      if (valueProto) yield values.protostreamListing(e.value);
      else yield* listingPieces(e.value, valueRep);
      yield opts.metadata ? metadataFields(e) + '}' : '}';
    }));
  }

  /** The media types the entries listing reports in `key-content-type` / `value-content-type`. */
  entriesMediaTypes(cache: CacheView, contentNegotiation: boolean): { key: string; value: string } {
    const r = this.representations(cache, contentNegotiation);
    const t = storageTypes(cache);
    const name = (rep: Representation, storage: string) =>
      rep === 'json' ? JSON_TYPE : rep === 'text' ? TEXT_PLAIN : `${storage === APPLICATION_UNKNOWN ? OCTET_STREAM : storage}; encoding=hex`;
    return { key: name(r.key, essence(t.key)), value: name(r.value, essence(t.value)) };
  }

  private representations(cache: CacheView, contentNegotiation: boolean): { key: Representation; value: Representation } {
    const t = storageTypes(cache);
    return { key: pick(essence(t.key), contentNegotiation), value: pick(essence(t.value), contentNegotiation) };
  }

}

/** The live entries a listing shows. */
function entriesOf(cache: CacheView): Pages<StoredEntry> {
  return handleOf(cache).data.entries();
}

/** The live keys a listing shows, read without their values where the engine can. */
function keysOf(cache: CacheView): Pages<Buffer> {
  return handleOf(cache).data.keys();
}

/** A JSON array of the first `limit` items (all when negative), each written as the parts `format` gives. */
function jsonArray<T, P>(items: Pages<T>, limit: number, format: (item: T, first: boolean) => Iterable<P>): Pages<P | string> {
  return between<P | string>(['['], formatPages(items, limit, format), [']']);
}

/**
 * CacheResourceV2.getMediaType: protostream is JSON; otherwise text, and with content negotiation
 * text when the storage converts to it, then JSON, then hex; unconfigured storage is hex.
 */
function pick(storage: string, contentNegotiation: boolean): Representation {
  if (storage === PROTOSTREAM) return 'json';
  if (!contentNegotiation) return 'text';
  if (storage === APPLICATION_UNKNOWN) return 'hex';
  if (isConvertible(storage, TEXT_PLAIN)) return 'text';
  if (isConvertible(storage, JSON_TYPE)) return 'json';
  return 'hex';
}

function metadataFields(e: StoredEntry): string {
  const mortal = e.lifespan >= 0 || e.maxIdle >= 0;
  const ttl = e.lifespan >= 0 ? Math.floor(e.lifespan / 1000) : -1;
  const idle = e.maxIdle >= 0 ? Math.floor(e.maxIdle / 1000) : -1;
  return `,"timeToLiveSeconds":${ttl},"maxIdleTimeSeconds":${idle},"created":${mortal ? e.created : -1},` +
    `"lastUsed":${mortal ? e.lastUsed : -1},"expireTime":${expiresAt(e) ?? -1}`;
}

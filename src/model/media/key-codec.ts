import { TranscoderNotFoundError } from '../../errors';
import { decodeContent, encodeContent, hasContentCodec } from './content-codecs';
import type { JavaValue } from '../java/java-value';
import { APPLICATION_UNKNOWN, essence, JAVA_OBJECT, type MediaType, OCTET_STREAM, parseMediaType, TEXT_PLAIN } from './media-type';
import { protostreamToJava, type ProtobufTypes } from '../protobuf/protostream-json';
import { fromJava, isConvertible, keepsBytes, toJava, transcode } from './transcoding';
import { unwrap, wrapScalar } from '../protobuf/wrapped-message';

/** Key-Content-Type when the request has none: v2 since 13.0, and the legacy v1 API (docs/reference/media-types.md#request-defaults, docs/reference/data-plane.md#legacy-v1). */
export const DEFAULT_KEY_TYPE = parseMediaType('text/plain; charset=utf-8');
export const LEGACY_KEY_TYPE = parseMediaType('application/x-java-object; type=java.lang.String');

const TEXT = parseMediaType(TEXT_PLAIN);
const BYTE_STORAGE = new Set([APPLICATION_UNKNOWN, OCTET_STREAM]);

/**
 * The key a cache stores for a request key (docs/reference/media-types.md#keys): the path segment's
 * UTF-8 bytes, read in Key-Content-Type and converted to the cache's key storage type by the same
 * transcoders as values. Two rules are the keys' own, because a key has no per-entry type:
 * - a cache storing `application/x-java-object` keeps each key as the `WrappedMessage` of its Java
 *   value, so Integer 42 and String "42" stay distinct keys;
 * - in byte storage (`application/unknown`, `application/octet-stream`) a Java key is marshalled
 *   to its `WrappedMessage` as the original's BinaryTranscoder does, except String and byte[],
 *   which keep their own bytes, so the legacy API's String keys and v2 text keys are one key.
 */
export function toStoredKey(raw: Buffer, keyType: MediaType, storage: MediaType, types: ProtobufTypes): Buffer {
  if (keepsKeyBytes(keyType, storage)) return raw;
  const to = essence(storage);
  if (!isConvertible(essence(keyType), to)) throw new TranscoderNotFoundError(keyType.raw, storage.raw);
  if (to === JAVA_OBJECT) return wrapScalar(javaKey(raw, keyType, types));
  if (BYTE_STORAGE.has(to) && essence(keyType) === JAVA_OBJECT) return javaKeyBytes(javaKey(raw, keyType, types));
  return transcode(raw, keyType, storage, types);
}

const keeping = new WeakMap<MediaType, WeakMap<MediaType, boolean>>();

/**
 * Whether a key read in `keyType` is stored as its bytes, with nothing to check or convert (text
 * keys in a byte or text cache: the common case). Remembered per pair of media type objects, which
 * are a cache's own and the request defaults, so the hot path does not redo the media type logic.
 */
function keepsKeyBytes(keyType: MediaType, storage: MediaType): boolean {
  let byKeyType = keeping.get(storage);
  if (!byKeyType) keeping.set(storage, (byKeyType = new WeakMap()));
  let keeps = byKeyType.get(keyType);
  if (keeps === undefined) {
    const from = essence(keyType);
    const to = essence(storage);
    keeps = isConvertible(from, to) && to !== JAVA_OBJECT && from !== JAVA_OBJECT && !hasContentCodec(keyType) && !hasContentCodec(storage) && keepsBytes(keyType, storage);
    byKeyType.set(keyType, keeps);
  }
  return keeps;
}

/** A stored key in the media type `target` asks for (listings, events): the inverse of `toStoredKey`. */
export function fromStoredKey(key: Buffer, storage: MediaType, target: MediaType, types: ProtobufTypes): Buffer {
  if (essence(storage) !== JAVA_OBJECT) return transcode(key, storage, target, types);
  if (!isConvertible(JAVA_OBJECT, essence(target))) throw new TranscoderNotFoundError(storage.raw, target.raw);
  return encodeContent(fromJava(storedJavaKey(key, types), target), target);
}

/** A stored key as text, the way `?action=keys` lists it. */
export function storedKeyText(key: Buffer, storage: MediaType, types: ProtobufTypes): string {
  return fromStoredKey(key, storage, TEXT, types).toString('utf8');
}

function javaKey(raw: Buffer, keyType: MediaType, types: ProtobufTypes): JavaValue {
  const decoded = decodeContent(raw, keyType);
  return toJava(decoded.bytes, decoded.type, types);
}

function javaKeyBytes(v: JavaValue): Buffer {
  if (v.type === 'java.lang.String') return Buffer.from(v.value, 'utf8');
  if (v.type === 'byte[]') return v.value;
  return wrapScalar(v);
}

/** A key of an `application/x-java-object` cache; bytes that are no WrappedMessage read as byte[]. */
function storedJavaKey(key: Buffer, types: ProtobufTypes): JavaValue {
  try {
    return unwrap(key).kind === 'scalar' ? protostreamToJava(key, types) : { type: 'byte[]', value: key };
  } catch {
    return { type: 'byte[]', value: key };
  }
}

import { TranscoderNotFoundError } from '../../errors';
import { decodeContent, hasContentCodec } from './content-codecs';
import { formatJavaText } from '../java/java-value';
import { essence, JAVA_OBJECT, type MediaType } from './media-type';
import type { ProtobufTypes } from '../protobuf/protostream-json';
import { isConvertible, keepsBytes, toJava, transcode } from './transcoding';

/** A value as a cache stores it, and the media type it is stored as. */
export interface StorageForm {
  value: Buffer;
  valueType: string;
}

/** A Java object whose class the client names: its text is checked even where its bytes are kept. */
function isTypedJava(type: MediaType): boolean {
  return essence(type) === JAVA_OBJECT && type.params.type !== undefined;
}

/**
 * Whether a body of `contentType` is stored as sent, with nothing to decode, check or convert:
 * the hot path of writes, which costs nothing however large the body.
 */
export function keepsBodyAsSent(contentType: MediaType, storage: MediaType): boolean {
  return !hasContentCodec(contentType) && !isTypedJava(contentType) && isConvertible(essence(contentType), essence(storage))
    && keepsBytes(contentType, storage);
}

/**
 * The body as the cache stores it (docs/reference/media-types.md#write-conversion): a content encoding (hex,
 * Base64, form-urlencoded) is undone first; then a pair that keeps the bytes stores them, Java
 * objects are stored as their text with their class in the value type, and anything else goes
 * through the transcoder registry. ISPN000492 (400) when the pair does not convert.
 */
export function toStorageForm(body: Buffer, contentType: MediaType, storage: MediaType, types: ProtobufTypes): StorageForm {
  const to = essence(storage);
  if (!isConvertible(essence(contentType), to)) throw new TranscoderNotFoundError(contentType.raw, storage.raw);
  const { bytes, type } = decodeContent(body, contentType);
  // a Java class named by the client must be one the allow list knows, and the text must be of
  // it, even where the bytes are kept as sent: no value is ever recorded as of another class
  const typed = isTypedJava(type) ? toJava(bytes, type, types) : undefined;
  if (keepsBytes(type, storage)) return { value: bytes, valueType: type.raw };
  if (to === JAVA_OBJECT) {
    const v = typed ?? toJava(bytes, type, types);
    return { value: formatJavaText(v), valueType: `${JAVA_OBJECT}; type=${v.type}` };
  }
  return { value: transcode(bytes, type, storage, types), valueType: storage.raw };
}

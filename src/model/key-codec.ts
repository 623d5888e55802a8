import { EncodingError } from '../errors';
import { essence, JAVA_OBJECT, type MediaType, OCTET_STREAM, TEXT_PLAIN } from './media-type';
import { WRAPPED_FIELD, wrapDouble, wrapFloat, wrapVarint } from './wrapped-scalar';

/** `0x` + lowercase hex, as commons Base16Codec accepts (behavior-notes §4.2). */
export function decodeHex(text: string): Buffer {
  if (!text.startsWith('0x') || text.length % 2 !== 0) throw new EncodingError('Illegal hex literal!');
  const digits = text.slice(2);
  if (!/^[0-9a-f]*$/.test(digits)) throw new EncodingError('Invalid digit found in hex format!');
  return Buffer.from(digits, 'hex');
}

/** Standard Base64 (RFC 4648 §4) with padding optional; anything else is refused as Java's decoder does. */
export function decodeBase64(text: string): Buffer {
  const bad = /[^A-Za-z0-9+/=]/.exec(text);
  if (bad) throw new EncodingError(`Illegal base64 character ${bad[0].charCodeAt(0).toString(16)}`);
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 === 1) throw new EncodingError('Input byte array has wrong 4-byte ending unit');
  return Buffer.from(text, 'base64');
}

export function encodeHex(bytes: Buffer): string {
  return '0x' + bytes.toString('hex');
}

function integerIn(text: string, min: bigint, max: bigint): bigint {
  if (!/^[+-]?\d+$/.test(text)) throw new EncodingError(`For input string: "${text}"`);
  const n = BigInt(text);
  if (n < min || n > max) throw new EncodingError(`Value out of range. Value:"${text}"`);
  return n;
}

function decimal(text: string): number {
  const n = Number(text.trim());
  if (text.trim() === '' || Number.isNaN(n) && !/^[+-]?NaN$/.test(text.trim())) throw new EncodingError(`For input string: "${text}"`);
  return n;
}

function javaObjectKey(text: string, javaType: string | undefined): Buffer {
  switch (javaType ?? 'java.lang.String') {
    case 'java.lang.String': return Buffer.from(text, 'utf8');
    case 'java.lang.Integer': return wrapVarint(WRAPPED_FIELD.int32, integerIn(text, -(2n ** 31n), 2n ** 31n - 1n));
    case 'java.lang.Long': return wrapVarint(WRAPPED_FIELD.int64, integerIn(text, -(2n ** 63n), 2n ** 63n - 1n));
    case 'java.lang.Short': return wrapVarint(WRAPPED_FIELD.short, integerIn(text, -32768n, 32767n));
    case 'java.lang.Byte': return wrapVarint(WRAPPED_FIELD.byte, integerIn(text, -128n, 127n));
    case 'java.lang.Boolean': return wrapVarint(WRAPPED_FIELD.bool, text.toLowerCase() === 'true' ? 1n : 0n);
    case 'java.lang.Double': return wrapDouble(decimal(text));
    case 'java.lang.Float': return wrapFloat(decimal(text));
    case 'ByteArray':
    case 'Bytes': return decodeHex(text);
    default: throw new EncodingError(`Type ${javaType} is unsupported`);
  }
}

/**
 * Turns the key path segment into the bytes the cache stores, following `Key-Content-Type`
 * (behavior-notes §4.1, §4.2): text and plain octet-stream keep the segment's UTF-8 bytes,
 * `encoding=hex|base64` decode it, Java scalar types become their WrappedMessage bytes.
 */
export function encodeKey(segment: string, keyType: MediaType | undefined): Buffer {
  if (!keyType) return Buffer.from(segment, 'utf8');
  const enc = keyType.params.encoding;
  if (enc === 'hex') return decodeHex(segment);
  if (enc === 'base64') return decodeBase64(segment);
  if (enc !== undefined) throw new EncodingError(`Unsupported encoding '${enc}'`);
  const kind = essence(keyType);
  if (kind === JAVA_OBJECT) return javaObjectKey(segment, keyType.params.type);
  if (kind === TEXT_PLAIN || kind === OCTET_STREAM) return Buffer.from(segment, 'utf8');
  return Buffer.from(segment, 'utf8');
}

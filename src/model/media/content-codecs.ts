import { isUtf8 } from 'node:buffer';
import { EncodingError, excerpt } from '../../errors';
import { essence, FORM_URLENCODED, type MediaType } from './media-type';

/**
 * Content encodings a media type carries on top of its format, applied before and after every
 * conversion (the original's MediaTypeCodecs, commons AbstractTranscoder): `encoding=hex|base64`
 * (RFC4648Codec) and `application/x-www-form-urlencoded` (UrlFormCodec). Keys and values share them.
 */

/** `0x` + lowercase hex, as commons Base16Codec accepts (docs/reference/media-types.md#content-encodings). */
export function decodeHex(text: string): Buffer {
  if (!text.startsWith('0x') || text.length % 2 !== 0) throw new EncodingError('Illegal hex literal!');
  const digits = text.slice(2);
  if (!/^[0-9a-f]*$/.test(digits)) throw new EncodingError('Invalid digit found in hex format!');
  return Buffer.from(digits, 'hex');
}

export function encodeHex(bytes: Buffer): string {
  return '0x' + bytes.toString('hex');
}

/** Standard Base64 (RFC 4648 §4) with padding optional; anything else is refused as Java's decoder does. */
export function decodeBase64(text: string): Buffer {
  const bad = /[^A-Za-z0-9+/=]/.exec(text);
  if (bad) throw new EncodingError(`Illegal base64 character ${bad[0].charCodeAt(0).toString(16)}`);
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 === 1) throw new EncodingError('Input byte array has wrong 4-byte ending unit');
  return Buffer.from(text, 'base64');
}

/**
 * The bytes of `bytes` as text would be written back: UTF-8 as it is, malformed sequences
 * replaced with U+FFFD (what reading them as a Java String does). No copy when already valid.
 */
function wellFormedUtf8(bytes: Buffer): Buffer {
  return isUtf8(bytes) ? bytes : Buffer.from(bytes.toString('utf8'), 'utf8');
}

const PERCENT = 0x25;
const PLUS = 0x2b;
const SPACE = 0x20;

/** A hex digit's value, -1 for any other byte. */
const HEX_VALUE = new Int8Array(256).fill(-1);
for (let i = 0; i < 16; i++) {
  HEX_VALUE['0123456789abcdef'.charCodeAt(i)] = i;
  HEX_VALUE['0123456789ABCDEF'.charCodeAt(i)] = i;
}

/**
 * java.net.URLDecoder with UTF-8, over the content's bytes: `+` is a space, `%XX` runs are UTF-8
 * bytes, everything else is kept; a bad escape is a 400. One pass over a byte array (the text's
 * characters were once turned into bytes one at a time: 10 MB took seconds).
 */
export function decodeUrlForm(content: Buffer): Buffer {
  const bytes = wellFormedUtf8(content);
  let escapes = 0;
  for (let at = bytes.indexOf(PERCENT); at >= 0; at = bytes.indexOf(PERCENT, at + 1)) escapes++;
  if (escapes === 0 && bytes.indexOf(PLUS) < 0) return bytes;
  // each escape is three bytes that become one (a bad one throws before the buffer is full)
  const out = Buffer.allocUnsafe(Math.max(0, bytes.length - 2 * escapes));
  let n = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b === PLUS) {
      out[n++] = SPACE;
    } else if (b === PERCENT) {
      const high = i + 2 < bytes.length ? HEX_VALUE[bytes[i + 1]] : -1;
      const low = high >= 0 ? HEX_VALUE[bytes[i + 2]] : -1;
      if (low < 0) throw badEscape(bytes, i);
      out[n++] = (high << 4) | low;
      i += 2;
    } else {
      out[n++] = b;
    }
  }
  return out;
}

/** URLDecoder's message for the escape at byte `at`, which counts characters, not bytes. */
function badEscape(bytes: Buffer, at: number): EncodingError {
  // two characters take at most 8 bytes; what follows them does not matter
  const after = bytes.subarray(at + 1, at + 9).toString('utf8');
  const whole = at + 9 >= bytes.length;
  if (whole && after.length < 2) return new EncodingError('URLDecoder: Incomplete trailing escape (%) pattern');
  const pair = after.slice(0, 2);
  const bad = /[^0-9a-fA-F]/.exec(pair);
  return new EncodingError(`URLDecoder: Illegal hex characters in escape (%) pattern - Error at index ${bad?.index ?? 0} in: "${pair}"`);
}

/** Bytes java.net.URLEncoder writes as they are: letters, digits and `.-*_`. */
const URL_SAFE = new Uint8Array(256);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789.-*_') URL_SAFE[c.charCodeAt(0)] = 1;
const UPPER_HEX = Buffer.from('0123456789ABCDEF', 'latin1');

/**
 * java.net.URLEncoder with UTF-8: letters, digits and `.-*_` kept, space as `+`, the rest `%XX`.
 * One pass over the bytes into one buffer (a string built a character at a time, with a regular
 * expression per character, held the loop 2.4 s for 9.8 MB; encodeURIComponent and its fix-ups
 * measured ten times slower than this loop).
 */
export function encodeUrlForm(content: Buffer): Buffer {
  const bytes = wellFormedUtf8(content);
  let size = 0;
  for (let i = 0; i < bytes.length; i++) size += URL_SAFE[bytes[i]] === 1 || bytes[i] === SPACE ? 1 : 3;
  const out = Buffer.allocUnsafe(size);
  let n = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (URL_SAFE[b] === 1) {
      out[n++] = b;
    } else if (b === SPACE) {
      out[n++] = PLUS;
    } else {
      out[n++] = PERCENT;
      out[n++] = UPPER_HEX[b >> 4];
      out[n++] = UPPER_HEX[b & 15];
    }
  }
  return out;
}

/** Content and the media type that now describes it. */
export interface Decoded {
  bytes: Buffer;
  type: MediaType;
}

const TEXT: MediaType = { type: 'text', subtype: 'plain', params: { charset: 'UTF-8' }, weight: 1, raw: 'text/plain; charset=UTF-8' };

/** Whether reading or writing `type` involves a content encoding at all (the hot path skips it). */
export function hasContentCodec(type: MediaType): boolean {
  return type.params.encoding !== undefined || essence(type) === FORM_URLENCODED;
}

/**
 * Undoes the content encoding of `type`: hex/base64 text becomes the bytes it spells (the type
 * loses its `encoding`), form-urlencoded text becomes plain UTF-8 text.
 */
export function decodeContent(bytes: Buffer, type: MediaType): Decoded {
  const enc = type.params.encoding;
  if (enc !== undefined) {
    const decoded = enc === 'hex' ? decodeHex(bytes.toString('utf8')) : enc === 'base64' ? decodeBase64(bytes.toString('utf8')) : unsupported(enc);
    return { bytes: decoded, type: withoutEncoding(type) };
  }
  if (essence(type) === FORM_URLENCODED) return { bytes: decodeUrlForm(bytes), type: TEXT };
  return { bytes, type };
}

/** Applies the content encoding `type` asks for to converted bytes (hex as `0x…`, Base64, form). */
export function encodeContent(bytes: Buffer, type: MediaType): Buffer {
  const enc = type.params.encoding;
  if (enc === 'hex') return Buffer.from(encodeHex(bytes), 'utf8');
  if (enc === 'base64') return Buffer.from(bytes.toString('base64'), 'utf8');
  if (enc !== undefined) unsupported(enc);
  if (essence(type) === FORM_URLENCODED) return encodeUrlForm(bytes);
  return bytes;
}

function unsupported(enc: string): never {
  throw new EncodingError(`Unsupported encoding '${excerpt(enc)}'`);
}

function withoutEncoding(type: MediaType): MediaType {
  const params: Record<string, string> = { ...type.params };
  delete params.encoding;
  const raw = essence(type) + Object.entries(params).map(([k, v]) => `; ${k}=${v}`).join('');
  return { ...type, params, raw };
}

import { EncodingError } from '../errors';
import { essence, FORM_URLENCODED, type MediaType } from './media-type';

/**
 * Content encodings a media type carries on top of its format, applied before and after every
 * conversion (the original's MediaTypeCodecs, commons AbstractTranscoder): `encoding=hex|base64`
 * (RFC4648Codec) and `application/x-www-form-urlencoded` (UrlFormCodec). Keys and values share them.
 */

/** `0x` + lowercase hex, as commons Base16Codec accepts (behavior-notes §4.2). */
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

/** java.net.URLDecoder with UTF-8: `+` is a space, `%XX` runs are UTF-8 bytes; a bad escape is a 400. */
export function decodeUrlForm(text: string): Buffer {
  const out: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '+') {
      out.push(0x20);
    } else if (c === '%') {
      if (i + 2 >= text.length) throw new EncodingError('URLDecoder: Incomplete trailing escape (%) pattern');
      const pair = text.slice(i + 1, i + 3);
      const bad = /[^0-9a-fA-F]/.exec(pair);
      if (bad) throw new EncodingError(`URLDecoder: Illegal hex characters in escape (%) pattern - Error at index ${bad.index} in: "${pair}"`);
      out.push(parseInt(pair, 16));
      i += 2;
    } else {
      for (const b of Buffer.from(c, 'utf8')) out.push(b);
    }
  }
  return Buffer.from(out);
}

/** java.net.URLEncoder with UTF-8: letters, digits and `.-*_` kept, space as `+`, the rest `%XX`. */
export function encodeUrlForm(bytes: Buffer): Buffer {
  let out = '';
  for (const b of Buffer.from(bytes.toString('utf8'), 'utf8')) {
    const c = String.fromCharCode(b);
    if (/[A-Za-z0-9.\-*_]/.test(c)) out += c;
    else if (b === 0x20) out += '+';
    else out += '%' + b.toString(16).toUpperCase().padStart(2, '0');
  }
  return Buffer.from(out, 'latin1');
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
  if (essence(type) === FORM_URLENCODED) return { bytes: decodeUrlForm(bytes.toString('utf8')), type: TEXT };
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
  throw new EncodingError(`Unsupported encoding '${enc}'`);
}

function withoutEncoding(type: MediaType): MediaType {
  const params: Record<string, string> = { ...type.params };
  delete params.encoding;
  const raw = essence(type) + Object.entries(params).map(([k, v]) => `; ${k}=${v}`).join('');
  return { ...type, params, raw };
}


import { transcode } from 'node:buffer';
import { UnsupportedCharsetError } from '../../errors';

/**
 * The charsets text can be read and written in (the `charset` parameter of `text/plain`,
 * docs/reference/media-types.md#charsets), each exactly as Java's: decoding replaces malformed input with U+FFFD,
 * encoding replaces a character the charset cannot hold with `?` (String.getBytes). Only those
 * Node can do both ways byte for byte; any other name is refused with the original's
 * UnsupportedCharsetException (400, the name as the message).
 */
export interface Charset {
  /** Java's canonical name. */
  readonly name: string;
  decode(bytes: Buffer): string;
  encode(text: string): Buffer;
  /**
   * UTF-8 bytes straight into this charset, the same bytes as `encode(UTF_8.decode(bytes))`: a
   * 10 MB value of accented text took 200-330 ms through a string (its UTF-8 decoding alone 166 ms),
   * ICU's converter 20-30 ms. Undefined where the input is not one the converter takes as Java would.
   */
  fromUtf8?(bytes: Buffer): Buffer | undefined;
}

const REPLACEMENT = '\uFFFD';
const QUESTION = 0x3f;

/**
 * Bytes as single-byte code points below `limit` (256 for ISO-8859-1, 128 for US-ASCII). `outside`
 * finds a character the charset cannot hold: text without one (the common case, which V8 checks
 * at once for a one-byte string) is written natively.
 */
function singleByte(name: string, limit: number, outside: RegExp): Charset {
  return {
    name,
    decode: (bytes) => (limit === 256 ? bytes.toString('latin1') : bytes.toString('latin1').replace(/[\x80-\xff]/g, REPLACEMENT)),
    encode: (text) => {
      if (!outside.test(text)) return Buffer.from(text, 'latin1');
      const out = Buffer.allocUnsafe(text.length);
      let n = 0;
      // one byte per code point: a surrogate pair is one character, hence one '?'
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
          const next = text.charCodeAt(i + 1);
          if (next >= 0xdc00 && next <= 0xdfff) i++;
        }
        out[n++] = c < limit ? c : QUESTION;
      }
      return out.subarray(0, n);
    },
  };
}

/** UTF-16 in one byte order; an odd trailing byte and lone surrogates read as U+FFFD. */
function utf16(name: string, bigEndian: boolean, bom: boolean): Charset {
  return {
    name,
    decode: (bytes) => {
      let body = bytes;
      let be = bigEndian;
      if (bom && body.length >= 2) {
        // Java's UTF-16 reads a byte order mark and drops it; without one, big-endian
        if (body[0] === 0xfe && body[1] === 0xff) body = body.subarray(2);
        else if (body[0] === 0xff && body[1] === 0xfe) { body = body.subarray(2); be = false; }
      }
      const even = body.subarray(0, body.length & ~1);
      const le = be ? swapped(even) : even;
      const text = (le.toString('utf16le') as string & { toWellFormed(): string }).toWellFormed();
      return body.length % 2 === 1 ? text + REPLACEMENT : text;
    },
    encode: (text) => {
      // one buffer, written in place: the mark, then the text, swapped where big-endian
      const start = bom ? 2 : 0;
      const out = Buffer.allocUnsafe(start + text.length * 2);
      if (bom) { out[0] = 0xfe; out[1] = 0xff; }
      out.write((text as string & { toWellFormed(): string }).toWellFormed(), start, 'utf16le');
      if (bigEndian) out.subarray(start).swap16();
      return out;
    },
  };
}

function swapped(bytes: Buffer): Buffer {
  return Buffer.from(bytes).swap16();
}

export const UTF_8: Charset = {
  name: 'UTF-8',
  decode: (bytes) => bytes.toString('utf8'),
  encode: (text) => Buffer.from(text, 'utf8'),
};

/** ICU's conversion, or undefined where it refuses the input (malformed UTF-8 into UTF-16). */
function icu(bytes: Buffer, to: 'latin1' | 'utf16le'): Buffer | undefined {
  try {
    return transcode(bytes, 'utf8', to);
  } catch {
    return undefined;
  }
}

const ISO_8859_1: Charset = { ...singleByte('ISO-8859-1', 256, /[^\x00-\xff]/), fromUtf8: (bytes) => icu(bytes, 'latin1') };
const US_ASCII: Charset = {
  ...singleByte('US-ASCII', 128, /[^\x00-\x7f]/),
  // one byte per code point as ISO-8859-1 writes it, then '?' for what ASCII lacks
  fromUtf8: (bytes) => {
    const out = icu(bytes, 'latin1');
    if (out) for (let i = 0; i < out.length; i++) if (out[i] >= 0x80) out[i] = QUESTION;
    return out;
  },
};
/** UTF-16 from UTF-8 through ICU, in the charset's byte order, with its byte order mark. */
function utf16FromUtf8(charset: Charset, bigEndian: boolean, bom: boolean): Charset {
  return {
    ...charset,
    fromUtf8: (bytes) => {
      const le = icu(bytes, 'utf16le');
      if (!le) return undefined;
      if (bigEndian) le.swap16();
      return bom ? Buffer.concat([Buffer.from([0xfe, 0xff]), le]) : le;
    },
  };
}
const UTF_16 = utf16FromUtf8(utf16('UTF-16', true, true), true, true);
const UTF_16BE = utf16FromUtf8(utf16('UTF-16BE', true, false), true, false);
const UTF_16LE = utf16FromUtf8(utf16('UTF-16LE', false, false), false, false);

/** Java's names and aliases (java.nio.charset.Charset.forName is case-insensitive). */
const BY_NAME = new Map<string, Charset>();
for (const [charset, names] of [
  [UTF_8, ['utf-8', 'utf8', 'unicode-1-1-utf-8']],
  [ISO_8859_1, ['iso-8859-1', 'iso8859-1', 'iso8859_1', 'iso_8859_1', 'iso_8859-1', 'iso_8859-1:1987', '8859_1', 'latin1', 'l1',
    'iso-ir-100', 'ibm819', 'ibm-819', 'cp819', '819', 'csisolatin1']],
  [US_ASCII, ['us-ascii', 'ascii', 'ascii7', 'us', 'iso646-us', 'iso-ir-6', 'ansi_x3.4-1968', 'ansi_x3.4-1986', 'iso_646.irv:1991',
    'iso_646.irv:1983', 'cp367', 'ibm367', '646', 'csascii', 'default']],
  [UTF_16, ['utf-16', 'utf_16', 'utf16', 'unicode', 'unicodebig']],
  [UTF_16BE, ['utf-16be', 'utf_16be', 'x-utf-16be', 'iso-10646-ucs-2', 'unicodebigunmarked']],
  [UTF_16LE, ['utf-16le', 'utf_16le', 'x-utf-16le', 'unicodelittleunmarked']],
] as const) {
  for (const name of names) BY_NAME.set(name, charset);
}

/** The charset a name stands for; UnsupportedCharsetError (400) for any other. */
export function resolveCharset(name: string): Charset {
  const charset = BY_NAME.get(name.toLowerCase());
  if (!charset) throw new UnsupportedCharsetError(name);
  return charset;
}

/** Text in charset `from` as the same characters in `to` (no copy when they are one charset). */
export function recode(bytes: Buffer, from: Charset, to: Charset): Buffer {
  if (from === to) return bytes;
  return (from === UTF_8 && to.fromUtf8?.(bytes)) || to.encode(from.decode(bytes));
}

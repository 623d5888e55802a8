import { UnsupportedCharsetError } from '../errors';

/**
 * The charsets text can be read and written in (the `charset` parameter of `text/plain`,
 * behavior-notes §4.2), each exactly as Java's: decoding replaces malformed input with U+FFFD,
 * encoding replaces a character the charset cannot hold with `?` (String.getBytes). Only those
 * Node can do both ways byte for byte; any other name is refused with the original's
 * UnsupportedCharsetException (400, the name as the message).
 */
export interface Charset {
  /** Java's canonical name. */
  readonly name: string;
  decode(bytes: Buffer): string;
  encode(text: string): Buffer;
}

const REPLACEMENT = '\uFFFD';
const QUESTION = 0x3f;

/** Bytes as single-byte code points below `limit` (256 for ISO-8859-1, 128 for US-ASCII). */
function singleByte(name: string, limit: number): Charset {
  return {
    name,
    decode: (bytes) => (limit === 256 ? bytes.toString('latin1') : bytes.toString('latin1').replace(/[\x80-\xff]/g, REPLACEMENT)),
    encode: (text) => {
      const out = Buffer.allocUnsafe(text.length);
      let n = 0;
      // one byte per code point: a surrogate pair is one character, hence one '?'
      for (const ch of text) {
        const c = ch.codePointAt(0)!;
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
      const le = Buffer.from((text as string & { toWellFormed(): string }).toWellFormed(), 'utf16le');
      const out = bigEndian ? swapped(le) : le;
      return bom ? Buffer.concat([Buffer.from([0xfe, 0xff]), out]) : out;
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

const ISO_8859_1 = singleByte('ISO-8859-1', 256);
const US_ASCII = singleByte('US-ASCII', 128);
const UTF_16 = utf16('UTF-16', true, true);
const UTF_16BE = utf16('UTF-16BE', true, false);
const UTF_16LE = utf16('UTF-16LE', false, false);

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
  return from === to ? bytes : to.encode(from.decode(bytes));
}

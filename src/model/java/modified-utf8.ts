import { isAscii } from 'node:buffer';

/**
 * Java's modified UTF-8 (DataOutput.writeUTF, JBoss River strings): NUL as C0 80, each half of a
 * surrogate pair as its own three bytes. Both ways in one pass over a preallocated buffer: text
 * built a character at a time (`s += …`, an array of numbers) made a 10 MB String cost seconds
 * and hundreds of MB.
 */
export function encodeModifiedUtf8(s: string): Buffer {
  // no NUL and no surrogate: the same bytes as standard UTF-8, which Node writes natively
  if (!/[\0\ud800-\udfff]/.test(s)) return Buffer.from(s, 'utf8');
  let size = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    size += c >= 1 && c <= 0x7f ? 1 : c <= 0x7ff ? 2 : 3;
  }
  const out = Buffer.allocUnsafe(size);
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 1 && c <= 0x7f) {
      out[n++] = c;
    } else if (c <= 0x7ff) {
      out[n++] = 0xc0 | (c >> 6);
      out[n++] = 0x80 | (c & 0x3f);
    } else {
      out[n++] = 0xe0 | (c >> 12);
      out[n++] = 0x80 | ((c >> 6) & 0x3f);
      out[n++] = 0x80 | (c & 0x3f);
    }
  }
  return out;
}

/**
 * Modified UTF-8 back to text. `strict` (ObjectInputStream) refuses a byte that starts no
 * sequence and a sequence cut short: undefined. Otherwise (River's reader) every byte from 0x80
 * that is not a two-byte start reads as a three-byte sequence, and missing bytes read as zero.
 * Continuation bytes are never checked, as neither reader does.
 */
export function decodeModifiedUtf8(b: Buffer, strict: boolean): string | undefined {
  if (isAscii(b)) return b.toString('latin1');
  // UTF-16 code units, little-endian, then one native conversion to a string
  const units = Buffer.allocUnsafe(b.length * 2);
  let n = 0;
  for (let i = 0; i < b.length;) {
    const c = b[i];
    let unit: number;
    if (c < 0x80) {
      unit = c;
      i += 1;
    } else if ((c & 0xe0) === 0xc0 && (!strict || i + 1 < b.length)) {
      unit = ((c & 0x1f) << 6) | ((b[i + 1] ?? 0) & 0x3f);
      i += 2;
    } else if (!strict || ((c & 0xf0) === 0xe0 && i + 2 < b.length)) {
      unit = ((c & 0x0f) << 12) | (((b[i + 1] ?? 0) & 0x3f) << 6) | ((b[i + 2] ?? 0) & 0x3f);
      i += 3;
    } else {
      return undefined;
    }
    units[n++] = unit & 0xff;
    units[n++] = unit >> 8;
  }
  return units.toString('utf16le', 0, n);
}

import { createHash } from 'node:crypto';

/**
 * How a name becomes part of a path (docs/security.md "Names"): letters, digits, `.`, `_` and `-`
 * stay, every other UTF-8 byte becomes `%XX` (upper-case hex), and the names `.` and `..` are
 * encoded whole. So no name can climb out of its folder, hold a separator or break a comma list,
 * two names never share an encoding (`a/b` is `a%2Fb`, `a%2Fb` is `a%252Fb`), and simple names read
 * as themselves. The layout of backup archives is written with it (docs/backup-format.md).
 */
export function encodeName(name: string): string {
  if (name === '.' || name === '..') return name.replace(/\./g, '%2E');
  let out = '';
  for (const byte of Buffer.from(name, 'utf8')) {
    out += isPlain(byte) ? String.fromCharCode(byte) : '%' + byte.toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}

/** The name `encodeName` gave `encoded`; undefined when `encoded` is not such an encoding. */
export function decodeName(encoded: string): string | undefined {
  if (!/^(?:[A-Za-z0-9._-]|%[0-9A-Fa-f]{2})+$/.test(encoded)) return undefined;
  try {
    return decodeURIComponent(encoded);
  } catch {
    return undefined;
  }
}

/** An encoded name longer than this is shortened in file names (a file name holds 255 bytes; `.zip.tmp` is added). */
export const MAX_FILE_NAME_CHARS = 200;
const KEPT_CHARS = 160;

/**
 * A name as one file or folder name on disk: its `encodeName`, or — when that is longer than
 * MAX_FILE_NAME_CHARS (a 255-byte name may encode to 765 characters) — the encoding's first 160
 * characters, `~` and the SHA-256 of the name in 32 hex digits. `~` never appears in an encoding,
 * so a shortened name cannot meet a whole one.
 */
export function fileNameOf(name: string): string {
  const encoded = encodeName(name);
  if (encoded.length <= MAX_FILE_NAME_CHARS) return encoded;
  const kept = encoded.slice(0, KEPT_CHARS).replace(/%[0-9A-F]?$/, ''); // no escape cut in half
  return `${kept}~${createHash('sha256').update(name, 'utf8').digest('hex').slice(0, 32)}`;
}

function isPlain(byte: number): boolean {
  return (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a) || byte === 0x2e || byte === 0x5f || byte === 0x2d;
}

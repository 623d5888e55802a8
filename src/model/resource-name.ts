import { InvalidNameError, NameTooLongError } from '../errors';

/** Longest name in UTF-8 bytes (the original's ISPN000663 rule). */
export const MAX_NAME_BYTES = 255;

// NUL and every other control character (CR/LF included: names end up in headers and logs), a
// slash or two dots (names end up as file names in backup archives) are never part of a name.
const FORBIDDEN = /[\u0000-\u001f\u007f/]|\.\./;

/**
 * The one rule for the names a client gives to what it creates: caches, templates, schemas,
 * tasks, counters, backups and restores (docs/security.md "Limits"). 400 when broken.
 */
export function checkResourceName(kind: string, name: string): void {
  if (Buffer.byteLength(name, 'utf8') > MAX_NAME_BYTES) throw new NameTooLongError(name);
  if (name === '' || FORBIDDEN.test(name)) throw new InvalidNameError(kind, name);
}

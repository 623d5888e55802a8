import { InvalidNameError, NameTooLongError } from '../errors';

/** Longest name in UTF-8 bytes (the original's ISPN000663 rule). */
export const MAX_NAME_BYTES = 255;

// Control characters — C0 (NUL, CR, LF…), DEL and C1 — are never part of a name: names appear in
// logs, headers and error texts. Everything else is, `/` and `..` included, as in the original:
// where a name becomes a file name it is encoded (model/name-encoding.ts).
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
// a lone surrogate (only a JSON body can send one) has no UTF-8 form: two such names would be one
// on disk and in archives
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * The one rule for the names a client gives to what it creates: caches, cache aliases, templates,
 * schemas, tasks, counters, backups and restores (docs/security.md "Names"). 400 when broken.
 */
export function checkResourceName(kind: string, name: string): void {
  if (Buffer.byteLength(name, 'utf8') > MAX_NAME_BYTES) throw new NameTooLongError(name);
  if (name === '' || CONTROL.test(name) || LONE_SURROGATE.test(name)) throw new InvalidNameError(kind, name);
}

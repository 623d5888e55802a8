import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number, opts: object) => Promise<Buffer>;

/** scrypt parameters: ~50 ms per hash, which is why successful verifications are remembered. */
const PARAMS = { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const KEY_LENGTH = 32;

export const REALM = 'default';

/**
 * The scrypt hash (PARAMS, as every user's) of 32 random bytes that were thrown away: no password
 * matches it, and verifying against it costs what a real verification costs, so unknown users are
 * answered in the time known ones are. A constant, so that the start does not spend a hash on it.
 */
export const UNKNOWN_USER_HASH = 'scrypt$16384$8$1$r5/QnMDDerItcumtYRWeMA==$Obdf1G1j3O8aWbC4mudiHnBzFT2rpUebkKWCuywVuqM=';

/** `scrypt$N$r$p$salt$hash` (base64 parts); hashed on the thread pool, off the event loop. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(password, salt, KEY_LENGTH, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64'), hash.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64'), expected.length,
    { N: Number(n), r: Number(r), p: Number(p), maxmem: PARAMS.maxmem });
  return timingSafeEqual(actual, expected);
}

export type DigestAlgorithm = 'MD5' | 'SHA-256';

/** What HTTP Digest needs instead of the password: H(user:realm:password) (RFC 7616 HA1). */
export function digestHa1(algorithm: DigestAlgorithm, user: string, password: string): string {
  return digestHash(algorithm, `${user}:${REALM}:${password}`);
}

export function digestHash(algorithm: DigestAlgorithm, text: string): string {
  return createHash(algorithm === 'MD5' ? 'md5' : 'sha256').update(text, 'utf8').digest('hex');
}

/** A readable random password for the first-start admin user. */
export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}

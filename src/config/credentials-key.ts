import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, linkSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from './server-config';

/** The key that encrypts the Digest HA1 values in `grid.db` (docs/security.md, Files and secrets). */
export const CREDENTIALS_KEY_FILE = 'credentials.key';
const KEY_BYTES = 32;
/** Owner read/write only, whatever the umask. */
const KEY_FILE_MODE = 0o600;

export interface CredentialsKey {
  key: Buffer;
  path: string;
  /** True when this call made the file (first start, or the file had been removed). */
  created: boolean;
}

/**
 * Reads `<dataDir>/credentials.key`, creating it (0600, 32 random bytes as Base64) when missing.
 * Creation writes a private temp file and hard-links it into place, so two processes starting at
 * once (server and `grid user`) end up with the same key and nobody reads a half-written one.
 */
export function loadOrCreateCredentialsKey(dataDir: string): CredentialsKey {
  const path = join(dataDir, CREDENTIALS_KEY_FILE);
  const existing = readKey(path);
  if (existing) return { key: existing, path, created: false };
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  let created = false;
  try {
    const fd = openSync(tmp, 'wx', KEY_FILE_MODE);
    try {
      writeSync(fd, randomBytes(KEY_BYTES).toString('base64') + '\n');
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    try {
      linkSync(tmp, path);
      created = true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  } finally {
    rmSync(tmp, { force: true });
  }
  fsyncDir(dataDir);
  const key = readKey(path);
  if (!key) throw new ConfigError(`${path}: could not be created`);
  return { key, path, created };
}

function readKey(path: string): Buffer | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ConfigError(`${path}: cannot be read: ${(err as Error).message}`);
  }
  const key = Buffer.from(text.trim(), 'base64');
  if (key.length !== KEY_BYTES || key.toString('base64') !== text.trim()) {
    throw new ConfigError(`${path}: not a grid credentials key (expected ${KEY_BYTES} bytes in Base64); restore it from a backup, or remove it and set every password again`);
  }
  return key;
}

function fsyncDir(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

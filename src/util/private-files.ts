import { chmodSync, closeSync, lstatSync, mkdirSync, openSync, readdirSync, type Stats } from 'node:fs';
import { join } from 'node:path';

/**
 * Everything grid writes is readable by its own user only, whatever the umask: files 0600,
 * directories 0700. The modes are given explicitly at creation (a umask can only take bits away)
 * and put right with chmod where something already existed.
 */
export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;

/** What grid itself creates in its data directory; nothing else there is touched. */
const OWN_FILES = ['grid.db', 'grid.db-wal', 'grid.db-shm', 'grid.db-journal', 'credentials.key'];
const OWN_TREES = ['log', 'backups', 'restores', 'tenants', 'tls'];

/** A path whose permissions were wider than grid's, and what they were. */
export interface Widened {
  path: string;
  mode: number;
}

/** Creates the directory (and missing parents) 0700; an existing one is narrowed to 0700. */
export function ensurePrivateDir(path: string): Widened[] {
  mkdirSync(path, { recursive: true, mode: PRIVATE_DIR_MODE });
  return narrow(path, lstatSync(path));
}

/** Creates an empty file 0600 unless it exists; an existing one is narrowed to 0600. */
export function ensurePrivateFile(path: string): Widened[] {
  closeSync(openSync(path, 'a', PRIVATE_FILE_MODE));
  return narrow(path, lstatSync(path));
}

/**
 * The data directory, grid's files in it and the trees grid owns (logs, backups, uploaded
 * restores) narrowed to 0700/0600. Symbolic links are neither followed nor changed; files grid
 * did not create are left alone. Returns what was wider, so the caller can warn once.
 */
export function secureDataDir(dataDir: string): Widened[] {
  const widened = ensurePrivateDir(dataDir);
  for (const name of OWN_FILES) widened.push(...narrowIfPresent(join(dataDir, name)));
  for (const name of OWN_TREES) widened.push(...narrowTree(join(dataDir, name)));
  return widened;
}

/** Narrows a directory and everything under it (used for trees grid writes into). */
export function narrowTree(path: string): Widened[] {
  const stats = statOrUndefined(path);
  if (!stats) return [];
  const widened = narrow(path, stats);
  if (!stats.isDirectory()) return widened;
  for (const name of readdirSync(path)) widened.push(...narrowTree(join(path, name)));
  return widened;
}

function narrowIfPresent(path: string): Widened[] {
  const stats = statOrUndefined(path);
  return stats ? narrow(path, stats) : [];
}

function narrow(path: string, stats: Stats): Widened[] {
  if (stats.isSymbolicLink()) return [];
  const mode = stats.mode & 0o777;
  if ((mode & 0o077) === 0) return [];
  chmodSync(path, stats.isDirectory() ? PRIVATE_DIR_MODE : PRIVATE_FILE_MODE);
  return [{ path, mode }];
}

function statOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

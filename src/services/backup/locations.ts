import { close, constants, fstat, open, realpathSync, statfsSync, statSync } from 'node:fs';
import { realpath, stat, statfs } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import { promisify } from 'node:util';

/**
 * statfs `f_type` of file systems that hold no real files: reading or creating there hangs, loops
 * or reaches the kernel (the `{"directory":"/proc/self"}` backup never finished).
 */
const SPECIAL_FILE_SYSTEMS = new Map<number, string>([
  [0x9fa0, 'proc'], [0x62656572, 'sysfs'], [0x1cd1, 'devpts'], [0x64626720, 'debugfs'], [0x74726163, 'tracefs'],
  [0x73636673, 'securityfs'], [0x27e0eb, 'cgroup'], [0x63677270, 'cgroup2'], [0xcafe4a11, 'bpf'], [0x6e736673, 'nsfs'],
  [0xde5e81e4, 'efivarfs'], [0x6165676c, 'pstore'], [0x62656570, 'configfs'], [0x65735543, 'fusectl'], [0x19800202, 'mqueue'],
  [0x42494e4d, 'binfmt_misc'], [0x50495045, 'pipefs'], [0x534f434b, 'sockfs'],
]);

/** What a request's path turned out to be: allowed (its real path), absent inside the roots, or refused. */
export type Located = { kind: 'found'; path: string } | { kind: 'missing'; reason: string } | { kind: 'refused'; reason: string };

/** Why a configured root cannot serve; startServer turns it into a configuration error. */
export class BackupRootError extends Error {}

/**
 * Where backups may be written and restores read: the data dir and the configured `backup-roots`.
 * A request's path resolves against the data dir (never the process's working directory), must
 * stay inside a root lexically and once symbolic links are followed, and must not be on a special
 * file system. Anything else is `refused` without the file system being asked about it, so an
 * answer never tells whether a path outside the roots exists.
 */
export class BackupLocations {
  private constructor(
    private readonly dataDir: string, private readonly lexical: string[], private readonly real: string[], private readonly excluded: string[],
  ) {}

  /**
   * Checks each root once at start: an existing directory on an ordinary file system. `excluded`
   * folders inside the roots are out of bounds too (the default container's `tenants/`).
   */
  static open(dataDir: string, configured: readonly string[], excluded: readonly string[] = []): BackupLocations {
    const roots = [resolve(dataDir), ...configured.map((r) => resolve(r))];
    const real = roots.map((root) => {
      let path: string;
      try {
        path = realpathSync(root);
        if (!statSync(path).isDirectory()) throw new BackupRootError(`backup-roots: '${root}' is not a directory`);
      } catch (e) {
        if (e instanceof BackupRootError) throw e;
        throw new BackupRootError(`backup-roots: '${root}' is not a directory`);
      }
      const special = SPECIAL_FILE_SYSTEMS.get(statfsSync(path).type);
      if (special) throw new BackupRootError(`backup-roots: '${root}' is on the special file system ${special}`);
      return path;
    });
    const out = excluded.map((e) => resolve(e)).flatMap((e) => {
      try {
        return [e, realpathSync(e)];
      } catch {
        return [e];
      }
    });
    return new BackupLocations(resolve(dataDir), roots, real, out);
  }

  /** The roots as configured (the data dir first). */
  get roots(): readonly string[] {
    return this.lexical;
  }

  /** A backup's `directory`: found when it is an existing directory inside the roots. */
  async directory(requested: string): Promise<Located> {
    const at = await this.locate(requested);
    if (at.kind !== 'found') return at;
    const s = await stat(at.path).catch(() => undefined);
    return s?.isDirectory() ? at : { kind: 'missing', reason: 'not a directory' };
  }

  /** A restore's `location`: found when it is a regular file inside the roots. */
  async file(requested: string): Promise<Located> {
    const at = await this.locate(requested);
    if (at.kind !== 'found') return at;
    const s = await stat(at.path).catch(() => undefined);
    if (!s) return { kind: 'missing', reason: 'no such file' };
    return s.isFile() ? at : { kind: 'refused', reason: 'not a regular file' };
  }

  private async locate(requested: string): Promise<Located> {
    if (requested === '' || requested.includes('\0')) return { kind: 'refused', reason: 'empty or NUL in path' };
    const path = resolve(this.dataDir, requested);
    if (!within(path, this.lexical) && !within(path, this.real)) return { kind: 'refused', reason: 'outside the backup roots' };
    if (within(path, this.excluded)) return { kind: 'refused', reason: 'inside another container\'s data' };
    let real: string;
    try {
      real = await realpath(path);
    } catch {
      return { kind: 'missing', reason: 'no such file or directory' };
    }
    if (!within(real, this.real) || within(real, this.excluded)) return { kind: 'refused', reason: 'a symbolic link out of the backup roots' };
    const fs = await statfs(real).catch(() => undefined);
    if (!fs) return { kind: 'missing', reason: 'no such file or directory' };
    const special = SPECIAL_FILE_SYSTEMS.get(fs.type);
    if (special) return { kind: 'refused', reason: `on the special file system ${special}` };
    return { kind: 'found', path: real };
  }
}

function within(path: string, roots: readonly string[]): boolean {
  return roots.some((root) => {
    const rel = relative(root, path);
    return rel === '' || (rel !== '..' && !rel.startsWith('../') && !isAbsolute(rel));
  });
}

/**
 * Opens a file for reading without following a link swapped in since it was checked and without
 * blocking on a FIFO, and checks that what was opened is a regular file. A raw descriptor, for
 * readers (yauzl) that close it themselves.
 */
export async function openRegularFile(path: string): Promise<number> {
  const fd = await promisify(open)(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    if (!(await promisify(fstat)(fd)).isFile()) throw new Error('not a regular file');
    return fd;
  } catch (e) {
    await promisify(close)(fd);
    throw e;
  }
}

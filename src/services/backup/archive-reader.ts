import { closeSync } from 'node:fs';
import type { Readable } from 'node:stream';
import type * as yauzl from 'yauzl';
import { lazy } from '../../util/lazy';
import { InvalidArchiveError } from '../../errors';
import { checkEntryName } from '../../model/backup/backup-archive';
import { openRegularFile } from './locations';

const loadYauzl = lazy(() => require('yauzl') as typeof import('yauzl'));

/** What a restore accepts of an archive before it reads a byte of content. */
export interface ArchiveLimits {
  /** uncompressed / compressed size above this, for an entry over 1 MiB, is a zip bomb. */
  maxRatio: number;
  maxUncompressedBytes: number;
  maxEntries: number;
  /** Properties, configurations, schemas and scripts are read whole; this bounds them. */
  maxTextBytes: number;
}

const RATIO_FLOOR = 1024 * 1024;
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

/**
 * An archive opened for a restore. `open` reads the central directory only and refuses, with
 * InvalidArchiveError (400), anything hostile: absolute or `..` paths, backslashes, symlinks,
 * duplicate names, encrypted entries, absurd compression ratios or sizes. Content is read later,
 * entry by entry, and yauzl checks each entry's real size against the declared one.
 */
export class ArchiveReader {
  private constructor(private readonly zip: yauzl.ZipFile, private readonly entries: Map<string, yauzl.Entry>) {}

  static async open(path: string, limits: ArchiveLimits): Promise<ArchiveReader> {
    let zip: yauzl.ZipFile;
    let fd: number | undefined;
    try {
      fd = await openRegularFile(path);
      // once opened, the zip owns the descriptor and closes it in close()
      zip = await loadYauzl().fromFdPromise(fd, { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: true });
    } catch (e) {
      if (fd !== undefined) closeSync(fd);
      throw new InvalidArchiveError(e instanceof Error ? e.message : 'not a zip file');
    }
    try {
      return new ArchiveReader(zip, await readDirectory(zip, limits));
    } catch (e) {
      zip.close();
      throw e instanceof InvalidArchiveError ? e : new InvalidArchiveError(e instanceof Error ? e.message : String(e));
    }
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  async stream(name: string): Promise<Readable> {
    const entry = this.entries.get(name);
    if (!entry) throw new Error(`missing entry '${name}'`);
    return this.zip.openReadStreamPromise(entry);
  }

  async text(name: string, limit: number): Promise<string> {
    const entry = this.entries.get(name);
    if (!entry) throw new Error(`missing entry '${name}'`);
    if (entry.uncompressedSize > limit) throw new Error(`entry '${name}' is larger than ${limit} bytes`);
    const chunks: Buffer[] = [];
    for await (const chunk of await this.stream(name)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }

  close(): void {
    this.zip.close();
  }
}

function readDirectory(zip: yauzl.ZipFile, limits: ArchiveLimits): Promise<Map<string, yauzl.Entry>> {
  return new Promise((resolve, reject) => {
    const entries = new Map<string, yauzl.Entry>();
    let total = 0;
    zip.on('error', reject);
    zip.on('end', () => resolve(entries));
    zip.on('entry', (entry: yauzl.Entry) => {
      const refusal = refuse(entry, entries, limits, (total += entry.uncompressedSize));
      if (refusal) return reject(new InvalidArchiveError(refusal));
      if (!entry.fileName.endsWith('/')) entries.set(entry.fileName, entry);
      zip.readEntry();
    });
    zip.readEntry();
  });
}

function refuse(entry: yauzl.Entry, seen: Map<string, yauzl.Entry>, limits: ArchiveLimits, total: number): string | undefined {
  const name = entry.fileName;
  const badName = checkEntryName(name);
  if (badName) return badName;
  if (seen.has(name)) return `duplicate entry '${name}'`;
  if (seen.size >= limits.maxEntries) return `more than ${limits.maxEntries} entries`;
  if (((entry.externalFileAttributes >>> 16) & S_IFMT) === S_IFLNK) return `symbolic link '${name}'`;
  if (entry.isEncrypted()) return `encrypted entry '${name}'`;
  const ratio = entry.uncompressedSize / Math.max(entry.compressedSize, 1);
  if (entry.uncompressedSize > RATIO_FLOOR && ratio > limits.maxRatio) return `entry '${name}' compression ratio ${Math.round(ratio)} exceeds ${limits.maxRatio}`;
  if (total > limits.maxUncompressedBytes) return `uncompressed size exceeds ${limits.maxUncompressedBytes} bytes`;
  return undefined;
}

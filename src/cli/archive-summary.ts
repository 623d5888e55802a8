import type { Readable } from 'node:stream';
import type * as yauzl from 'yauzl';
import { FrameReader } from '../model/backup/backup-archive';
import { CommandFailure } from './failure';

export interface ArchiveSummary {
  caches: number;
  /** Entries of all caches, or undefined when the `.dat` files are not in grid's format. */
  entries: number | undefined;
}

const CACHE_DATA = /^containers\/[^/]+\/caches\/[^/]+\/[^/]+\.dat$/;

/**
 * What a backup archive holds, read on this machine before it is uploaded: how many caches and
 * entries (records of grid's `.dat` files, docs/backup-format.md). A file that is no zip fails here,
 * in one sentence, instead of after the upload.
 */
export async function summarizeArchive(file: string, onEntries: (n: number) => void): Promise<ArchiveSummary> {
  const yauzlLib = require('yauzl') as typeof import('yauzl');
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzlLib.openPromise(file, { lazyEntries: true, autoClose: false });
  } catch (err) {
    throw new CommandFailure(`${file} is not a zip archive (${(err as Error).message})`);
  }
  try {
    let caches = 0;
    let entries: number | undefined = 0;
    for await (const entry of entriesOf(zip)) {
      if (!CACHE_DATA.test(entry.fileName)) continue;
      caches++;
      const n: number | undefined = entries === undefined ? undefined : await countRecords(await zip.openReadStreamPromise(entry), (k) => onEntries(entries! + k));
      entries = n === undefined || entries === undefined ? undefined : entries + n;
    }
    return { caches, entries };
  } catch (err) {
    throw err instanceof CommandFailure ? err : new CommandFailure(`${file} cannot be read as a zip archive (${(err as Error).message})`);
  } finally {
    zip.close();
  }
}

async function* entriesOf(zip: yauzl.ZipFile): AsyncGenerator<yauzl.Entry> {
  for (;;) {
    const entry = await new Promise<yauzl.Entry | undefined>((resolve, reject) => {
      zip.once('entry', resolve);
      zip.once('end', () => resolve(undefined));
      zip.once('error', reject);
      zip.readEntry();
    });
    zip.removeAllListeners('entry').removeAllListeners('end').removeAllListeners('error');
    if (!entry) return;
    yield entry;
  }
}

/**
 * Records of a `.dat` file, framed as the server reads them (model/backup/backup-archive.ts FrameReader);
 * undefined when the bytes do not frame (another format).
 */
async function countRecords(stream: Readable, progress: (n: number) => void): Promise<number | undefined> {
  const frames = new FrameReader();
  let count = 0;
  // a read error of the zip goes to the caller; only bytes that do not frame mean "another format"
  const framed = (read: () => number): boolean => {
    try {
      for (let n = read(); n > 0; n--) if (++count % 10_000 === 0) progress(count);
      return true;
    } catch {
      return false;
    }
  };
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    if (!framed(() => frames.push(chunk).length)) {
      stream.destroy();
      return undefined;
    }
  }
  return framed(() => { frames.end(); return 0; }) ? count : undefined;
}

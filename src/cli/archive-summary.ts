import type { Readable } from 'node:stream';
import type * as yauzl from 'yauzl';
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

/** Records of `[4-byte big-endian length][message]`; undefined when the bytes do not frame (another format). */
async function countRecords(stream: Readable, progress: (n: number) => void): Promise<number | undefined> {
  let count = 0;
  let skip = 0;
  const header = Buffer.alloc(4);
  let headerBytes = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    let at = 0;
    while (at < chunk.length) {
      if (skip > 0) {
        const n = Math.min(skip, chunk.length - at);
        skip -= n;
        at += n;
        continue;
      }
      const n = Math.min(4 - headerBytes, chunk.length - at);
      chunk.copy(header, headerBytes, at, at + n);
      headerBytes += n;
      at += n;
      if (headerBytes < 4) continue;
      headerBytes = 0;
      skip = header.readUInt32BE(0);
      if (skip > 256 * 1024 * 1024) {
        stream.destroy();
        return undefined;
      }
      if (++count % 10_000 === 0) progress(count);
    }
  }
  return skip === 0 && headerBytes === 0 ? count : undefined;
}

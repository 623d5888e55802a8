import { constants } from 'node:fs';
import { lstat, mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { lazy } from '../../util/lazy';
import {
  ARCHIVE_VERSION, CONSISTENCY, KEY_FORMAT, KEYS_IN_STORAGE_TYPE, MANIFEST, archivePaths, encodeCounter, encodeEntry, formatNameList, formatProperties, frame,
} from '../../model/backup/backup-archive';
import type { StoredEntry } from '../../store/store';
import type { CacheSnapshot, ContainerSnapshot } from './snapshot';
import { OperationFailure, yieldToLoop } from './sources';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../../util/private-files';

const loadYazl = lazy(() => require('yazl') as typeof import('yazl'));

/** A link or FIFO planted where the temp file goes fails the backup instead of redirecting or hanging it. */
const WRITE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW | constants.O_NONBLOCK;

export interface WrittenArchive {
  entries: number;
  bytes: number;
}

/**
 * Writes a snapshot as a zip (docs/reference/management-plane.md#backup-archive) to `<target>.tmp`, fsyncs it, renames it to
 * `target` and fsyncs the folder: a crash leaves either no archive or a whole one. Cache entries
 * are streamed a page at a time, so memory stays flat whatever the cache's size.
 */
export async function writeArchive(snapshot: ContainerSnapshot, container: string, target: string, signal?: AbortSignal): Promise<WrittenArchive> {
  await mkdir(dirname(target), { recursive: true, mode: PRIVATE_DIR_MODE });
  const tmp = `${target}.tmp`;
  const counted = { entries: 0 };
  try {
    // the file is open before the zip is built: a page that fails at once must find the pipeline
    // listening, or the zip's destroyed output would throw its error at nobody (an uncaught exception)
    const out = await open(tmp, WRITE_FLAGS, PRIVATE_FILE_MODE);
    const file = out.createWriteStream();
    await pipeline(zipOf(snapshot, container, counted, signal).outputStream, file, { signal });
    const bytes = await fsyncFile(tmp);
    signal?.throwIfAborted();
    // an archive that appeared meanwhile is not ours to replace (docs/backup-format.md)
    if (await lstat(target).then(() => true, () => false)) throw new OperationFailure(`The backup archive '${target}' exists already`);
    await rename(tmp, target);
    await fsyncFile(dirname(target));
    return { entries: counted.entries, bytes };
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
}

/** The archive's files (docs/reference/management-plane.md#backup-archive); cache entries are read as the zip is written. */
function zipOf(snapshot: ContainerSnapshot, container: string, counted: { entries: number }, signal: AbortSignal | undefined): import('yazl').ZipFile {
  const zip = new (loadYazl().ZipFile)();
  const p = archivePaths;
  const text = (s: string) => Buffer.from(s, 'utf8');
  const manifest = { containers: formatNameList([container]), version: ARCHIVE_VERSION, [KEY_FORMAT]: KEYS_IN_STORAGE_TYPE, [CONSISTENCY]: snapshot.consistency };
  zip.addBuffer(text(formatProperties(manifest)), MANIFEST);
  zip.addBuffer(text(formatProperties({
    caches: formatNameList(snapshot.caches.map((c) => c.name)),
    templates: formatNameList(snapshot.templates.map((t) => t.name)),
    counters: formatNameList(snapshot.counters.map((c) => c.name)),
    'proto-schemas': formatNameList(snapshot.schemas.map((s) => s.name)),
    tasks: formatNameList(snapshot.tasks.map((t) => t.name)),
  })), p.containerProperties(container));
  zip.addBuffer(text(`<?xml version="1.0"?>\n<infinispan>\n  <cache-container name="${container}"/>\n</infinispan>\n`), p.globalConfig(container));
  for (const c of snapshot.caches) {
    zip.addBuffer(text(c.configXml), p.cacheConfig(container, c.name));
    const entries = Readable.from(entryChunks(c, counted, signal));
    // yazl listens for no errors on its inputs: a failed page read fails the archive, never the process
    entries.on('error', (err) => (zip.outputStream as Readable).destroy(err)); // a PassThrough
    zip.addReadStream(entries, p.cacheData(container, c.name));
  }
  for (const t of snapshot.templates) zip.addBuffer(text(t.xml), p.template(container, t.name));
  if (snapshot.counters.length) zip.addBuffer(Buffer.concat(snapshot.counters.map((c) => frame(encodeCounter(c)))), p.counters(container));
  for (const s of snapshot.schemas) zip.addBuffer(text(s.content), p.schema(container, s.name));
  for (const t of snapshot.tasks) zip.addBuffer(text(t.script), p.task(container, t.name));
  zip.end();
  return zip;
}

/**
 * One chunk of framed CacheBackupEntry records per page, letting other requests run between pages.
 * An aborted backup just stops reading; the pipeline's own signal fails the archive.
 */
async function* entryChunks(c: CacheSnapshot, counted: { entries: number }, signal: AbortSignal | undefined): AsyncGenerator<Buffer> {
  const source = c.pages();
  // a snapshot's pages come at once; the redis engine's as each is read (the walk is let go on an abort)
  const pages: Iterator<Iterable<StoredEntry>> | AsyncIterator<Iterable<StoredEntry>> = Symbol.asyncIterator in source ? source[Symbol.asyncIterator]() : source[Symbol.iterator]();
  try {
    for (;;) {
      if (signal?.aborted) return; // checked right before each page is read: an aborted backup's snapshot may be closed
      const page = await pages.next();
      if (page.done) return;
      const records: Buffer[] = [];
      for (const e of page.value) records.push(frame(encodeEntry(e)));
      counted.entries += records.length;
      yield Buffer.concat(records);
      await yieldToLoop();
    }
  } finally {
    await pages.return?.();
  }
}

async function fsyncFile(path: string): Promise<number> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
    return (await handle.stat()).size;
  } finally {
    await handle.close();
  }
}

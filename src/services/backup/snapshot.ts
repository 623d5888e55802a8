import { formatCacheDocument } from '../../model/cache-config';
import type { ArchivedCounter, Consistency } from '../../model/backup/backup-archive';
import { type Resources, selectNames } from '../../model/backup/backup-resources';
import type { Store, StoredEntry, StoreSnapshot } from '../../store/store';
import type { Pages } from '../../util/pages';
import { type BackupSources, OperationFailure } from './sources';

const PAGE = 1000;
/** A page of entries stops at this many bytes (or one entry, if larger): one page is one step of the event loop. */
const PAGE_BYTES = 1024 * 1024;
/** Waiting for a quiet instant gives up after this many group commits in a row (a write storm). */
const MAX_COMMIT_WAITS = 10_000;

export interface CacheSnapshot {
  name: string;
  configXml: string;
  /**
   * Entry pages: at the snapshot instant, read lazily for caches whose entries live in SQLite; or,
   * on the redis engine, each page as it is read (docs/backup-format.md#guarantees).
   */
  pages(): Iterable<StoredEntry[]> | Pages<StoredEntry>;
}

/** Everything a backup holds, as it was at one instant. `close` releases the database snapshot. */
export interface ContainerSnapshot {
  caches: CacheSnapshot[];
  templates: Array<{ name: string; xml: string }>;
  counters: ArchivedCounter[];
  schemas: Array<{ name: string; content: string }>;
  tasks: Array<{ name: string; script: string }>;
  /** What instant the entries are of: the archive's manifest says it. */
  consistency: Consistency;
  close(): void;
}

/**
 * Captures the selected resources at one consistent instant (docs/backup-format.md#guarantees, point in time): once no group
 * commit is pending, everything is read in the same synchronous turn of the event loop — memory
 * caches copied, a SQLite read transaction opened on a second connection, small resources read —
 * so no write can fall between two of them. Persistent entries are then paged from that snapshot.
 *
 * @public loaded on first use, through `lazy(() => require(…))`, which the dead-export check cannot follow
 */
export async function captureSnapshot(src: BackupSources, store: Store, resources: Resources, now: () => number): Promise<ContainerSnapshot> {
  const cacheNames = src.manager.handles().filter((h) => !h.internal).map((h) => h.cache.name);
  const caches = selectNames(resources.caches, cacheNames);
  if (caches.missing.length) throw new OperationFailure(`Unable to find cache(s) ${caches.missing.join(', ')}`);
  const templates = selectNames(resources.templates, src.manager.templateDefinitions().map(([n]) => n));
  if (templates.missing.length) throw new OperationFailure(`Unable to find template(s) ${templates.missing.join(', ')}`);
  const counters = selectNames(resources.counters, src.counters.names());
  if (counters.missing.length) throw new OperationFailure(`Unable to find counter(s) ${counters.missing.join(', ')}`);
  const schemas = selectNames(resources['proto-schemas'], src.schemas.list().map((s) => s.name));
  if (schemas.missing.length) throw new OperationFailure(`Unable to find schema(s) ${schemas.missing.join(', ')}`);
  const tasks = selectNames(resources.tasks, src.tasks.list(true).map((t) => t.name));
  if (tasks.missing.length) throw new OperationFailure(`Unable to find task(s) ${tasks.missing.join(', ')}`);

  // the instant needs no batch half-collected: this turn's writes reach the store first
  for (let waits = 0; store.collectingCommit; waits++) {
    if (waits >= MAX_COMMIT_WAITS) throw new OperationFailure('Unable to find a quiet instant for a consistent snapshot');
    await store.whenWritten();
  }
  // ---- from here to the return, no await: this is the instant of the backup ----
  const db = store.openSnapshot();
  const at = now();
  const cacheSnapshots = caches.names.map((name): CacheSnapshot => {
    const h = src.manager.require(name);
    const configXml = formatCacheDocument(h.definition, name, 'xml', true);
    const { persistent, passivation } = h.cache.settings;
    if (persistent && !passivation) {
      // write-through: nothing pending, so the store holds every entry; page it from the snapshot
      const cacheId = h.cache.id;
      return { name, configXml, pages: () => pagesFromStore(db, cacheId, at) };
    }
    // memory is copied now (a write replaces an entry's object, so the copy keeps what it held)
    const held = [...h.cache.memoryEntries()];
    if (!persistent) return { name, configXml, pages: () => pagesOf(held) };
    // passivating: memory, then the passivated rows it does not hold, paged from the snapshot
    const ids = new Set(held.map((e) => e.key.toString('latin1')));
    const cacheId = h.cache.id;
    return { name, configXml, pages: () => concat(pagesOf(held), pagesFromStore(db, cacheId, at, (e) => !ids.has(e.key.toString('latin1')))) };
  });
  const counterValues = counters.names.map((name) => ({ name, configuration: src.counters.config(name, false), value: src.counters.value(name) }));
  const snapshot = {
    caches: cacheSnapshots,
    templates: src.manager.templateDefinitions().filter(([n]) => templates.names.includes(n)).map(([name, def]) => ({ name, xml: formatCacheDocument(def, name, 'xml', true) })),
    schemas: schemas.names.map((name) => ({ name, content: src.schemas.content(name) })),
    tasks: tasks.names.map((name) => ({ name, script: src.tasks.script(name) })),
    consistency: 'point-in-time' as const,
    close: () => db.close(),
  };
  // ---- the instant ends here; counter values were read synchronously inside `value` (nothing pending) ----
  try {
    // what the snapshot holds was written; the archive is made of it only once it is durable too
    await store.whenDurable().catch((err: Error) => { throw new OperationFailure(`The writes before the backup could not be made durable: ${err.message}`); });
    const resolved = await Promise.all(counterValues.map(async (c) => ({ ...c, value: await c.value })));
    return { ...snapshot, counters: resolved };
  } catch (e) {
    db.close();
    throw e;
  }
}

function* pagesFromStore(db: StoreSnapshot, cacheId: number, now: number, keep?: (e: StoredEntry) => boolean): Generator<StoredEntry[]> {
  let after: Buffer = Buffer.alloc(0);
  for (;;) {
    const page = db.entries(cacheId, after, now, PAGE, PAGE_BYTES);
    if (page.length === 0) return;
    after = page[page.length - 1].key;
    const kept = keep ? page.filter(keep) : page;
    if (kept.length) yield kept;
  }
}

/** Copied entries in pages as the store's: up to `PAGE` entries and about `PAGE_BYTES`. */
function* pagesOf(entries: StoredEntry[]): Generator<StoredEntry[]> {
  let page: StoredEntry[] = [];
  let bytes = 0;
  for (const e of entries) {
    page.push(e);
    bytes += e.key.length + e.value.length;
    if (page.length === PAGE || bytes >= PAGE_BYTES) {
      yield page;
      page = [];
      bytes = 0;
    }
  }
  if (page.length) yield page;
}

function* concat<T>(...parts: Array<Iterable<T>>): Generator<T> {
  for (const part of parts) yield* part;
}

import Database from 'better-sqlite3';
import type { Database as Db } from 'better-sqlite3';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePrivateFile } from '../util/private-files';
import type { IndexSelection, IndexSortKey, IndexValue, IndexWriteOp } from './index-records';
import { migrate } from './migrate';
import { SqliteIndexStore } from './sqlite-index.store';
import { SqliteReader } from './sqlite-reader';
import type { VolatileIndexStore } from './store';

export const VOLATILE_INDEX_FILE = 'volatile-index.db';

/** The volatile index of a previous run (a crash leaves it): nothing in it is true any more. */
export function deleteVolatileIndexFiles(dataDir: string): void {
  const file = join(dataDir, VOLATILE_INDEX_FILE);
  for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
}

/**
 * The indexes of memory-only caches: the tables of migration 0011 in a database file of their
 * own, deleted at every start (the entries they index are gone) and never synced to disk. A file
 * rather than an in-memory database so that, as for persistent caches, a reader thread can run
 * the statements that grow with the data (`SqliteReader`). Writes are applied a loop turn at a time
 * in one transaction, far cheaper than one commit each; every read first applies what is
 * pending, so a read sees every write made before it.
 */
export class SqliteVolatileIndexStore implements VolatileIndexStore {
  private readonly db: Db;
  private readonly reader: SqliteReader;
  private readonly index: SqliteIndexStore;
  private pending: IndexWriteOp[] = [];
  private scheduled = false;
  private readonly commit: (ops: IndexWriteOp[]) => void;

  constructor(private readonly dataDir: string, migrationsDir: string, private readonly onFailure: (ops: IndexWriteOp[], err: Error) => void) {
    const file = join(dataDir, VOLATILE_INDEX_FILE);
    deleteVolatileIndexFiles(dataDir);
    ensurePrivateFile(file);
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = OFF');
    migrate(this.db, migrationsDir);
    this.reader = new SqliteReader(file);
    this.index = new SqliteIndexStore(this.db, this.reader);
    this.commit = this.db.transaction((ops: IndexWriteOp[]) => { for (const op of ops) this.index.apply(op); });
  }

  apply(op: IndexWriteOp): void {
    this.pending.push(op);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  dropCache(cacheId: number): void {
    this.flush();
    this.db.transaction(() => this.index.dropCache(cacheId))();
  }

  count(sel: IndexSelection, limit: number) { return this.ready().count(sel, limit); }
  page(sel: IndexSelection, sort: IndexSortKey[], offset: number, limit: number) { return this.ready().page(sel, sort, offset, limit); }
  batch(sel: IndexSelection, afterDocId: number, limit: number) { return this.ready().batch(sel, afterDocId, limit); }
  groupCount(sel: IndexSelection, field: string, countField: string | undefined, descending: boolean, limit: number) {
    return this.ready().groupCount(sel, field, countField, descending, limit);
  }
  terms(cacheId: number, type: string, field: string, from: string, limit: number) { return this.ready().terms(cacheId, type, field, from, limit); }
  values(cacheId: number, type: string, field: string, after: IndexValue | undefined, limit: number) { return this.ready().values(cacheId, type, field, after, limit); }
  stats(cacheId: number) { return this.ready().stats(cacheId); }
  hasTypes(cacheId: number) { return this.ready().hasTypes(cacheId); }
  explain(sel: IndexSelection, sort: IndexSortKey[]) { return this.ready().explain(sel, sort); }

  close(): void {
    this.pending = [];
    this.reader.close();
    this.db.close();
    deleteVolatileIndexFiles(this.dataDir);
  }

  /** The index with every write made so far applied. */
  private ready(): SqliteIndexStore {
    this.flush();
    return this.index;
  }

  /** Applies the pending writes in one transaction; if that fails, they are reported and dropped. */
  private flush(): void {
    this.scheduled = false;
    if (this.pending.length === 0) return;
    const ops = this.pending;
    this.pending = [];
    try {
      this.commit(ops);
    } catch (err) {
      this.index.forgetUncommitted();
      this.onFailure(ops, err as Error);
    }
  }
}

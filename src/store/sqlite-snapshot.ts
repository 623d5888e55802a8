import Sqlite from 'better-sqlite3';
import type { Database, Statement } from 'better-sqlite3';
import type { StoredEntry } from './records';
import type { StoreSnapshot } from './store';

interface SnapshotEntryRow { key: Buffer; value: Buffer; value_type: string | null; created_at: number; last_used_at: number; lifespan: number; max_idle: number }

/**
 * A read snapshot of the database for a point-in-time backup: a second, read-only connection
 * holding one read transaction open, so pages read later still show the state at `open` time
 * while the server keeps committing. Call `close` when done (the WAL cannot be checkpointed past
 * an open snapshot).
 */
export class SqliteSnapshot implements StoreSnapshot {
  private readonly db: Database;
  private readonly page: Statement;

  constructor(file: string) {
    this.db = new Sqlite(file, { readonly: true, fileMustExist: true });
    this.page = this.db.prepare(`SELECT key, value, value_type, created_at, last_used_at, lifespan, max_idle FROM entries
      WHERE cache_id = ? AND key > ? AND (expires_at IS NULL OR expires_at > ?) ORDER BY key LIMIT ?`);
    this.db.exec('BEGIN');
    // the snapshot is taken by the first read of the transaction, now
    this.db.prepare('SELECT count(*) FROM operations').get();
  }

  /** Live entries of one cache after `afterKey` (empty buffer = from the start), in key order. */
  entries(cacheId: number, afterKey: Buffer, now: number, limit: number): StoredEntry[] {
    return (this.page.all(cacheId, afterKey, now, limit) as SnapshotEntryRow[]).map((r) => ({
      key: r.key, value: r.value, valueType: r.value_type, created: r.created_at, lastUsed: r.last_used_at, lifespan: r.lifespan, maxIdle: r.max_idle,
    }));
  }

  close(): void {
    if (this.db.inTransaction) this.db.exec('COMMIT');
    this.db.close();
  }
}

import Sqlite from 'better-sqlite3';
import type { Database, Statement } from 'better-sqlite3';
import type { StoredEntry } from './records';
import { KEY_PAGE_SQL } from './sqlite-entry.store';
import type { StoreSnapshot } from './store';

type SnapshotRow = [value: Buffer, valueType: string | null, created: number, lastUsed: number, lifespan: number, maxIdle: number];

/**
 * A read snapshot of the database for a point-in-time backup: a second, read-only connection
 * holding one read transaction open, so pages read later still show the state at `open` time
 * while the server keeps committing. Call `close` when done (the WAL cannot be checkpointed past
 * an open snapshot).
 */
export class SqliteSnapshot implements StoreSnapshot {
  private readonly db: Database;
  private readonly keys: Statement;
  private readonly row: Statement;

  constructor(file: string) {
    this.db = new Sqlite(file, { readonly: true, fileMustExist: true });
    // keys from the indexes (migration 0014), then each row on its own: a page of rows read at
    // once was bounded by its count, not its bytes (1,000 values of 10 MB in one statement)
    this.keys = this.db.prepare(`${KEY_PAGE_SQL} AND (m.expires_at IS NULL OR m.expires_at > ?) ORDER BY k.key LIMIT ?`).pluck();
    this.row = this.db.prepare('SELECT value, value_type, created_at, last_used_at, lifespan, max_idle FROM entries WHERE cache_id = ? AND key = ?').raw();
    this.db.exec('BEGIN');
    // the snapshot is taken by the first read of the transaction, now
    this.db.prepare('SELECT count(*) FROM operations').get();
  }

  entries(cacheId: number, afterKey: Buffer, now: number, limit: number, maxBytes: number): StoredEntry[] {
    const page: StoredEntry[] = [];
    let bytes = 0;
    for (const key of this.keys.all(cacheId, afterKey, now, limit) as Buffer[]) {
      const r = this.row.get(cacheId, key) as SnapshotRow | undefined;
      if (!r) continue;
      page.push({ key, value: r[0], valueType: r[1], created: r[2], lastUsed: r[3], lifespan: r[4], maxIdle: r[5] });
      bytes += key.length + r[0].length;
      if (bytes >= maxBytes) break;
    }
    return page;
  }

  close(): void {
    if (this.db.inTransaction) this.db.exec('COMMIT');
    this.db.close();
  }
}

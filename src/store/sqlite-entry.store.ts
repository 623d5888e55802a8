import type { Database, Statement } from 'better-sqlite3';
import { type EntryPage, INLINE_VALUE_BYTES, ROW_EXPIRED, ROW_VALUE_OMITTED } from './entry-page';
import { expiresAt, type StoredEntry } from './records';

interface EntryRow {
  key: Buffer;
  value: Buffer;
  value_type: string | null;
  created_at: number;
  last_used_at: number;
  lifespan: number;
  max_idle: number;
}

function toStoredEntry(row: EntryRow): StoredEntry {
  return {
    key: row.key, value: row.value, valueType: row.value_type, created: row.created_at,
    lastUsed: row.last_used_at, lifespan: row.lifespan, maxIdle: row.max_idle,
  };
}

const COLUMNS = 'key, value, value_type, created_at, last_used_at, lifespan, max_idle';

/** A row read by its key, as an array (no row object, no second copy of the key the caller has). */
type KeyedRow = [value: Buffer, valueType: string | null, created: number, lastUsed: number, lifespan: number, maxIdle: number];

/** Entries of persistent caches. SQL and row mapping only. */
export class SqliteEntryStore {
  private readonly byKey: Statement;
  private readonly countLive: Statement;
  private readonly pageAfter: Statement;
  private readonly pageFirst: Statement;
  private readonly packedPage: Statement;
  private readonly byKeys = new Map<number, Statement>();
  private readonly upsertStmt: Statement;
  private readonly deleteStmt: Statement;
  private readonly clearStmt: Statement;
  private readonly purgeStmt: Statement;
  private readonly expiredKeys: Statement;

  constructor(private readonly db: Database) {
    this.byKey = db.prepare('SELECT value, value_type, created_at, last_used_at, lifespan, max_idle FROM entries WHERE cache_id = ? AND key = ?').raw();
    this.countLive = db.prepare('SELECT count(*) AS n FROM entries WHERE cache_id = ? AND (expires_at IS NULL OR expires_at > ?)');
    this.pageFirst = db.prepare(`SELECT ${COLUMNS} FROM entries WHERE cache_id = ? ORDER BY key LIMIT ?`);
    this.pageAfter = db.prepare(`SELECT ${COLUMNS} FROM entries WHERE cache_id = ? AND key > ? ORDER BY key LIMIT ?`);
    // the `||` of BLOBs keeps their bytes (the database is UTF-8, so text and blob bytes are the
    // same); `max(key)` gives the cursor whatever order group_concat saw the rows in
    this.packedPage = db.prepare(`SELECT CAST(group_concat(
        unhex(printf('%08x%08x%02x', length(key), iif(length(value) <= ${INLINE_VALUE_BYTES}, length(value), 0),
          iif(expires_at IS NOT NULL AND expires_at <= ?, ${ROW_EXPIRED}, 0) | iif(length(value) <= ${INLINE_VALUE_BYTES}, 0, ${ROW_VALUE_OMITTED})))
        || key || iif(length(value) <= ${INLINE_VALUE_BYTES}, value, x''), '') AS BLOB), count(*), max(key)
      FROM (SELECT key, value, expires_at FROM entries WHERE cache_id = ? AND key > ? ORDER BY key LIMIT ?)`).raw(true);
    // an existing row is updated in place: OR REPLACE deleted it and inserted it again, which
    // rebalanced the B-tree and wrote more pages to the WAL (about 3x the time per write)
    this.upsertStmt = db.prepare(`INSERT INTO entries (${COLUMNS}, cache_id, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (cache_id, key) DO UPDATE SET value = excluded.value, value_type = excluded.value_type,
        created_at = excluded.created_at, last_used_at = excluded.last_used_at, lifespan = excluded.lifespan,
        max_idle = excluded.max_idle, expires_at = excluded.expires_at`);
    this.deleteStmt = db.prepare('DELETE FROM entries WHERE cache_id = ? AND key = ?');
    this.clearStmt = db.prepare('DELETE FROM entries WHERE cache_id = ?');
    // walks the partial index entries_expiry (0001_init.sql): only expired rows are visited
    this.expiredKeys = db.prepare('SELECT key FROM entries WHERE cache_id = ? AND expires_at IS NOT NULL AND expires_at <= ? ORDER BY expires_at LIMIT ?').pluck();
    this.purgeStmt = db.prepare('DELETE FROM entries WHERE cache_id = ? AND expires_at IS NOT NULL AND expires_at <= ?');
  }

  find(cacheId: number, key: Buffer): StoredEntry | undefined {
    const row = this.byKey.get(cacheId, key) as KeyedRow | undefined;
    return row && { key, value: row[0], valueType: row[1], created: row[2], lastUsed: row[3], lifespan: row[4], maxIdle: row[5] };
  }

  /** Entries that have not expired at `now`. */
  count(cacheId: number, now: number): number {
    return (this.countLive.get(cacheId, now) as { n: number }).n;
  }

  /** One page in key order, after `afterKey` (exclusive) when given: lets callers stream a cache. */
  list(cacheId: number, afterKey: Buffer | undefined, limit: number): StoredEntry[] {
    const rows = (afterKey ? this.pageAfter.all(cacheId, afterKey, limit) : this.pageFirst.all(cacheId, limit)) as EntryRow[];
    return rows.map(toStoredEntry);
  }

  /** The rows of these keys that exist, in no particular order (query hits are read a batch at a time). */
  findMany(cacheId: number, keys: Buffer[]): StoredEntry[] {
    if (keys.length === 0) return [];
    let stmt = this.byKeys.get(keys.length);
    if (!stmt) {
      stmt = this.db.prepare(`SELECT ${COLUMNS} FROM entries WHERE cache_id = ? AND key IN (${keys.map(() => '?').join(', ')})`);
      if (keys.length <= 1000) this.byKeys.set(keys.length, stmt);
    }
    return (stmt.all(cacheId, ...keys) as EntryRow[]).map(toStoredEntry);
  }

  /**
   * Up to `limit` rows after `afterKey` (empty = from the start) in one packed buffer
   * (src/store/entry-page.ts), rows expired at `now` flagged; undefined past the last row. What a
   * query's scan reads: one call per page, no buffer per row.
   */
  scanPage(cacheId: number, afterKey: Buffer, now: number, limit: number): EntryPage | undefined {
    const [bytes, count, lastKey] = this.packedPage.get(now, cacheId, afterKey, limit) as [Buffer | null, number, Buffer | null];
    return bytes && lastKey ? { bytes, count, lastKey } : undefined;
  }

  listExpiredKeys(cacheId: number, now: number, limit: number): Buffer[] {
    return this.expiredKeys.all(cacheId, now, limit) as Buffer[];
  }

  upsert(cacheId: number, e: StoredEntry): void {
    this.upsertStmt.run(e.key, e.value, e.valueType, e.created, e.lastUsed, e.lifespan, e.maxIdle, cacheId, expiresAt(e));
  }

  delete(cacheId: number, key: Buffer): boolean {
    return this.deleteStmt.run(cacheId, key).changes > 0;
  }

  clear(cacheId: number): number {
    return this.clearStmt.run(cacheId).changes;
  }

  deleteExpired(cacheId: number, now: number): number {
    return this.purgeStmt.run(cacheId, now).changes;
  }
}

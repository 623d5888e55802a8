import type { Database, Statement } from 'better-sqlite3';
import type { SqliteReader } from './sqlite-reader';
import { type EntryPage, INLINE_VALUE_BYTES, ROW_EXPIRED, ROW_VALUE_OMITTED } from './entry-page';
import { expiresAt, type KeyRow, type StoredEntry } from './records';

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

/** Live rows of a cache: its keys less its expired ones, each counted on an index (migration 0014), never on the rows. */
const COUNT_LIVE = `SELECT (SELECT count(*) FROM entries INDEXED BY entries_keys WHERE cache_id = ?)
  - (SELECT count(*) FROM entries INDEXED BY entries_expiry WHERE cache_id = ? AND expires_at IS NOT NULL AND expires_at <= ?) AS n`;

/** Keys in key order with the expiry of the mortal ones, from two indexes (migration 0014): no row is read. */
export const KEY_PAGE_SQL = `SELECT k.key, m.expires_at FROM entries AS k INDEXED BY entries_keys
  LEFT JOIN entries AS m INDEXED BY entries_mortal ON m.cache_id = k.cache_id AND m.key = k.key AND m.expires_at IS NOT NULL
  WHERE k.cache_id = ? AND k.key > ?`;

/** A row read by its key, as an array (no row object, no second copy of the key the caller has). */
type KeyedRow = [value: Buffer, valueType: string | null, created: number, lastUsed: number, lifespan: number, maxIdle: number];

/** Entries of persistent caches. SQL and row mapping only. */
export class SqliteEntryStore {
  private readonly byKey: Statement;
  private readonly countLive: Statement;
  private readonly keyPage: Statement;
  private readonly anyRow: Statement;
  private readonly packedPage: Statement;
  private readonly byKeys = new Map<number, Statement>();
  private readonly upsertStmt: Statement;
  private readonly deleteStmt: Statement;
  private readonly clearStmt: Statement;
  private readonly purgeStmt: Statement;
  private readonly expiredKeys: Statement;

  /** `reader`: the thread that counts large caches (src/store/sqlite-reader.ts); without one, counted here. */
  constructor(private readonly db: Database, private readonly reader?: SqliteReader) {
    this.byKey = db.prepare('SELECT value, value_type, created_at, last_used_at, lifespan, max_idle FROM entries WHERE cache_id = ? AND key = ?').raw();
    this.countLive = db.prepare(COUNT_LIVE);
    this.keyPage = db.prepare(`${KEY_PAGE_SQL} ORDER BY k.key LIMIT ?`).raw();
    this.anyRow = db.prepare('SELECT 1 FROM entries INDEXED BY entries_keys WHERE cache_id = ? LIMIT 1').pluck();
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

  /**
   * Entries that have not expired at `now`, counted on the reader thread: the work grows with the
   * cache (a million keys take ~100 ms); indexes are read, never a value.
   */
  async count(cacheId: number, now: number): Promise<number> {
    if (!this.reader) return (this.countLive.get(cacheId, cacheId, now) as { n: number }).n;
    const [row] = await this.reader.all<{ n: number }>(COUNT_LIVE, [cacheId, cacheId, now]);
    return row.n;
  }

  /** Whether the cache has any row, expired or not. */
  hasRows(cacheId: number): boolean {
    return this.anyRow.get(cacheId) !== undefined;
  }

  /**
   * Up to `limit` keys after `afterKey` (empty = from the start) in key byte order, with their
   * stored expiry, read from indexes: what listings page through, without reading a value.
   */
  listKeys(cacheId: number, afterKey: Buffer, limit: number): KeyRow[] {
    return (this.keyPage.all(cacheId, afterKey, limit) as Array<[Buffer, number | null]>).map(([key, expiresAt]) => ({ key, expiresAt }));
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

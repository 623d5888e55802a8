import type { Database, Statement } from 'better-sqlite3';
import type { ConfigEventRecord, ConfigEventType } from './records';

interface ConfigEventRow { id: number; type: ConfigEventType; name: string; volatile: number; created_at: number; config: string | null }

/** SQLite's ids are whole numbers: an id written `n-s` (a stream's) stands after `n` and before `n + 1`. */
const MAX_ROWID = 2n ** 63n - 1n;

/** The log of configuration events (migration 0015), the newest `keep` of them. */
export class SqliteConfigEventStore {
  private readonly insertStmt: Statement;
  private readonly pruneStmt: Statement;
  private readonly sequence: Statement;
  private readonly oldest: Statement;
  private readonly after: Statement;
  private readonly kinds: Statement;
  private readonly byId: Statement;

  constructor(db: Database) {
    this.insertStmt = db.prepare('INSERT INTO config_events (id, type, name, volatile, created_at, config) VALUES (?, ?, ?, ?, ?, ?)');
    this.pruneStmt = db.prepare('DELETE FROM config_events WHERE id <= ?');
    this.sequence = db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'config_events'").pluck();
    this.oldest = db.prepare('SELECT min(id) FROM config_events').pluck();
    this.after = db.prepare('SELECT id, type, name, volatile, created_at, config FROM config_events WHERE id > ? AND id <= ? ORDER BY id');
    this.kinds = db.prepare('SELECT id, type, name, volatile FROM config_events ORDER BY id');
    this.byId = db.prepare('SELECT id, type, name, volatile, created_at, config FROM config_events WHERE id = ?');
  }

  /** The id of the newest event ever written; `0` when none was. */
  newest(): string {
    return String((this.sequence.get() as number | undefined) ?? 0);
  }

  /**
   * Up to `limit` events after `after` and up to `upTo`, oldest first, fewer once they hold
   * `maxChars` characters of definitions (at least one); undefined when some event after `after` has left the
   * log (it holds everything after the id before its oldest, or after the newest when empty).
   */
  page(after: string, upTo: string, limit: number, maxChars: number): Promise<ConfigEventRecord[] | undefined> {
    const from = wholePart(after);
    const oldest = this.oldest.get() as number | null;
    const floor = oldest === null ? BigInt(this.newest()) : BigInt(oldest) - 1n;
    if (from < floor) return Promise.resolve(undefined);
    const records: ConfigEventRecord[] = [];
    let chars = 0;
    for (const row of this.after.iterate(from, wholePart(upTo)) as IterableIterator<ConfigEventRow>) {
      records.push(toRecord(row));
      chars += row.config?.length ?? 0;
      if (records.length >= limit || chars >= maxChars) break;
    }
    return Promise.resolve(records);
  }

  /**
   * The caches whose newest event creates or updates them as volatile: at start, the volatile
   * caches of the previous run, which are gone. Read once, at start (the whole log's ids and names).
   */
  volatileCaches(): ConfigEventRecord[] {
    const newest = new Map<string, Pick<ConfigEventRow, 'id' | 'type' | 'volatile'>>();
    for (const row of this.kinds.iterate() as IterableIterator<ConfigEventRow>) {
      if (row.type.endsWith('-cache')) newest.set(row.name, row);
    }
    return [...newest.values()].filter((r) => r.volatile === 1 && r.type !== 'remove-cache')
      .map((r) => toRecord(this.byId.get(r.id) as ConfigEventRow));
  }

  /** Appends `r` and deletes the events `keep` or more places before it. */
  insert(r: ConfigEventRecord, keep: number): void {
    const id = BigInt(r.id);
    this.insertStmt.run(id, r.type, r.name, r.volatile ? 1 : 0, r.createdAt, r.config ?? null);
    this.pruneStmt.run(id - BigInt(keep));
  }
}

function toRecord(row: ConfigEventRow): ConfigEventRecord {
  return { id: String(row.id), type: row.type, name: row.name, volatile: row.volatile === 1, createdAt: row.created_at, config: row.config ?? undefined };
}

/** The number an id starts with, as SQLite's rowids compare to it (no rowid is above 2^63 - 1). */
function wholePart(id: string): bigint {
  const dash = id.indexOf('-');
  const n = BigInt(dash < 0 ? id : id.slice(0, dash));
  return n > MAX_ROWID ? MAX_ROWID : n;
}

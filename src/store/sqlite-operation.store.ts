import Sqlite from 'better-sqlite3';
import type { Database, Statement } from 'better-sqlite3';
import type { OperationRecord, StoredEntry } from './records';

interface OperationRow { kind: string; name: string; status: string; path: string | null; detail: string; created_at: number; updated_at: number }

/** Backup and restore records. */
export class SqliteOperationStore {
  private readonly all: Statement;
  private readonly upsertStmt: Statement;
  private readonly deleteStmt: Statement;

  constructor(db: Database) {
    this.all = db.prepare('SELECT kind, name, status, path, detail, created_at, updated_at FROM operations ORDER BY kind, name');
    this.upsertStmt = db.prepare(`INSERT OR REPLACE INTO operations (kind, name, status, path, detail, created_at, updated_at)
      VALUES (@kind, @name, @status, @path, @detail, @createdAt, @updatedAt)`);
    this.deleteStmt = db.prepare('DELETE FROM operations WHERE kind = ? AND name = ?');
  }

  list(): OperationRecord[] {
    return (this.all.all() as OperationRow[]).map((r) => ({
      kind: r.kind as OperationRecord['kind'], name: r.name, status: r.status as OperationRecord['status'], path: r.path,
      detail: r.detail, createdAt: r.created_at, updatedAt: r.updated_at,
    }));
  }

  upsert(r: OperationRecord): void {
    this.upsertStmt.run(r);
  }

  delete(kind: string, name: string): void {
    this.deleteStmt.run(kind, name);
  }
}

interface SnapshotEntryRow { key: Buffer; value: Buffer; value_type: string | null; created_at: number; last_used_at: number; lifespan: number; max_idle: number }

/**
 * A read snapshot of the database for a point-in-time backup: a second, read-only connection
 * holding one read transaction open, so pages read later still show the state at `open` time
 * while the server keeps committing. Call `close` when done (the WAL cannot be checkpointed past
 * an open snapshot).
 */
export class SqliteSnapshot {
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

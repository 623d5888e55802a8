import type { Database, Statement } from 'better-sqlite3';
import type { OperationRecord } from './records';

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

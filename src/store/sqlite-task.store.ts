import type { Database, Statement } from 'better-sqlite3';
import type { TaskRecord } from './records';

interface TaskRow { name: string; script: string; created_at: number; updated_at: number }

/** Uploaded server task scripts, by name. */
export class SqliteTaskStore {
  private readonly all: Statement;
  private readonly upsertStmt: Statement;
  private readonly deleteStmt: Statement;

  constructor(db: Database) {
    this.all = db.prepare('SELECT name, script, created_at, updated_at FROM tasks ORDER BY name');
    this.upsertStmt = db.prepare(`INSERT INTO tasks (name, script, created_at, updated_at) VALUES (?, ?, ?, ?)
      ON CONFLICT (name) DO UPDATE SET script = excluded.script, updated_at = excluded.updated_at`);
    this.deleteStmt = db.prepare('DELETE FROM tasks WHERE name = ?');
  }

  list(): TaskRecord[] {
    return (this.all.all() as TaskRow[]).map((r) => ({ name: r.name, script: r.script, createdAt: r.created_at, updatedAt: r.updated_at }));
  }

  upsert(r: TaskRecord): void {
    this.upsertStmt.run(r.name, r.script, r.createdAt, r.updatedAt);
  }

  delete(name: string): void {
    this.deleteStmt.run(name);
  }
}

import type { Database, Statement } from 'better-sqlite3';
import type { SchemaRecord } from './records';

interface SchemaRow { name: string; content: string; created_at: number; updated_at: number }

/** Protobuf schema files, by name (`x.proto`). */
export class SqliteSchemaStore {
  private readonly all: Statement;
  private readonly upsertStmt: Statement;
  private readonly deleteStmt: Statement;

  constructor(db: Database) {
    this.all = db.prepare('SELECT name, content, created_at, updated_at FROM schemas ORDER BY name');
    this.upsertStmt = db.prepare(`INSERT INTO schemas (name, content, created_at, updated_at) VALUES (?, ?, ?, ?)
      ON CONFLICT (name) DO UPDATE SET content = excluded.content, updated_at = excluded.updated_at`);
    this.deleteStmt = db.prepare('DELETE FROM schemas WHERE name = ?');
  }

  list(): SchemaRecord[] {
    return (this.all.all() as SchemaRow[]).map((r) => ({ name: r.name, content: r.content, createdAt: r.created_at, updatedAt: r.updated_at }));
  }

  upsert(r: SchemaRecord): void {
    this.upsertStmt.run(r.name, r.content, r.createdAt, r.updatedAt);
  }

  delete(name: string): void {
    this.deleteStmt.run(name);
  }
}

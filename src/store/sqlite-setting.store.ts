import type { Database, Statement } from 'better-sqlite3';

/**
 * Server-wide settings shared with the command-line tools. Written directly, like users: they are
 * read by other processes on the same data directory.
 */
export class SqliteSettingStore {
  private readonly byName: Statement;
  private readonly upsertStmt: Statement;

  constructor(db: Database) {
    this.byName = db.prepare('SELECT value FROM settings WHERE name = ?').pluck();
    this.upsertStmt = db.prepare(`INSERT INTO settings (name, value, updated_at) VALUES (?, ?, ?)
      ON CONFLICT (name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`);
  }

  find(name: string): string | undefined {
    return this.byName.get(name) as string | undefined;
  }

  upsert(name: string, value: string, updatedAt: number): void {
    this.upsertStmt.run(name, value, updatedAt);
  }
}

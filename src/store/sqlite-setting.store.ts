import type { Database, Statement } from 'better-sqlite3';

/**
 * Server-wide settings shared with the command-line tools. Written directly, like users: they are
 * read by other processes on the same data directory.
 */
export class SqliteSettingStore {
  private readonly byName: Statement;
  private readonly upsertStmt: Statement;
  private readonly deleteStmt: Statement;
  private readonly byPrefix: Statement;

  constructor(db: Database) {
    this.byName = db.prepare('SELECT value FROM settings WHERE name = ?').pluck();
    this.deleteStmt = db.prepare('DELETE FROM settings WHERE name = ?');
    // substr, not LIKE: a prefix may hold % or _
    this.byPrefix = db.prepare('SELECT name, value FROM settings WHERE substr(name, 1, length(@prefix)) = @prefix ORDER BY name').raw();
    this.upsertStmt = db.prepare(`INSERT INTO settings (name, value, updated_at) VALUES (?, ?, ?)
      ON CONFLICT (name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`);
  }

  find(name: string): string | undefined {
    return this.byName.get(name) as string | undefined;
  }

  list(prefix: string): Array<[name: string, value: string]> {
    return this.byPrefix.all({ prefix }) as Array<[string, string]>;
  }

  upsert(name: string, value: string, updatedAt: number): void {
    this.upsertStmt.run(name, value, updatedAt);
  }

  delete(name: string): void {
    this.deleteStmt.run(name);
  }
}

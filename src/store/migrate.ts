import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';

export interface MigrationResult {
  applied: string[];
  version: number;
}

/**
 * Applies the plain SQL files `NNNN_what.sql` of `dir` that the database has not seen, in order,
 * each in its own transaction. Forward-only: a landed file is never edited.
 */
export function migrate(db: Database, dir: string): MigrationResult {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)');
  const done = new Set((db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map((r) => r.version));
  const files = readdirSync(dir).filter((f) => /^\d{4}_.+\.sql$/.test(f)).sort();
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  const applied: string[] = [];
  for (const file of files) {
    const version = Number(file.slice(0, 4));
    if (done.has(version)) continue;
    const sql = readFileSync(join(dir, file), 'utf8');
    db.transaction(() => {
      db.exec(sql);
      record.run(version, file, Date.now());
    })();
    applied.push(file);
  }
  const latest = files.length ? Number(files[files.length - 1].slice(0, 4)) : 0;
  return { applied, version: latest };
}

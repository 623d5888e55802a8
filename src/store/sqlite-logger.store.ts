import type { Database, Statement } from 'better-sqlite3';
import type { LoggerRecord } from './records';

interface LoggerRow { name: string; level: string | null; appenders: string | null }

/** Logger settings made at run time. */
export class SqliteLoggerStore {
  private readonly all: Statement;
  private readonly upsertStmt: Statement;
  private readonly deleteStmt: Statement;

  constructor(db: Database) {
    this.all = db.prepare('SELECT name, level, appenders FROM loggers ORDER BY name');
    this.upsertStmt = db.prepare('INSERT OR REPLACE INTO loggers (name, level, appenders) VALUES (?, ?, ?)');
    this.deleteStmt = db.prepare('DELETE FROM loggers WHERE name = ?');
  }

  list(): LoggerRecord[] {
    return (this.all.all() as LoggerRow[]).map((r) => ({
      name: r.name, level: r.level ?? undefined, appenders: r.appenders === null ? undefined : r.appenders.split(',').filter(Boolean),
    }));
  }

  upsert(r: LoggerRecord): void {
    this.upsertStmt.run(r.name, r.level ?? null, r.appenders === undefined ? null : r.appenders.join(','));
  }

  delete(name: string): void {
    this.deleteStmt.run(name);
  }
}

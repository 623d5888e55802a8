import type { Database, Statement } from 'better-sqlite3';
import type { CounterRecord } from './records';

interface CounterRow { name: string; config: string; value: bigint; updated_at: bigint; created_at: bigint }

/** Counter definitions and values; values are read as BigInt so no 64-bit value loses precision. */
export class SqliteCounterStore {
  private readonly all: Statement;
  private readonly insertStmt: Statement;
  private readonly setValueStmt: Statement;
  private readonly deleteStmt: Statement;

  constructor(db: Database) {
    this.all = db.prepare('SELECT name, config, value, updated_at, created_at FROM counters ORDER BY name').safeIntegers(true);
    this.insertStmt = db.prepare('INSERT INTO counters (name, config, value, updated_at, created_at) VALUES (?, ?, ?, ?, ?)');
    this.setValueStmt = db.prepare('UPDATE counters SET value = ?, updated_at = ? WHERE name = ?');
    this.deleteStmt = db.prepare('DELETE FROM counters WHERE name = ?');
  }

  list(): CounterRecord[] {
    return (this.all.all() as CounterRow[]).map((r) => ({
      name: r.name, config: r.config, value: r.value, updatedAt: Number(r.updated_at), createdAt: Number(r.created_at),
    }));
  }

  insert(r: CounterRecord): void {
    this.insertStmt.run(r.name, r.config, r.value, r.updatedAt, r.createdAt);
  }

  setValue(name: string, value: bigint, updatedAt: number): void {
    this.setValueStmt.run(value, updatedAt, name);
  }

  delete(name: string): void {
    this.deleteStmt.run(name);
  }
}

import type { Database } from 'better-sqlite3';
import { rmSync } from 'node:fs';
import { migrate } from '../../src/store/migrate';
import { migrationsDir, openDatabase } from '../../src/store/sqlite-store';
import { tempDir } from './server';

export interface TestDatabase {
  /** The data dir the database file is in. */
  readonly dataDir: string;
  readonly db: Database;
}

/**
 * A SQLite database of the store's schema (all migrations applied), opened as the server opens it,
 * in a temp data dir of its own for each test: `beforeEach` opens it, `afterEach` closes it and
 * removes the dir. Mocha runs hooks in the order they are declared: an `afterEach` that still
 * writes to the database goes before this call.
 */
export function useDatabase(prefix = 'grid-db-'): TestDatabase {
  let opened: { dataDir: string; db: Database } | undefined;
  const current = () => {
    if (!opened) throw new Error('useDatabase: the database is open from its beforeEach hook to its afterEach hook');
    return opened;
  };
  beforeEach(() => {
    const dataDir = tempDir(prefix);
    const db = openDatabase(dataDir, 'process');
    migrate(db, migrationsDir());
    opened = { dataDir, db };
  });
  afterEach(() => {
    if (!opened) return;
    opened.db.close();
    rmSync(opened.dataDir, { recursive: true, force: true });
    opened = undefined;
  });
  return {
    get dataDir() { return current().dataDir; },
    get db() { return current().db; },
  };
}

import { expect } from 'chai';
import type { Database } from 'better-sqlite3';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrate } from '../../src/store/migrate';
import { DATABASE_FILE, migrationsDir, openDatabase } from '../../src/store/sqlite-store';

function columns(db: Database, table: string): string[] {
  return (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name);
}

function tables(db: Database): string[] {
  return (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map((t) => t.name);
}

describe('migrate (migrations/NNNN_what.sql, forward-only)', () => {
  let dir: string;
  let db: Database;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'grid-migrate-'));
    db = openDatabase(join(dir, 'data'), 'process');
  });

  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates the data directory and the database file', () => {
    expect(existsSync(join(dir, 'data', DATABASE_FILE))).to.equal(true);
  });

  it('brings an empty database to the latest schema version', () => {
    const latest = Math.max(...readdirSync(migrationsDir()).filter((f) => /^\d{4}_.+\.sql$/.test(f)).map((f) => Number(f.slice(0, 4))));
    const result = migrate(db, migrationsDir());
    expect(result.version).to.equal(latest);
    expect(result.applied).to.include('0001_init.sql');
    expect(tables(db)).to.include.members(['users', 'caches', 'templates', 'entries', 'schema_migrations']);
  });

  it('creates the tables with the columns of 0001_init.sql', () => {
    migrate(db, migrationsDir());
    expect(columns(db, 'users')).to.include.members(['name', 'password_hash', 'digest_md5', 'digest_sha256', 'roles', 'created_at', 'updated_at']);
    expect(columns(db, 'caches')).to.include.members(['id', 'name', 'config', 'created_at']);
    expect(columns(db, 'templates')).to.include.members(['name', 'config', 'created_at']);
    expect(columns(db, 'entries')).to.include.members([
      'cache_id', 'key', 'value', 'value_type', 'created_at', 'last_used_at', 'lifespan', 'max_idle', 'expires_at',
    ]);
    expect(columns(db, 'schema_migrations')).to.deep.equal(['version', 'name', 'applied_at']);
  });

  it('creates the expiry index of entries', () => {
    migrate(db, migrationsDir());
    const index = db.prepare("SELECT tbl_name FROM sqlite_master WHERE type = 'index' AND name = 'entries_expiry'").get() as { tbl_name: string } | undefined;
    expect(index?.tbl_name).to.equal('entries');
  });

  it('records each applied file in schema_migrations', () => {
    const before = Date.now();
    const { applied } = migrate(db, migrationsDir());
    const rows = db.prepare('SELECT version, name, applied_at FROM schema_migrations ORDER BY version').all() as
      { version: number; name: string; applied_at: number }[];
    expect(rows.map((r) => r.name)).to.deep.equal(applied);
    expect(rows[0]).to.include({ version: 1, name: '0001_init.sql' });
    expect(rows[0].applied_at).to.be.within(before, Date.now());
  });

  it('applies nothing the second time, and reports the same version', () => {
    const first = migrate(db, migrationsDir());
    const second = migrate(db, migrationsDir());
    expect(second).to.deep.equal({ applied: [], version: first.version });
    expect((db.prepare('SELECT count(*) AS n FROM schema_migrations').get() as { n: number }).n).to.equal(first.applied.length);
  });

  it('applies nothing again after the database is closed and reopened', () => {
    const first = migrate(db, migrationsDir());
    db.close();
    db = openDatabase(join(dir, 'data'), 'power');
    expect(migrate(db, migrationsDir())).to.deep.equal({ applied: [], version: first.version });
  });

  describe('0013_index_exact_longs.sql', () => {
    /** An index as an older version wrote it: one document, `value` as given, and a text token. */
    function olderIndex(value: number): void {
      db.prepare("INSERT INTO index_types (type_id, cache_id, name) VALUES (1, 1, 'tl.Event')").run();
      db.prepare("INSERT INTO index_fields (field_id, type_id, path) VALUES (1, 1, 'creationDate')").run();
      db.prepare("INSERT INTO index_docs (doc_id, cache_id, type_id, key, has_text) VALUES (1, 1, 1, x'6b', 1)").run();
      db.prepare('INSERT INTO index_values (field_id, value, doc_id) VALUES (1, ?, 1)').run(value);
      db.prepare("INSERT INTO index_text (rowid, body) VALUES (1, '1x6869')").run();
      db.prepare('DELETE FROM schema_migrations WHERE version >= 13').run();
    }
    const counts = (): number[] => ['index_types', 'index_fields', 'index_docs', 'index_values', 'index_terms']
      .map((t) => (db.prepare(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n);

    it('empties an index holding a 64-bit integer rounded to a REAL (types too: persistent caches are indexed again at start)', () => {
      migrate(db, migrationsDir());
      olderIndex(2 ** 53);
      expect(migrate(db, migrationsDir()).applied).to.include('0013_index_exact_longs.sql');
      expect(counts()).to.deep.equal([0, 0, 0, 0, 0]);
    });

    it('keeps an index whose numbers are all exact', () => {
      migrate(db, migrationsDir());
      olderIndex(2.5);
      migrate(db, migrationsDir());
      expect(counts()).to.deep.equal([1, 1, 1, 1, 1]);
    });
  });

  it('keeps data across a second run', () => {
    migrate(db, migrationsDir());
    db.prepare("INSERT INTO templates (name, config, created_at) VALUES ('t', '{}', 1)").run();
    migrate(db, migrationsDir());
    expect(db.prepare('SELECT name FROM templates').all()).to.deep.equal([{ name: 't' }]);
  });
});

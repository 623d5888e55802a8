import Database from 'better-sqlite3';
import type { Database as Db } from 'better-sqlite3';
import { join } from 'node:path';
import { WalSyncer } from './wal-syncer';
import { packageRoot } from '../util/package-info';
import { ensurePrivateDir, ensurePrivateFile, narrowTree } from '../util/private-files';
import { Commit, GroupCommitter } from './group-commit';
import { migrate } from './migrate';
import { SqliteConfigEventStore } from './sqlite-config-event.store';
import { SqliteCounterStore } from './sqlite-counter.store';
import { SqliteDefinitionStore } from './sqlite-definition.store';
import { SqliteLoggerStore } from './sqlite-logger.store';
import { SqliteOperationStore } from './sqlite-operation.store';
import { SqliteSchemaStore } from './sqlite-schema.store';
import { SqliteSecurityStore } from './sqlite-security.store';
import { SqliteSettingStore } from './sqlite-setting.store';
import { SqliteTaskStore } from './sqlite-task.store';
import { SqliteXSiteStore } from './sqlite-xsite.store';
import { SqliteEntryStore } from './sqlite-entry.store';
import { SqliteIndexStore } from './sqlite-index.store';
import { SqliteReader } from './sqlite-reader';
import { deleteVolatileIndexFiles, SqliteVolatileIndexStore } from './sqlite-volatile-index';
import { SqliteUserStore } from './sqlite-user.store';
import type { WriteOp } from './write-ops';
import { SqliteSnapshot } from './sqlite-snapshot';
import { type KeyRewrite, type KeyRewriteOutcome, rewriteKeys } from './sqlite-key-rewrite';
import type { ConfigEventRecord, IndexWriteOp, Store, StoreSnapshot, VolatileIndexStore } from './store';

/** `power`: synchronous=FULL, survives power loss. `process`: synchronous=NORMAL, survives kill -9. */
export type Durability = 'power' | 'process';

export interface StoreOptions {
  dataDir: string;
  durability: Durability;
  /** Called when a batch could not be committed, so memory can drop what it holds of those writes. */
  onCommitFailure?: (ops: WriteOp[], err: Error) => void;
}

export const DATABASE_FILE = 'grid.db';

/**
 * Opens (creating) `grid.db` 0600 in a 0700 data directory, whatever the umask. SQLite gives the
 * `-wal` and `-shm` files it creates the database file's permissions, so they are private too.
 */
export function openDatabase(dataDir: string, durability: Durability): Db {
  ensurePrivateDir(dataDir);
  const file = join(dataDir, DATABASE_FILE);
  ensurePrivateFile(file);
  for (const suffix of ['-wal', '-shm']) narrowTree(file + suffix);
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${durability === 'power' ? 'FULL' : 'NORMAL'}`);
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  return db;
}

export function migrationsDir(): string {
  return join(packageRoot(), 'migrations');
}

/** The SQLite engine: repositories for reads, one ordered group-committed write path. */
export class SqliteStore implements Store {
  readonly db: Db;
  readonly entries: SqliteEntryStore;
  readonly definitions: SqliteDefinitionStore;
  readonly configEvents: SqliteConfigEventStore;
  readonly users: SqliteUserStore;
  readonly settings: SqliteSettingStore;
  readonly counters: SqliteCounterStore;
  readonly schemas: SqliteSchemaStore;
  readonly security: SqliteSecurityStore;
  readonly loggers: SqliteLoggerStore;
  readonly tasks: SqliteTaskStore;
  readonly operations: SqliteOperationStore;
  readonly xsite: SqliteXSiteStore;
  readonly indexes: SqliteIndexStore;
  private readonly committer: GroupCommitter;
  /** Long reads (index statements, counting a cache) run on their own thread (src/store/sqlite-reader.ts). */
  readonly reader: SqliteReader;
  private readonly volatiles: SqliteVolatileIndexStore[] = [];
  private readonly walSyncer: WalSyncer | undefined;
  private readonly dataVersion: () => number;
  private failureListener: (ops: WriteOp[], err: Error) => void;

  private readonly dataDir: string;

  constructor(opts: StoreOptions) {
    this.dataDir = opts.dataDir;
    this.db = openDatabase(opts.dataDir, opts.durability);
    migrate(this.db, migrationsDir());
    this.reader = new SqliteReader(join(opts.dataDir, DATABASE_FILE));
    this.entries = new SqliteEntryStore(this.db, this.reader);
    this.definitions = new SqliteDefinitionStore(this.db);
    this.configEvents = new SqliteConfigEventStore(this.db);
    this.users = new SqliteUserStore(this.db);
    this.settings = new SqliteSettingStore(this.db);
    this.counters = new SqliteCounterStore(this.db);
    this.schemas = new SqliteSchemaStore(this.db);
    this.security = new SqliteSecurityStore(this.db);
    this.loggers = new SqliteLoggerStore(this.db);
    this.tasks = new SqliteTaskStore(this.db);
    this.operations = new SqliteOperationStore(this.db);
    this.xsite = new SqliteXSiteStore(this.db);
    this.indexes = new SqliteIndexStore(this.db, this.reader);
    this.failureListener = opts.onCommitFailure ?? (() => undefined);
    const transaction = this.db.transaction((ops: WriteOp[]) => { for (const op of ops) this.apply(op); });
    const failed = (ops: WriteOp[], err: Error): void => {
      this.indexes.forgetUncommitted();
      this.failureListener(ops, err);
    };
    if (opts.durability === 'power') {
      // Group commits are written without the fsync of synchronous=FULL, which would hold the event
      // loop for it; the WAL is then fdatasynced on the thread pool and only then are the writes
      // acknowledged. Everything else the connection writes (users, migrations) stays FULL.
      const withoutSync = this.db.prepare('PRAGMA synchronous = NORMAL');
      const withSync = this.db.prepare('PRAGMA synchronous = FULL');
      this.walSyncer = new WalSyncer(join(opts.dataDir, DATABASE_FILE + '-wal'));
      this.committer = new GroupCommitter((ops) => {
        withoutSync.run();
        try {
          transaction(ops);
        } finally {
          withSync.run();
        }
      }, failed, this.walSyncer);
    } else {
      this.committer = new GroupCommitter((ops) => transaction(ops), failed);
    }
    this.nextEventId = BigInt(this.configEvents.newest()) + 1n;
    const versionStmt = this.db.prepare('PRAGMA data_version').pluck();
    this.dataVersion = () => versionStmt.get() as number;
  }

  onCommitFailure(listener: (ops: WriteOp[], err: Error) => void): void {
    this.failureListener = listener;
  }

  /** SQLite numbers the configuration events itself: the newest id ever written, plus one. */
  private nextEventId: bigint;

  /** Queues a write for the next group commit; await `.promise` before acknowledging it. */
  write(op: WriteOp): Commit {
    return this.committer.submit(op);
  }

  async appendConfigEvent(ops: readonly WriteOp[], event: Omit<ConfigEventRecord, 'id'>, keep: number): Promise<string> {
    const id = String(this.nextEventId++);
    const commits = ops.map((op) => this.write(op));
    commits.push(this.write({ kind: 'configEvent.insert', record: { ...event, id }, keep }));
    await Promise.all(commits.map((c) => c.promise));
    return id;
  }

  deleteMemoryOnlyIndexDocuments(): number {
    deleteVolatileIndexFiles(this.dataDir);
    return this.indexes.deleteMemoryOnly();
  }

  rewriteKeys(name: string, caches: KeyRewrite[], now: number): Promise<KeyRewriteOutcome | undefined> {
    return rewriteKeys(this.db, name, caches, now);
  }

  get pendingCommit(): Commit | undefined {
    return this.committer.pending;
  }

  get collectingCommit(): Commit | undefined {
    return this.committer.collecting;
  }

  whenWritten(): Promise<void> {
    return this.committer.written();
  }

  whenDurable(): Promise<void> {
    return this.committer.durable();
  }

  /** Changes whenever another process (the `grid user` CLI) commits to this database. */
  externalVersion(): number {
    return this.dataVersion();
  }

  /** A database of its own with the same tables, emptied at open, for the indexes of caches without persistence. */
  openVolatileIndexes(onFailure: (ops: IndexWriteOp[], err: Error) => void): VolatileIndexStore {
    const volatile = new SqliteVolatileIndexStore(this.dataDir, migrationsDir(), onFailure);
    this.volatiles.push(volatile);
    return volatile;
  }

  openSnapshot(): StoreSnapshot {
    return new SqliteSnapshot(join(this.dataDir, DATABASE_FILE));
  }

  close(): void {
    this.committer.flushNow();
    this.walSyncer?.close();
    this.reader.close();
    for (const v of this.volatiles.splice(0)) v.close();
    this.db.close();
  }

  private apply(op: WriteOp): void {
    switch (op.kind) {
      case 'entry.upsert': return this.entries.upsert(op.cacheId, op.entry);
      case 'entry.delete': this.entries.delete(op.cacheId, op.key); return;
      case 'entry.clear': this.entries.clear(op.cacheId); return;
      case 'entry.purgeExpired': this.entries.deleteExpired(op.cacheId, op.now); return;
      case 'cache.insert': return this.definitions.insertCache(op.record);
      case 'cache.updateConfig': return this.definitions.updateCacheConfig(op.name, op.config);
      case 'cache.delete':
        this.indexes.dropCache(op.id);
        return this.definitions.deleteCache(op.id);
      case 'template.upsert': return this.definitions.upsertTemplate(op.record);
      case 'template.delete': this.definitions.deleteTemplate(op.name); return;
      case 'configEvent.insert': return this.configEvents.insert(op.record, op.keep);
      case 'counter.insert': return this.counters.insert(op.record);
      case 'counter.setValue': return this.counters.setValue(op.name, op.value, op.updatedAt);
      case 'counter.delete': return this.counters.delete(op.name);
      case 'schema.upsert': return this.schemas.upsert(op.record);
      case 'schema.delete': return this.schemas.delete(op.name);
      case 'role.upsert': return this.security.upsertRole(op.record);
      case 'role.delete': return this.security.deleteRole(op.name);
      case 'principal.setRoles': return this.security.setPrincipalRoles(op.record);
      case 'logger.upsert': return this.loggers.upsert(op.record);
      case 'logger.delete': return this.loggers.delete(op.name);
      case 'task.upsert': return this.tasks.upsert(op.record);
      case 'task.delete': return this.tasks.delete(op.name);
      case 'operation.upsert': return this.operations.upsert(op.record);
      case 'operation.delete': return this.operations.delete(op.operation, op.name);
      case 'xsite.upsert': return this.xsite.upsert(op.record);
      case 'setting.put': return this.settings.upsert(op.name, op.value, op.updatedAt);
      case 'setting.delete': return this.settings.delete(op.name);
      case 'index.put': case 'index.delete': case 'index.clear': case 'index.purgeExpired': case 'index.memoryOnly': return this.indexes.apply(op);
    }
  }
}

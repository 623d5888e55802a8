import type { Commit } from './group-commit';
import type {
  CacheRecord, ConfigEventRecord, CounterRecord, DigestUpdate, KeyRow, LoggerRecord, OperationRecord, PrincipalRolesRecord, RoleRecord, SchemaRecord, StoredEntry, TaskRecord, TemplateRecord, UserRecord, XSiteRecord,
} from './records';
import type { WriteOp } from './write-ops';
import type { EntryPage } from './entry-page';
import type { KeyRewrite, KeyRewriteOutcome } from './sqlite-key-rewrite';
import type { HitCount, IndexHit, IndexSelection, IndexSortKey, IndexTypeStats, IndexValue, IndexWriteOp } from './index-records';

export type { Commit } from './group-commit';
export type { WriteOp } from './write-ops';
export { type EntryPage, EntryPageCursor, ROW_EXPIRED, ROW_VALUE_OMITTED } from './entry-page';
export type { KeyRewrite, KeyRewriteOutcome } from './sqlite-key-rewrite';
export * from './records';
export type * from './index-records';

/**
 * Reads of the query indexes (src/store/sqlite-index.store.ts); writes go through `write` or
 * `apply`. Reads whose work grows with the match set are asynchronous: they may run off the event loop.
 */
export interface IndexStore {
  count(sel: IndexSelection, limit: number): Promise<HitCount>;
  page(sel: IndexSelection, sort: IndexSortKey[], offset: number, limit: number): Promise<IndexHit[]>;
  batch(sel: IndexSelection, afterDocId: number, limit: number): Promise<{ hits: IndexHit[]; next: number | undefined }>;
  groupCount(sel: IndexSelection, field: string, countField: string | undefined, descending: boolean, limit: number): Promise<Array<{ value: IndexValue; n: number }>>;
  terms(cacheId: number, type: string, field: string, from: string, limit: number): string[];
  values(cacheId: number, type: string, field: string, after: IndexValue | undefined, limit: number): IndexValue[];
  stats(cacheId: number): Promise<IndexTypeStats[]>;
  /** Whether the cache ever indexed a document (a cleared index keeps its types). */
  hasTypes(cacheId: number): boolean;
  explain(sel: IndexSelection, sort: IndexSortKey[]): string[];
}

/**
 * The index of memory-only caches: the same tables in a database of their own, emptied at every
 * start. Writes are applied in batches; every read sees every write applied before it.
 */
export interface VolatileIndexStore extends IndexStore {
  apply(op: IndexWriteOp): void;
  dropCache(cacheId: number): void;
}

/** A read-only view of the store frozen at one instant (point-in-time backups). */
export interface StoreSnapshot {
  /**
   * Live entries of one cache after `afterKey` (empty buffer = from the start), in key order: up to
   * `limit`, fewer once they hold `maxBytes` of keys and values (at least one); none past the last.
   */
  entries(cacheId: number, afterKey: Buffer, now: number, limit: number, maxBytes: number): StoredEntry[];
  close(): void;
}

/**
 * What the engine needs from a storage engine. Reads are synchronous and see committed data only;
 * every write goes through `write`, ordered, and is durable once its commit's promise resolves.
 * SQLite implements it today; a distributed engine can tomorrow.
 */
export interface Store {
  readonly entries: {
    find(cacheId: number, key: Buffer): StoredEntry | undefined;
    /** Live entries at `now`; counted off the event loop. */
    count(cacheId: number, now: number): Promise<number>;
    hasRows(cacheId: number): boolean;
    /** Keys after `afterKey` (empty = from the start) in key order, with their stored expiry; no value is read. */
    listKeys(cacheId: number, afterKey: Buffer, limit: number): KeyRow[];
    scanPage(cacheId: number, afterKey: Buffer, now: number, limit: number): EntryPage | undefined;
    findMany(cacheId: number, keys: Buffer[]): StoredEntry[];
    /** Keys of up to `limit` rows expired at `now` (by their stored times), soonest expired first. */
    listExpiredKeys(cacheId: number, now: number, limit: number): Buffer[];
  };
  readonly definitions: {
    listCaches(): CacheRecord[];
    listTemplates(): TemplateRecord[];
    maxCacheId(): number;
  };
  /**
   * The log of configuration events (written with `appendConfigEvent`, in the commit of the change
   * each describes), from which event streams are resumed (docs/scale-out.md, Configuration events).
   */
  readonly configEvents: {
    /** The id of the newest event ever written, `0` when none was: at start. */
    newest(): string;
    /**
     * Up to `limit` events after `after` and up to `upTo`, oldest first, fewer once they hold
     * `maxChars` characters of definitions (at least one); undefined when some event after `after` has left the log.
     */
    page(after: string, upTo: string, limit: number, maxChars: number): Promise<ConfigEventRecord[] | undefined>;
    /** At start: the last event of each cache whose last event creates or updates it as volatile. */
    volatileCaches(): ConfigEventRecord[];
  };
  readonly counters: {
    list(): CounterRecord[];
  };
  readonly schemas: {
    list(): SchemaRecord[];
  };
  readonly xsite: {
    list(): XSiteRecord[];
  };
  readonly operations: {
    list(): OperationRecord[];
  };
  readonly tasks: {
    list(): TaskRecord[];
  };
  readonly loggers: {
    list(): LoggerRecord[];
  };
  readonly security: {
    listRoles(): RoleRecord[];
    listPrincipalRoles(): PrincipalRolesRecord[];
  };
  readonly users: {
    find(name: string): UserRecord | undefined;
    list(): UserRecord[];
    count(): number;
    upsert(u: UserRecord): void;
    replaceDigests(rows: DigestUpdate[]): void;
    delete(name: string): boolean;
  };
  readonly settings: {
    find(name: string): string | undefined;
    /** The settings whose names begin with `prefix`, by name. */
    list(prefix: string): Array<[name: string, value: string]>;
    upsert(name: string, value: string, updatedAt: number): void;
  };
  /** The indexes of persistent caches, written in the same transactions as their entries. */
  readonly indexes: IndexStore;
  /**
   * Indexes of memory-only caches, in a database file of their own that every start empties;
   * `onFailure` hears of writes that could not be applied (the index then misses them).
   */
  openVolatileIndexes(onFailure: (ops: IndexWriteOp[], err: Error) => void): VolatileIndexStore;
  write(op: WriteOp): Commit;
  /**
   * Writes `ops` and appends a configuration event after them, keeping the newest `keep` events, in
   * one commit; resolves with the event's id (the engine gives it) once that is durable.
   */
  appendConfigEvent(ops: readonly WriteOp[], event: Omit<ConfigEventRecord, 'id'>, keep: number): Promise<string>;
  /**
   * Deletes the index documents of entries that only memory held (memory is empty at start, so a
   * crash lost those entries) — and the previous run's index of memory-only caches; how many
   * documents. Only at the server's start, before anything else writes (never from the CLI: the
   * server may be running).
   */
  deleteMemoryOnlyIndexDocuments(): number;
  /**
   * Runs the one-time data migration `name` that rewrites entry keys, in one transaction, unless it
   * already ran (undefined then). Only at start, before anything else writes.
   */
  rewriteKeys(name: string, caches: KeyRewrite[], now: number): Promise<KeyRewriteOutcome | undefined>;
  /** Opens a snapshot of everything committed so far. */
  openSnapshot(): StoreSnapshot;
  /** The newest commit not finished (durable) yet: reads of pending keys and bulk reads wait on it. */
  readonly pendingCommit: Commit | undefined;
  /** The commit collecting this turn's writes, before they are written. */
  readonly collectingCommit: Commit | undefined;
  /** Resolves once the collecting batch, if any, is written to the store (visible to snapshots). */
  whenWritten(): Promise<void>;
  /** Resolves once every write made so far is durable; rejects if one could not be made durable. */
  whenDurable(): Promise<void>;
  onCommitFailure(listener: (ops: WriteOp[], err: Error) => void): void;
  externalVersion(): number;
  close(): void | Promise<void>;
}

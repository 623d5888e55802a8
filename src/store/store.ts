import type { Commit } from './group-commit';
import type {
  CacheRecord, CounterRecord, DigestUpdate, LoggerRecord, OperationRecord, PrincipalRolesRecord, RoleRecord, SchemaRecord, StoredEntry, TaskRecord, TemplateRecord, UserRecord, XSiteRecord,
} from './records';
import type { WriteOp } from './write-ops';
import type { KeyRewrite, KeyRewriteOutcome } from './sqlite-key-rewrite';

export type { Commit } from './group-commit';
export type { WriteOp } from './write-ops';
export type { KeyRewrite, KeyRewriteOutcome } from './sqlite-key-rewrite';
export * from './records';

/**
 * What the engine needs from a storage engine. Reads are synchronous and see committed data only;
 * every write goes through `write`, ordered, and is durable once its commit's promise resolves.
 * SQLite implements it today; a distributed engine can tomorrow.
 */
/** A read-only view of the store frozen at one instant (point-in-time backups). */
export interface StoreSnapshot {
  /** Live entries of one cache after `afterKey` (empty buffer = from the start), in key order. */
  entries(cacheId: number, afterKey: Buffer, now: number, limit: number): StoredEntry[];
  close(): void;
}

export interface Store {
  readonly entries: {
    find(cacheId: number, key: Buffer): StoredEntry | undefined;
    count(cacheId: number, now: number): number;
    list(cacheId: number, afterKey: Buffer | undefined, limit: number): StoredEntry[];
  };
  readonly definitions: {
    listCaches(): CacheRecord[];
    listTemplates(): TemplateRecord[];
    maxCacheId(): number;
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
    upsert(name: string, value: string, updatedAt: number): void;
  };
  write(op: WriteOp): Commit;
  /**
   * Runs the one-time data migration `name` that rewrites entry keys, in one transaction, unless it
   * already ran (undefined then). Only at start, before anything else writes.
   */
  rewriteKeys(name: string, caches: KeyRewrite[], now: number): Promise<KeyRewriteOutcome | undefined>;
  /** Opens a snapshot of everything committed so far. */
  openSnapshot(): StoreSnapshot;
  readonly pendingCommit: Commit | undefined;
  onCommitFailure(listener: (ops: WriteOp[], err: Error) => void): void;
  externalVersion(): number;
  close(): void;
}

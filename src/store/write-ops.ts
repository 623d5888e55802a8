import type {
  CacheRecord, ConfigEventRecord, CounterRecord, LoggerRecord, OperationRecord, PrincipalRolesRecord, RoleRecord, SchemaRecord, StoredEntry, TaskRecord, TemplateRecord, XSiteRecord,
} from './records';
import type { IndexWriteOp } from './index-records';

/**
 * Every change the running server makes to the store, as data: the group committer applies a
 * batch of them in one transaction, in arrival order, so a cache removal can never be overtaken by
 * an older entry write of the same cache.
 */
export type WriteOp =
  | { kind: 'entry.upsert'; cacheId: number; entry: StoredEntry }
  | { kind: 'entry.delete'; cacheId: number; key: Buffer }
  | { kind: 'entry.clear'; cacheId: number }
  | { kind: 'entry.purgeExpired'; cacheId: number; now: number }
  | { kind: 'cache.insert'; record: CacheRecord }
  | { kind: 'cache.updateConfig'; name: string; config: string }
  | { kind: 'cache.delete'; id: number }
  | { kind: 'template.upsert'; record: TemplateRecord }
  | { kind: 'template.delete'; name: string }
  /** Appends to the configuration event log, keeping its newest `keep` events. */
  | { kind: 'configEvent.insert'; record: ConfigEventRecord; keep: number }
  | { kind: 'counter.insert'; record: CounterRecord }
  | { kind: 'counter.setValue'; name: string; value: bigint; updatedAt: number }
  | { kind: 'counter.delete'; name: string }
  | { kind: 'schema.upsert'; record: SchemaRecord }
  | { kind: 'schema.delete'; name: string }
  | { kind: 'role.upsert'; record: RoleRecord }
  | { kind: 'role.delete'; name: string }
  | { kind: 'principal.setRoles'; record: PrincipalRolesRecord }
  | { kind: 'logger.upsert'; record: LoggerRecord }
  | { kind: 'logger.delete'; name: string }
  | { kind: 'task.upsert'; record: TaskRecord }
  | { kind: 'task.delete'; name: string }
  | { kind: 'operation.upsert'; record: OperationRecord }
  | { kind: 'operation.delete'; operation: OperationRecord['kind']; name: string }
  | { kind: 'xsite.upsert'; record: XSiteRecord }
  /** A switch the whole cluster shares (src/grid/cluster-switches.ts): set, or back to its default. */
  | { kind: 'setting.put'; name: string; value: string; updatedAt: number }
  | { kind: 'setting.delete'; name: string }
  | IndexWriteOp;

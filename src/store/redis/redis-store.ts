import type { Cluster } from 'ioredis';
import { CacheExistsError, NotOnEngineError } from '../../errors';
import { Commit } from '../group-commit';
import { migrationsDir } from '../sqlite-store';
import { deleteVolatileIndexFiles, SqliteVolatileIndexStore } from '../sqlite-volatile-index';
import type {
  CacheRecord, ConfigEventRecord, CounterRecord, DigestUpdate, IndexStore, IndexWriteOp, LoggerRecord, OperationRecord, PrincipalRolesRecord, RoleRecord,
  SchemaRecord, Store, StoreSnapshot, TaskRecord, TemplateRecord, UserRecord, VolatileIndexStore, WriteOp, XSiteRecord,
} from '../store';
import type { Writes } from './cluster-engine';
import { type Mutation, RecordExistsError, type RemoteChange, ReplicatedRecords, type Table } from './replicated-records';

/** Cache ids a node takes for itself at start: ids are unique in the cluster without asking Redis at each create. */
const CACHE_ID_BLOCK = 1_000_000;

const by = <T>(key: (r: T) => string) => (a: T, b: T) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);

/**
 * The `Store` of the redis engine (docs/scale-out.md, "Records"): the container's records live on
 * the cluster (`ReplicatedRecords`), read from this node's copy; entries do not come through here
 * (each cache's are `RedisCacheData`). Query indexes are each node's own, in the volatile index
 * database of its data dir, emptied at every start (docs/scale-out.md, "Queries"): there are no
 * indexes of persistent caches (`indexes`). The writes of one turn go out as one script, as the
 * SQLite engine's group commit makes them one transaction.
 */
/** The name a container is known by on the cluster: after the grid's namespace, when it has one. */
export function clusterContainerName(container: string, namespace: string | undefined): string {
  return namespace ? `${namespace}.${container}` : container;
}

export class RedisStore implements Store {
  private batch: { ops: WriteOp[]; mutations: Mutation[]; commit: Commit } | undefined;
  private failureListener: (ops: WriteOp[], err: Error) => void = () => undefined;
  private readonly inflight = new Set<Promise<unknown>>();
  private readonly volatiles: SqliteVolatileIndexStore[] = [];

  /** `dataDir`: this node's own directory, where its query indexes live. */
  private constructor(readonly records: ReplicatedRecords, private readonly firstCacheId: number, private readonly dataDir: string) {}

  static async open(client: Cluster, container: string, dataDir: string, writes?: Writes): Promise<RedisStore> {
    const records = await ReplicatedRecords.open(client, container, writes);
    const top = await client.hincrby(`{grid:${container}}:meta`, 'cache-ids', CACHE_ID_BLOCK).catch(async (err: unknown) => {
      await records.close();
      throw err;
    });
    return new RedisStore(records, top - CACHE_ID_BLOCK + 1, dataDir);
  }

  /** How many commits of the container's records this node has begun: compared before and after a request, it tells whether the request wrote. */
  get commitsBegun(): number {
    return this.records.commitsBegun;
  }

  /** Resolves once this node's copy has every change committed before the call. */
  catchUp(): Promise<void> {
    return this.records.catchUp();
  }

  /** Tells the other nodes `order` through the container's change stream (docs/scale-out.md, "Cluster-wide operations"). */
  tell(order: string): Promise<void> {
    return this.records.tell(order);
  }

  /** Hears what other nodes change. */
  onRemoteChange(listener: (change: RemoteChange) => void): void {
    this.records.onRemoteChange(listener);
  }

  readonly entries: Store['entries'] = {
    find: () => undefined,
    count: () => Promise.resolve(0),
    hasRows: () => false,
    listKeys: () => [],
    scanPage: () => undefined,
    findMany: () => [],
    listExpiredKeys: () => [],
  };

  readonly definitions: Store['definitions'] = {
    listCaches: () => this.list<CacheRecord>('caches').sort(by((r) => r.name)),
    listTemplates: () => this.list<TemplateRecord>('templates').sort(by((r) => r.name)),
    maxCacheId: () => this.firstCacheId - 1,
  };

  readonly configEvents: Store['configEvents'] = {
    newest: () => this.records.newestConfigEvent,
    page: (after, upTo, limit, maxChars) => this.records.eventPage(after, upTo, limit, maxChars),
    // a volatile cache's definition is this node's alone on this engine: nothing of it is in the cluster
    volatileCaches: () => [],
  };

  readonly counters: Store['counters'] = {
    list: () => this.list<CounterRecord & { value: string }>('counters').map((r) => ({ ...r, value: BigInt(r.value) })).sort(by((r) => r.name)),
  };

  readonly schemas: Store['schemas'] = { list: () => this.list<SchemaRecord>('schemas').sort(by((r) => r.name)) };
  readonly xsite: Store['xsite'] = { list: () => this.list<XSiteRecord>('xsite') };
  readonly operations: Store['operations'] = { list: () => this.list<OperationRecord>('operations') };
  readonly tasks: Store['tasks'] = { list: () => this.list<TaskRecord>('tasks').sort(by((r) => r.name)) };
  readonly loggers: Store['loggers'] = { list: () => this.list<LoggerRecord>('loggers').sort(by((r) => r.name)) };
  readonly security: Store['security'] = {
    listRoles: () => this.list<RoleRecord>('roles').sort(by((r) => r.name)),
    listPrincipalRoles: () => this.list<PrincipalRolesRecord>('principals').sort(by((r) => r.principal)),
  };

  /** Users are written at once to this node's copy, as the SQLite engine writes them directly, and sent to the cluster. */
  readonly users: Store['users'] = {
    find: (name) => this.one<UserRecord>('users', name),
    list: () => this.list<UserRecord>('users').sort(by((r) => r.name)),
    count: () => this.records.table('users').size,
    upsert: (u) => {
      const before = this.one<UserRecord>('users', u.name);
      this.send([{ table: 'users', field: u.name, value: JSON.stringify(before ? { ...u, createdAt: before.createdAt } : u) }]);
    },
    replaceDigests: (rows: DigestUpdate[]) => this.send(rows.flatMap((r): Mutation[] => {
      const u = this.one<UserRecord>('users', r.name);
      return u ? [{ table: 'users', field: r.name, value: JSON.stringify({ ...u, digestMd5: r.digestMd5, digestSha256: r.digestSha256 }) }] : [];
    })),
    delete: (name) => {
      if (!this.records.get('users', name)) return false;
      this.send([{ table: 'users', field: name, value: undefined }]);
      return true;
    },
  };

  readonly settings: Store['settings'] = {
    find: (name) => this.records.get('settings', name),
    list: (prefix) => [...this.records.table('settings')].filter(([name]) => name.startsWith(prefix)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    upsert: (name, value) => this.send([{ table: 'settings', field: name, value }]),
  };

  readonly indexes: IndexStore = new Proxy({} as IndexStore, {
    get: () => () => { throw new NotOnEngineError('Query indexes'); },
  });

  openVolatileIndexes(onFailure: (ops: IndexWriteOp[], err: Error) => void): VolatileIndexStore {
    const volatile = new SqliteVolatileIndexStore(this.dataDir, migrationsDir(), onFailure);
    this.volatiles.push(volatile);
    return volatile;
  }

  /** The writes of one turn share one script; a write this engine does not make throws at once. */
  write(op: WriteOp): Commit {
    const mutations = this.mutationsOf(op);
    if (!this.batch) {
      const batch = { ops: [] as WriteOp[], mutations: [] as Mutation[], commit: new Commit() };
      this.batch = batch;
      setImmediate(() => {
        this.batch = undefined;
        this.track(this.records.commit(batch.mutations).then(() => batch.commit.finish(), (err: Error) => {
          batch.commit.finish(err);
          this.failureListener(batch.ops, err);
        }));
      });
    }
    this.batch.ops.push(op);
    this.batch.mutations.push(...mutations);
    return this.batch.commit;
  }

  /**
   * Writes `ops` and appends the configuration event in one script; the event's id, once this
   * node's copy has the change. A cache created meanwhile by another node fails it with `CacheExistsError`.
   */
  async appendConfigEvent(ops: readonly WriteOp[], event: Omit<ConfigEventRecord, 'id'>, keep: number): Promise<string> {
    const [id] = await this.records.commit(ops.flatMap((op) => this.mutationsOf(op)), [{ ...event, keep }]).catch((err: unknown) => {
      throw err instanceof RecordExistsError && err.table === 'caches' ? new CacheExistsError(err.field) : err;
    });
    return id;
  }

  /** The previous run's indexes: nothing in them is known to be true any more. */
  deleteMemoryOnlyIndexDocuments(): number {
    deleteVolatileIndexFiles(this.dataDir);
    return 0;
  }

  rewriteKeys(): Promise<undefined> {
    return Promise.resolve(undefined);
  }

  openSnapshot(): StoreSnapshot {
    throw new NotOnEngineError('Backups');
  }

  get pendingCommit(): Commit | undefined {
    return this.batch?.commit;
  }

  get collectingCommit(): Commit | undefined {
    return this.batch?.commit;
  }

  async whenWritten(): Promise<void> {
    await this.whenDurable().catch(() => undefined);
  }

  async whenDurable(): Promise<void> {
    const pending = this.batch?.commit.promise;
    await Promise.all([...this.inflight, pending]);
  }

  onCommitFailure(listener: (ops: WriteOp[], err: Error) => void): void {
    this.failureListener = listener;
  }

  externalVersion(): number {
    return 0;
  }

  /** Stops following the cluster's changes; the client is the caller's. */
  async close(): Promise<void> {
    await Promise.allSettled([...this.inflight]);
    await this.records.close();
    for (const v of this.volatiles) v.close();
  }

  private send(mutations: Mutation[]): void {
    if (mutations.length === 0) return;
    this.track(this.records.writeThrough(mutations).catch((err: Error) => this.failureListener([], err)));
  }

  private track(p: Promise<unknown>): void {
    this.inflight.add(p);
    void p.finally(() => this.inflight.delete(p));
  }

  private list<T>(table: Table): T[] {
    return [...this.records.table(table).values()].map((v) => JSON.parse(v) as T);
  }

  private one<T>(table: Table, field: string): T | undefined {
    const v = this.records.get(table, field);
    return v === undefined ? undefined : JSON.parse(v) as T;
  }

  /** The records a write changes, read against this node's copy where the write names only part of one. */
  private mutationsOf(op: WriteOp): Mutation[] {
    const put = (table: Table, field: string, record: unknown, mustBeAbsent = false): Mutation[] => [{ table, field, value: JSON.stringify(record), mustBeAbsent }];
    const del = (table: Table, field: string): Mutation[] => [{ table, field, value: undefined }];
    switch (op.kind) {
      case 'cache.insert': return put('caches', op.record.name, op.record, true);
      case 'cache.updateConfig': {
        const r = this.one<CacheRecord>('caches', op.name);
        return r ? put('caches', op.name, { ...r, config: op.config }) : [];
      }
      case 'cache.delete': {
        const r = this.list<CacheRecord>('caches').find((c) => c.id === op.id);
        return r ? del('caches', r.name) : [];
      }
      case 'template.upsert': return put('templates', op.record.name, op.record);
      case 'template.delete': return del('templates', op.name);
      case 'counter.insert': return put('counters', op.record.name, { ...op.record, value: String(op.record.value) });
      case 'counter.setValue': {
        const r = this.one<CounterRecord>('counters', op.name);
        return r ? put('counters', op.name, { ...r, value: String(op.value), updatedAt: op.updatedAt }) : [];
      }
      case 'counter.delete': return del('counters', op.name);
      case 'schema.upsert': return put('schemas', op.record.name, op.record);
      case 'schema.delete': return del('schemas', op.name);
      case 'role.upsert': return put('roles', op.record.name, op.record);
      case 'role.delete': return del('roles', op.name);
      case 'principal.setRoles': return op.record.roles.length ? put('principals', op.record.principal, op.record) : del('principals', op.record.principal);
      case 'logger.upsert': return put('loggers', op.record.name, op.record);
      case 'logger.delete': return del('loggers', op.name);
      case 'task.upsert': return put('tasks', op.record.name, op.record);
      case 'task.delete': return del('tasks', op.name);
      case 'operation.upsert': return put('operations', `${op.record.kind}:${op.record.name}`, op.record);
      case 'operation.delete': return del('operations', `${op.operation}:${op.name}`);
      case 'xsite.upsert': return put('xsite', `${op.record.cache}\u0000${op.record.site}`, op.record);
      // a setting's value is its text, as `settings.upsert` writes it
      case 'setting.put': return [{ table: 'settings', field: op.name, value: op.value }];
      case 'setting.delete': return del('settings', op.name);
      case 'configEvent.insert': throw new Error('configuration events are appended with appendConfigEvent on the redis engine');
      default: throw new Error(`the redis engine does not write ${(op as IndexWriteOp | WriteOp).kind} through its store`);
    }
  }
}

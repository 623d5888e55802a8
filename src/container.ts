import { join } from 'node:path';
import { ensurePrivateDir } from './util/private-files';
import { type CredentialsKey, loadOrCreateCredentialsKey } from './config/credentials-key';
import { ConfigError, type ServerConfig } from './config/server-config';
import { CacheManager, type CacheManagerDeps } from './grid/cache-manager';
import { boundOf, keepsBound, RedisCacheData } from './grid/redis-cache-data';
import { InvalidConfigurationError } from './errors';
import { applyRemoteChange } from './services/cluster-changes';
import { type ClusterOrder, formatOrder, parseOrder } from './services/cluster-orders';
import { DEFAULT_PAGING, RedisEntries } from './store/redis/redis-entries';
import { clusterContainerName, RedisStore } from './store/redis/redis-store';
import { RedisMemberRegistry } from './store/redis/member-registry';
import type { ClusterEngine } from './store/redis/cluster-engine';
import type { RemoteChange } from './store/redis/replicated-records';
import type { Store } from './store/store';
import { CounterManager } from './grid/counter-manager';
import { LocalCounterValues } from './grid/local-counter-values';
import { RedisCounterValues } from './grid/redis-counter-values';
import { RedisCounters } from './store/redis/redis-counters';
import type { ContainerServices } from './services';
import { AuthService } from './services/auth/auth.service';
import { BackupService, type SharedOperations } from './services/backup.service';
import { BackupLocations, BackupRootError } from './services/backup/locations';
import { BulkService } from './services/bulk.service';
import { CacheService } from './services/cache.service';
import { ContainerService, CONTAINER_NAME } from './services/container.service';
import { CounterService } from './services/counter.service';
import { AUTH_MECHANISMS_SETTING, type DigestResealing, DigestVault } from './services/auth/digest-vault';
import { EntryService } from './services/entry.service';
import { PROTOBUF_METADATA, ProtobufMetadataCache } from './services/protobuf-metadata';
import { storageTypesOf } from './services/storage-types';
import { storedKeyText, toStoredKey } from './model/media/key-codec';
import { parseMediaType, TEXT_PLAIN } from './model/media/media-type';
import { QueryEngine } from './grid/query/query-engine';
import { TypeRegistry } from './grid/type-registry';
import { QueryService } from './services/query.service';
import { SearchAdminService } from './services/search-admin.service';
import { Indexing } from './grid/query/indexing';
import { migrateLegacyKeys } from './services/key-migration';
import type { OffLoop } from './services/off-loop/off-loop';
import { RoleRegistry } from './services/auth/role-registry';
import { SchemaService } from './services/schema.service';
import { TaskService } from './services/tasks/task.service';
import { UserService } from './services/auth/user.service';
import { ValueConverter } from './services/off-loop/value-converter';
import { XSiteService } from './services/xsite.service';
import { SqliteStore } from './store/sqlite-store';
import type { Clock } from './util/clock';
import type { Logger } from './util/logger';
import type { LoggerRegistry } from './util/logger-registry';

/** What one container is made of; the default container and every tenant's get the same. */
export interface ContainerSpec {
  /** `default`, or the tenant's name (also the container name in its backups). */
  name: string;
  /** Where its store lives: the data dir, or `<data dir>/tenants/<name>/`. */
  dataDir: string;
  config: ServerConfig;
  clock: Clock;
  logs: LoggerRegistry;
  /** The worker thread for parsing and validation (src/services/off-loop/off-loop.ts), shared by the containers. */
  offLoop: OffLoop;
  /** Cache and alias names this container refuses: the tenants' names, in the default container. */
  reservedCacheNames?: ReadonlySet<string>;
  /** The cluster, on the redis engine (docs/scale-out.md): the container's records and entries live there. */
  cluster?: ClusterEngine;
  /** On the redis engine: resolves once every other live node has applied what this node wrote to container `name` (ClusterService.spread). */
  spread?: (container: string) => Promise<void>;
}

/** One cache container: its store and the services acting on it. */
export interface Container {
  name: string;
  store: Store;
  /** On the redis engine: hears what other nodes change (the server's loggers and stop orders follow it). */
  onRemoteChange?: (listener: (change: RemoteChange) => void) => void;
  /** On the redis engine: tells the other nodes an order through this container's change stream (docs/scale-out.md, "Cluster-wide operations"). */
  tell?: (order: ClusterOrder) => Promise<void>;
  services: ContainerServices & { manager: CacheManager; types: TypeRegistry };
  /** Shutdown begins: running scripts, backups and restores stop now, so in-flight requests end promptly. */
  interrupt(): void;
  /** Waits for its backups and restores, passivates its caches, closes its store. */
  close(): Promise<void>;
}

const TEXT = parseMediaType(TEXT_PLAIN);

/**
 * The per-container part of the composition root (main.ts calls it once per container): opens
 * the container's store (migrated, keys of older data converted), then builds its engine and
 * services. A service that acts on one container's data is built here; one the whole process
 * shares is built in main.ts (`ProcessWide` in src/services/index.ts).
 */
export async function createContainer(spec: ContainerSpec): Promise<Container> {
  const { name, dataDir, config, clock } = spec;
  // a tenant's logs say which container wrote them: `grid.cache.t1` follows `grid.cache`'s level
  const log = (logger: string): Logger => spec.logs.get(name === CONTAINER_NAME ? logger : `${logger}.${name}`);
  // created 0700 (a tenant's data/tenants/<name>/ too), grid.db 0600: src/util/private-files.ts
  const clusterName = clusterContainerName(name, spec.cluster?.namespace);
  // the node's own files (credentials key, logs, backups) stay in its data dir: created 0700 on either engine
  if (spec.cluster) ensurePrivateDir(dataDir);
  const redis = spec.cluster && await RedisStore.open(spec.cluster.client, clusterName, dataDir, spec.cluster.writes);
  const store: Store = redis ?? new SqliteStore({ dataDir, durability: config.durability });
  const storeLog = log('grid.store');
  store.onCommitFailure((ops, err) => storeLog.error({ err, writes: ops.length }, 'commit failed; the writes were refused'));

  const types = new TypeRegistry();
  const schemas = new SchemaService(types, store, clock, spec.offLoop, config.limits);
  await schemas.start().catch(async (err: unknown) => { await store.close(); throw err; });
  // before anything else writes: keys of older data dirs are converted once (docs/data-formats.md)
  await migrateLegacyKeys(store, types, clock, storeLog).catch(async (err: unknown) => { await store.close(); throw err; });

  // each container's Digest credentials are sealed with its own key file (docs/security.md)
  const credentialsKey = loadOrCreateCredentialsKey(dataDir);
  const vault = new DigestVault(config.authMechanisms.includes('digest'), credentialsKey.key);
  store.settings.upsert(AUTH_MECHANISMS_SETTING, config.authMechanisms.join(','), clock.now());
  const users = new UserService(store.users, clock, vault);
  reportStoredDigests(users.secureStoredDigests(), credentialsKey, log('grid.security'));

  let schemasFollowed: Promise<void> = Promise.resolve();
  const indexing = new Indexing(store, types, log('grid.query'), clock);
  const manager = new CacheManager({
    store, clock, log: log('grid.cache'), reservedNames: spec.reservedCacheNames, indexing, expirationIntervalMs: config.expirationInterval,
    configEventLog: config.limits.configEventLog, ...(spec.cluster && clusterCaches(spec.cluster, clusterName, clock)),
    // caught up once the schemas another node changed are in force here too (their reload is asynchronous)
    catchUp: redis && (() => redis.catchUp().then(() => schemasFollowed)),
    sharedRecords: redis !== undefined,
  });
  const { queryTimeout, queryRows, queryAnswerBytes, queryExpansionTerms } = config.limits;
  const queryEngine = new QueryEngine(types, indexing, clock, { timeoutMs: queryTimeout, rows: queryRows, answerBytes: queryAnswerBytes, expansionTerms: queryExpansionTerms });
  const roles = new RoleRegistry(store);
  // values are converted at once, or on the worker when large (docs/security.md, Limits)
  const values = new ValueConverter(spec.offLoop, types);
  // `___protobuf_metadata` holds no entries of its own: its data are the schema files
  const metadataHandle = manager.find(PROTOBUF_METADATA)!;
  const keyType = () => storageTypesOf(metadataHandle.cache.settings).key;
  metadataHandle.data = new ProtobufMetadataCache(schemas, clock, values, {
    nameOf: (key) => storedKeyText(key, keyType(), types),
    keyOf: (name) => toStoredKey(Buffer.from(name, 'utf8'), TEXT, keyType(), types),
  });
  const counterValues = spec.cluster ? new RedisCounterValues(new RedisCounters(spec.cluster.client, clusterName, spec.cluster.writes), clock) : new LocalCounterValues(store, clock);
  const counterManager = new CounterManager({ store, values: counterValues, clock, log: log('grid.counters') });
  const services: ContainerServices & { manager: CacheManager; types: TypeRegistry } = {
    manager,
    types,
    caches: new CacheService(manager, clock, spec.offLoop, config.limits),
    entries: new EntryService(clock, types, values),
    schemas,
    container: new ContainerService(manager, clock, name, {
      engineHealth: spec.cluster && (() => spec.cluster!.topology.health()),
      tell: redis && ((order) => redis.tell(formatOrder(order))),
      records: redis && { commitsBegun: () => redis.commitsBegun, whenWritten: () => redis.whenWritten() },
    }),
    tasks: new TaskService(store, manager, clock, {
      timeoutMs: config.taskTimeout, memoryMb: Math.floor(config.taskMemoryLimit / 2 ** 20), maxHostCalls: config.taskMaxHostCalls,
      maxWriteBytes: config.taskMaxWrite, maxConcurrent: config.taskConcurrency,
    }),
    xsite: new XSiteService(store, manager),
    backups: new BackupService(store, dataDir, clock, log('grid.backup'), name, {
      locations: backupLocations(spec), timeoutMs: config.backupTimeout, shared: redis && sharedOperations(spec.cluster!, () => manager.catchUp() ?? Promise.resolve(), () => spec.spread?.(name) ?? Promise.resolve()),
    }),
    counters: new CounterService(counterManager),
    bulk: new BulkService(types, values),
    queries: new QueryService(queryEngine),
    searchAdmin: new SearchAdminService(indexing, queryEngine),
    auth: new AuthService(store, roles, clock, vault, { mechanisms: config.authMechanisms, digestWithoutQop: config.digestWithoutQop, log: log('grid.security') }),
    roles,
    users,
    dataDir,
  };
  services.users.onChange = () => services.auth.forget();
  services.backups.attach({ manager, caches: services.caches, counters: services.counters, schemas, types, tasks: services.tasks });
  if (redis) {
    const followers = { manager, counters: counterManager, schemas: { reload: () => {
      const reloaded = schemas.reload();
      schemasFollowed = reloaded.catch(() => undefined); // its failure is logged by the follower
      return reloaded;
    } }, tasks: services.tasks, xsite: services.xsite, roles, usersChanged: () => services.auth.forget(), log: log('grid.cluster') };
    redis.onRemoteChange((change) => applyRemoteChange(change, followers));
    // a shutdown asked through another node applies here too (docs/scale-out.md, "Cluster-wide operations")
    redis.onRemoteChange((change) => { if (parseOrder(change.order)?.kind === 'shutdown') manager.shutdownContainer(); });
  }

  return {
    name,
    store,
    onRemoteChange: redis && ((listener) => redis.onRemoteChange(listener)),
    tell: redis && ((order) => redis.tell(formatOrder(order))),
    services,
    interrupt() {
      services.tasks.close();
      services.backups.cancel();
    },
    async close() {
      await services.backups.idle();
      manager.shutdown();
      indexing.close();
      await store.close();
    },
  };
}

/** Backups and restores on the redis engine (docs/scale-out.md, "Backups and restores"): the records are the cluster's, the nodes its members. */
function sharedOperations(cluster: ClusterEngine, catchUp: () => Promise<void>, spread: () => Promise<void>): SharedOperations {
  const members = new RedisMemberRegistry(cluster.client, cluster.namespace);
  return {
    self: cluster.events.node,
    members: async () => (await members.list()).map(({ id, name, address }) => ({ id, name, address })),
    // the container's own catch-up: the schemas a restore wrote are in force once it resolves
    catchUp,
    spread,
  };
}

/**
 * The redis engine's part of a container's caches (docs/scale-out.md): each user cache's entries
 * on the cluster under the cache's cluster-wide id, and the definitions this engine cannot serve
 * refused when a cache is created or changed, never silently ignored.
 */
function clusterCaches(cluster: ClusterEngine, container: string, clock: Clock): Pick<CacheManagerDeps, 'dataOf' | 'checkDefinition'> {
  return {
    dataOf: (cache) => new RedisCacheData(
      new RedisEntries(cluster.client, `${container}:${cache.id}`, DEFAULT_PAGING, cluster.writes, cluster.events.node, boundOf(cache)), clock, cluster.events, cache, cluster.topology),
    checkDefinition: (settings, current) => {
      // a bounded cache has no feed of changes for the nodes' indexes (docs/scale-out.md, "Bounded caches")
      if (settings.indexed && keepsBound(settings)) {
        throw new InvalidConfigurationError('indexing together with memory.max-count or memory.max-size is not supported on the redis engine yet: '
          + 'remove one of them from the definition (docs/scale-out.md)');
      }
      // a bounded cache has one segment, another 256: the layout is chosen at create (docs/scale-out.md, "Bounded caches")
      if (current && keepsBound(settings) !== keepsBound(current)) {
        throw new InvalidConfigurationError(`memory.max-count and memory.max-size cannot be ${keepsBound(settings) ? 'added to' : 'removed from'} an existing cache `
          + 'on the redis engine, whose layout is chosen at create: create a new cache with the bound it is to have (docs/scale-out.md)');
      }
    },
  };
}

/**
 * Where this container's backups may go and restores come from: its own data dir, and for the
 * default container also the configured `backup-roots` — but never a tenant's data. A tenant gets
 * its data dir only, so no tenant reads another's archives (docs/configuration.md, Backup roots).
 */
function backupLocations(spec: ContainerSpec): BackupLocations {
  const main = spec.name === CONTAINER_NAME;
  try {
    return BackupLocations.open(spec.dataDir, main ? spec.config.backupRoots : [], main ? [join(spec.dataDir, 'tenants')] : []);
  } catch (e) {
    throw e instanceof BackupRootError ? new ConfigError(e.message) : e;
  }
}

/** What the start-up step did to the stored Digest values, and what an operator must know. */
function reportStoredDigests(r: DigestResealing, key: CredentialsKey, log: Logger): void {
  const sealed = r.updates.filter((u) => u.digestMd5 || u.digestSha256).length;
  if (sealed) log.info({ users: sealed }, 'plain Digest HA1 values encrypted with the credentials key');
  if (r.updates.length - sealed) log.info({ users: r.updates.length - sealed }, 'Digest HA1 values dropped: Digest is not among auth-mechanisms');
  if (r.unreadable.length) {
    log.warn({ users: r.unreadable, keyFile: key.path, created: key.created },
      'Digest credentials of these users do not open with the credentials key (key file replaced or missing?); they can log in with Basic; restore the key or set their passwords again');
  }
  if (r.missing.length) log.warn({ users: r.missing }, 'these users have no Digest credentials (set while Digest was off); they can log in with Basic until their password is set again');
}

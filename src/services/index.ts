import type { Limits } from '../config/limits';
import type { TypeRegistry } from '../grid/type-registry';
import type { CacheManager } from '../grid/cache-manager';
import type { Clock } from '../util/clock';
import type { AuthService } from './auth/auth.service';
import type { BulkService } from './bulk.service';
import type { BackupService } from './backup.service';
import type { CacheService } from './cache.service';
import type { ClusterService } from './cluster.service';
import type { ContainerService } from './container.service';
import type { CounterService } from './counter.service';
import type { EntryService } from './entry.service';
import type { LoggingService } from './logging.service';
import type { MetricsService } from './metrics.service';
import type { QueryService } from './query.service';
import type { SearchAdminService } from './search-admin.service';
import type { RoleRegistry } from './auth/role-registry';
import type { SchemaService } from './schema.service';
import type { ServerService } from './server/server.service';
import type { TaskService } from './tasks/task.service';
import type { XSiteService } from './xsite.service';
import type { NodeInfo } from './server/node-info';
import type { UserService } from './auth/user.service';

export type { CacheEntry } from '../grid/cache-entry';
export type { CacheView } from './cache-view';
export type { Subject } from './auth/auth.service';
export type { StatsSnapshot } from '../grid/cache-stats';
export type { EngineNode, KeyOwners } from '../grid/cache-data';
export type { ConfigChange } from '../grid/config-event-log';
export type { EntryEvent } from '../grid/entry-events';
export type { NodeInfo } from './server/node-info';
export type { ClusterView } from './cluster.service';

/**
 * Everything a handler talks to: the process-wide services and those of the container the request
 * reached (the default one or a tenant's). main.ts builds the process-wide part once and
 * `createContainer` (src/container.ts) the rest, once per container. The engine is not among them:
 * handlers hold caches as read-only views (`CacheView`) and act on them through the services.
 */
export interface Services {
  caches: CacheService;
  entries: EntryService;
  counters: CounterService;
  container: ContainerService;
  server: ServerService;
  logging: LoggingService;
  metrics: MetricsService;
  tasks: TaskService;
  backups: BackupService;
  xsite: XSiteService;
  schemas: SchemaService;
  bulk: BulkService;
  queries: QueryService;
  searchAdmin: SearchAdminService;
  auth: AuthService;
  roles: RoleRegistry;
  users: UserService;
  node: NodeInfo;
  /** The grid nodes of the cluster (this one alone on the SQLite engine). */
  cluster: ClusterService;
  clock: Clock;
  authEnabled: boolean;
  bodyLimit: number;
  /** Caps on sizes, counts, connections and time-outs (docs/security.md "Limits"). */
  limits: Limits;
  version: string;
  dataDir: string;
  /** The built web console served at /console/, when configured. */
  consoleDir: string | undefined;
}

/** The members of `Services` that belong to the process, shared by every container. */
export type ProcessWide = 'server' | 'logging' | 'metrics' | 'node' | 'cluster' | 'clock' | 'authEnabled' | 'bodyLimit' | 'limits' | 'version' | 'consoleDir';
export type ProcessServices = Pick<Services, ProcessWide>;
/** The members of `Services` that act on one container: every member not listed in `ProcessWide`. */
export type ContainerServices = Omit<Services, ProcessWide>;
/** A container's services with the engine they share: for the composition root and tests, never handed to handlers. */
export type WiredServices = Services & { manager: CacheManager; types: TypeRegistry };

import { CacheAbsentError } from '../errors';
import type { CacheManager } from '../grid/cache-manager';
import type { ConfigChange, ConfigEvent, ConfigEventPage } from '../grid/config-event-log';
import type { StatsSnapshot } from '../grid/cache-stats';
import { NO_FLAGS, SKIP_CACHE_LOAD } from '../model/flags';
import { type CacheDefinition, formatCacheConfig } from '../model/cache-config';
import { compareEventIds, type EventId } from '../model/event-id';
import type { Clock } from '../util/clock';
import type { Subject } from './auth/auth.service';
import { canAccess } from './auth/authorization';
import { type CacheView, handleOf, viewOf } from './cache-view';
import { dataMemoryUsed } from './cache.service';
import type { ClusterOrder } from './cluster-orders';

/** The default container's name, as the original server calls its cache manager; a tenant's container is named after the tenant. */
export const CONTAINER_NAME = 'default';

export type HealthStatus = 'HEALTHY' | 'HEALTHY_REBALANCING' | 'DEGRADED' | 'FAILED';

/** `GET /container/stats`: the container's counters and the figures summed over its caches, read at one moment. */
export interface ContainerStatistics extends StatsSnapshot {
  readonly entries: number;
  readonly entriesInMemory: number;
  /** Bytes the bounded caches hold in memory. */
  readonly dataMemoryUsed: number;
}

export interface CacheConfigView {
  name: string;
  configuration: unknown;
}

/** The cache container (docs/reference/management-plane.md#container). */
export class ContainerService {
  /**
   * `cluster`: on the redis engine, how the engine serves the container as a whole, where other
   * nodes hold the data (`engineHealth`: docs/scale-out.md, "Owners and health"), and how this
   * container reaches the same container on the other nodes (`tell`: docs/scale-out.md,
   * "Cluster-wide operations"), and this node's writes to the container's records (`records`:
   * docs/scale-out.md, "Records"); absent on SQLite, where this node is the cluster.
   */
  constructor(private readonly manager: CacheManager, private readonly clock: Clock, readonly name: string = CONTAINER_NAME,
    private readonly cluster: {
      engineHealth?: () => HealthStatus;
      tell?: (order: ClusterOrder) => Promise<void>;
      records?: { commitsBegun(): number; whenWritten(): Promise<void> };
    } = {}) {}

  /** On the redis engine a mark of this node's writes to the container's records (two marks differ when it wrote between them); undefined on SQLite. */
  recordsMark(): number | undefined {
    return this.cluster.records?.commitsBegun();
  }

  /** Resolves once every write this node began to the container's records is committed (at once on SQLite). */
  async recordsWritten(): Promise<void> {
    await this.cluster.records?.whenWritten();
  }

  get stopped(): boolean {
    return this.manager.status === 'STOPPING';
  }

  get status(): string {
    return this.manager.status;
  }

  get rebalancingEnabled(): boolean {
    return this.manager.rebalancingEnabled;
  }

  /** Every cache, internal ones included, in the container's order. */
  caches(): CacheView[] {
    return this.manager.handles().map(viewOf);
  }

  /** Every defined template, by name. */
  templateDefinitions(): Array<[string, CacheDefinition]> {
    return this.manager.templateDefinitions();
  }

  /** Hears every change of the container's configuration (caches and templates) from now on; returns the way to stop. */
  onConfigEvent(listener: (e: ConfigEvent) => void): () => void {
    return this.manager.events.add(listener);
  }

  /**
   * Once this node has every change other nodes acknowledged before the call (docs/scale-out.md,
   * "Configuration events"); undefined when there is nothing to wait for (one node).
   */
  catchUp(): Promise<void> | undefined {
    return this.manager.catchUp();
  }

  /** The newest configuration event told: a listener subscribing now hears every one after it. */
  get newestConfigEvent(): EventId {
    return this.manager.events.newest;
  }

  /**
   * A page of the configuration events after `after` and up to `upTo`, oldest first (empty past
   * the last); undefined when the log cannot give them all: `after` comes after `upTo` (an id this
   * container never told), or events after it have been deleted as too old.
   */
  configEventsAfter(after: EventId, upTo: EventId): Promise<ConfigEventPage | undefined> {
    if (compareEventIds(after, upTo) > 0) return Promise.resolve(undefined);
    return this.manager.events.page(after, upTo);
  }

  /** The configuration as it is, as the changes that would make it: every cache (internal ones included), then every template. */
  configState(): ConfigChange[] {
    const state: ConfigChange[] = this.manager.handles()
      .map((h) => ({ type: 'create-cache', name: h.cache.name, definition: h.definition, settings: h.cache.settings }));
    for (const [name, definition] of this.manager.templateDefinitions()) state.push({ type: 'create-template', name, definition });
    return state;
  }

  /** Calls `fn` when the container shuts down (`?action=shutdown`), until the returned function is called. */
  onStopping(fn: () => void): () => void {
    return this.manager.stopping.add(fn);
  }

  /** The health of each cache the caller may see: DEGRADED in degraded availability; a single node never rebalances. */
  cacheHealth(subject: Subject): Array<{ status: HealthStatus; cache_name: string }> {
    return this.visibleCaches(subject).map((c) => ({ status: cacheHealthOf(c), cache_name: c.name }));
  }

  /**
   * The engine's state when it is not HEALTHY, else the first non-HEALTHY status among all caches,
   * else HEALTHY (docs/reference/management-plane.md#container-health); it names no cache.
   */
  clusterHealth(): HealthStatus {
    const engine = this.cluster.engineHealth?.() ?? 'HEALTHY';
    if (engine !== 'HEALTHY') return engine;
    for (const c of this.caches()) {
      const status = cacheHealthOf(c);
      if (status !== 'HEALTHY') return status;
    }
    return 'HEALTHY';
  }

  /**
   * Cache and template configurations the caller may see, sorted by name, internal ones excluded;
   * each formatted as it is reached (one may be 1 MiB: config-bytes), so a listing can go in chunks.
   */
  *cacheConfigs(subject: Subject, templatesOnly: boolean): Generator<CacheConfigView> {
    const defs: Array<[string, CacheDefinition]> = [...this.manager.templateDefinitions()];
    if (!templatesOnly) {
      for (const h of this.manager.handles()) {
        if (!h.internal && canAccess(subject, viewOf(h))) defs.push([h.cache.name, h.definition]);
      }
    }
    defs.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    for (const [name, def] of defs) yield view(name, def);
  }

  /** The names `cacheConfigs` would list, without formatting every definition. */
  configurationNames(subject: Subject): string[] {
    const names = this.manager.templateDefinitions().map(([name]) => name);
    // the internal caches are not private ones: the original lists them too (docs/reference/management-plane.md#container-info)
    for (const c of this.caches()) if (canAccess(subject, c)) names.push(c.name);
    return names.sort();
  }

  resetStats(): void {
    this.manager.stats.reset(this.clock.now());
  }

  /** Summed cache by cache (each size counted where its entries live), then the counters, read once all are in. */
  async statistics(): Promise<ContainerStatistics> {
    let entries = 0;
    let entriesInMemory = 0;
    let memory = 0;
    for (const h of this.manager.handles()) {
      entries += await h.data.size(NO_FLAGS);
      entriesInMemory += await h.data.size(SKIP_CACHE_LOAD);
      memory += dataMemoryUsed(h);
    }
    return { ...this.manager.stats.snapshot(), entries, entriesInMemory, dataMemoryUsed: memory };
  }

  setRebalancing(enabled: boolean): Promise<void> {
    return this.manager.setRebalancing(enabled);
  }

  /**
   * Shuts the container down on every node (docs/reference/management-plane.md#container-lifecycle):
   * the others are told first, so a cluster that cannot be told (a 503) leaves every node running.
   */
  async shutdown(): Promise<void> {
    if (!this.stopped) await this.cluster.tell?.({ kind: 'shutdown' });
    this.manager.shutdownContainer();
  }

  /** Puts the cache on the ignore list, or takes it off. */
  setIgnored(cache: string, ignored: boolean): Promise<void> {
    this.requireCache(cache);
    return this.manager.setIgnored(cache, ignored);
  }

  /** The ignore list, without the caches the caller holds no permission on. */
  ignoredCaches(subject: Subject): string[] {
    return this.manager.ignoredNames().filter((n) => {
      const h = this.manager.find(n);
      return h !== undefined && canAccess(subject, viewOf(h));
    });
  }

  /** The caches the caller holds at least one permission on (internal ones included). */
  visibleCaches(subject: Subject): CacheView[] {
    return this.caches().filter((c) => canAccess(subject, c));
  }

  isIgnored(cache: string): boolean {
    return this.manager.isIgnored(cache);
  }

  private requireCache(name: string): void {
    if (!this.manager.find(name)) throw new CacheAbsentError();
  }
}

function view(name: string, def: CacheDefinition): CacheConfigView {
  return { name, configuration: JSON.parse(formatCacheConfig(def, name, 'json', false)) };
}

export function cacheHealthOf(cache: CacheView): HealthStatus {
  if (cache.availability === 'DEGRADED_MODE') return 'DEGRADED';
  return handleOf(cache).data.placement?.health() ?? 'HEALTHY';
}

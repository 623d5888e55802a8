import { CacheAbsentError } from '../errors';
import type { CacheHandle, CacheManager, ConfigEvent } from '../grid/cache-manager';
import type { Listeners } from '../util/listeners';
import { type CacheDefinition, formatCacheConfig } from '../model/cache-config';
import type { Clock } from '../util/clock';
import type { Subject } from './auth/auth.service';
import { canAccess } from './auth/authorization';

/** The default container's name, as the original server calls its cache manager; a tenant's container is named after the tenant. */
export const CONTAINER_NAME = 'default';

export type HealthStatus = 'HEALTHY' | 'HEALTHY_REBALANCING' | 'DEGRADED' | 'FAILED';

export interface CacheConfigView {
  name: string;
  configuration: unknown;
}

/** The cache container (docs/reference/management-plane.md#container). */
export class ContainerService {
  constructor(private readonly manager: CacheManager, private readonly clock: Clock, readonly name: string = CONTAINER_NAME) {}

  get stopped(): boolean {
    return this.manager.status === 'STOPPING';
  }

  get status(): string {
    return this.manager.status;
  }

  get rebalancingEnabled(): boolean {
    return this.manager.rebalancingEnabled;
  }

  handles(): CacheHandle[] {
    return this.manager.handles();
  }

  /** Every defined template, by name. */
  templateDefinitions(): Array<[string, CacheDefinition]> {
    return this.manager.templateDefinitions();
  }

  /** Hears every change of the container's configuration (caches and templates); returns the way to stop. */
  onConfigEvent(listener: (e: ConfigEvent) => void): () => void {
    return this.manager.events.add(listener);
  }

  /** Fires when the container shuts down (`?action=shutdown`). */
  get stopping(): Listeners<void> {
    return this.manager.stopping;
  }

  /** The health of each cache the caller may see: DEGRADED in degraded availability; a single node never rebalances. */
  cacheHealth(subject: Subject): Array<{ status: HealthStatus; cache_name: string }> {
    return this.visibleHandles(subject).map((h) => ({ status: cacheHealthOf(h), cache_name: h.cache.name }));
  }

  /** The first non-HEALTHY status among all caches, else HEALTHY (docs/reference/management-plane.md#container-health); it names no cache. */
  clusterHealth(): HealthStatus {
    for (const h of this.manager.handles()) {
      const status = cacheHealthOf(h);
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
        if (!h.internal && canAccess(subject, h)) defs.push([h.cache.name, h.definition]);
      }
    }
    defs.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    for (const [name, def] of defs) yield view(name, def);
  }

  /** The names `cacheConfigs` would list, without formatting every definition. */
  configurationNames(subject: Subject): string[] {
    const names = this.manager.templateDefinitions().map(([name]) => name);
    // the internal caches are not private ones: the original lists them too (docs/reference/management-plane.md#container-info)
    for (const h of this.manager.handles()) if (canAccess(subject, h)) names.push(h.cache.name);
    return names.sort();
  }

  resetStats(): void {
    this.manager.stats.reset(this.clock.now());
  }

  get stats() {
    return this.manager.stats;
  }

  setRebalancing(enabled: boolean): void {
    this.manager.rebalancingEnabled = enabled;
  }

  shutdown(): void {
    this.manager.shutdownContainer();
  }

  ignore(cache: string): void {
    this.requireCache(cache);
    this.manager.ignore(cache);
  }

  unignore(cache: string): void {
    this.requireCache(cache);
    this.manager.unignore(cache);
  }

  /** The ignore list, without the caches the caller holds no permission on. */
  ignoredCaches(subject: Subject): string[] {
    return this.manager.ignoredNames().filter((n) => {
      const h = this.manager.find(n);
      return h !== undefined && canAccess(subject, h);
    });
  }

  /** The caches the caller holds at least one permission on (internal ones included). */
  visibleHandles(subject: Subject): CacheHandle[] {
    return this.manager.handles().filter((h) => canAccess(subject, h));
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

export function cacheHealthOf(h: CacheHandle): HealthStatus {
  return h.availability === 'DEGRADED_MODE' ? 'DEGRADED' : 'HEALTHY';
}

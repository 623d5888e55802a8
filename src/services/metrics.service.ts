import type { Registry } from 'prom-client';
import type { CacheHandle, CacheManager } from '../grid/cache-manager';
import type { CacheStats } from '../grid/cache-stats';
import { lazy } from '../util/lazy';
import { RequestLatency } from './server/request-latency';

// prom-client (with @opentelemetry/api, 80-odd modules) is loaded at the first scrape, not at start
const promClient = lazy(() => require('prom-client') as typeof import('prom-client'));

const STATS: Array<[string, (s: CacheStats) => number, string]> = [
  ['hits', (s) => s.hits, 'reads that found an entry'],
  ['misses', (s) => s.misses, 'reads that found nothing'],
  ['retrievals', (s) => s.retrievals, 'reads'],
  ['stores', (s) => s.stores, 'writes'],
  ['remove_hits', (s) => s.removeHits, 'removals of an existing entry'],
  ['remove_misses', (s) => s.removeMisses, 'removals of a missing entry'],
  ['evictions', (s) => s.evictions, 'entries evicted from memory'],
];

/**
 * Caches named in the anonymous `/metrics`: not those with `security.authorization`, whose names
 * only their own roles may learn (CVE-2023-3628/3629 class); they still count in the container totals.
 */
function publicHandles(manager: CacheManager): CacheHandle[] {
  return manager.handles().filter((h) => !h.cache.settings.secured);
}

/**
 * Prometheus metrics (`GET /metrics`, docs/reference/management-plane.md#metrics) with prom-client: per-cache and
 * container counters from the engine, entries in memory, request latency, and the process.
 * Per-cache series are rebuilt at every scrape, so a removed cache disappears from them. The
 * registry is built at the first scrape: the process metrics that accumulate (GC, event loop
 * delay) count from then on; request latency is recorded from the start.
 */
export class MetricsService {
  private readonly requests = new RequestLatency('grid_http_request_duration_seconds', 'REST request latency',
    [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5]);
  private registered: Registry | undefined;

  constructor(private readonly manager: CacheManager) {}

  observeRequest(method: string, status: number, seconds: number): void {
    this.requests.observe(method, status, seconds);
  }

  async text(): Promise<{ contentType: string; body: string }> {
    const registry = this.registry();
    return { contentType: registry.contentType, body: await registry.metrics() };
  }

  private registry(): Registry {
    if (this.registered) return this.registered;
    const { collectDefaultMetrics, Gauge, Registry } = promClient();
    const registry = new Registry();
    const manager = this.manager;
    collectDefaultMetrics({ register: registry, prefix: 'grid_' });
    this.requests.register(registry);
    for (const [stat, read, help] of STATS) {
      new Gauge({
        name: `grid_cache_${stat}`, help: `Per cache: ${help} since the last statistics reset`, labelNames: ['cache'], registers: [registry],
        collect() {
          this.reset();
          for (const h of publicHandles(manager)) this.set({ cache: h.cache.name }, read(h.cache.stats));
        },
      });
      new Gauge({
        name: `grid_container_${stat}`, help: `Container: ${help} since the last statistics reset`, registers: [registry],
        collect() { this.set(read(manager.stats)); },
      });
    }
    new Gauge({
      name: 'grid_cache_entries_in_memory', help: 'Entries held in memory', labelNames: ['cache'], registers: [registry],
      collect() {
        this.reset();
        for (const h of publicHandles(manager)) this.set({ cache: h.cache.name }, h.cache.memoryEntryCount);
      },
    });
    this.registered = registry;
    return registry;
  }
}

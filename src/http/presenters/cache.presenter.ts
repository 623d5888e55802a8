import type { CacheHandle, CacheStats } from '../../services';
import { cacheHealthOf } from '../../services/container.service';

/** Mean read, write and remove times in ms and ns (0 before the first operation), cache and container alike. */
export function averageTimes(st: CacheStats): Record<string, number> {
  const ms = (nanos: number, n: number) => (n ? Math.round(nanos / n / 1e6) : 0);
  const ns = (nanos: number, n: number) => (n ? Math.round(nanos / n) : 0);
  const removes = st.removeHits + st.removeMisses;
  return {
    average_read_time: ms(st.readNanos, st.retrievals),
    average_read_time_nanos: ns(st.readNanos, st.retrievals),
    average_write_time: ms(st.writeNanos, st.stores),
    average_write_time_nanos: ns(st.writeNanos, st.stores),
    average_remove_time: ms(st.removeNanos, removes),
    average_remove_time_nanos: ns(st.removeNanos, removes),
  };
}

/** The stats object of spec 1 "Cache details" / behavior-notes §6.9; -1 everywhere when statistics are off. */
export function presentCacheStats(h: CacheHandle, size: number, now: number): Record<string, number> {
  const st = h.cache.stats;
  const on = h.cache.settings.statistics;
  const v = (n: number) => (on ? n : -1);
  const averages = Object.fromEntries(Object.entries(averageTimes(st)).map(([k, n]) => [k, v(n)]));
  return {
    time_since_start: v(Math.floor((now - st.startedAt) / 1000)),
    time_since_reset: v(Math.floor((now - st.resetAt) / 1000)),
    hits: v(st.hits),
    current_number_of_entries: v(size),
    current_number_of_entries_in_memory: v(h.cache.memoryEntryCount),
    total_number_of_entries: v(st.stores),
    stores: v(st.stores),
    off_heap_memory_used: v(0),
    data_memory_used: v(h.cache.settings.bounded ? h.cache.memoryBytes : 0),
    retrievals: v(st.retrievals),
    misses: v(st.misses),
    remove_hits: v(st.removeHits),
    remove_misses: v(st.removeMisses),
    evictions: v(st.evictions),
    ...averages,
    required_minimum_number_of_nodes: v(1),
  };
}

/** GET /caches/{name} (behavior-notes §6.3); configuration and sizing only for ADMIN callers. */
export function presentCacheDetails(h: CacheHandle, size: number, now: number, admin: boolean, configuration: unknown): Record<string, unknown> {
  const s = h.cache.settings;
  const details: Record<string, unknown> = {
    stats: presentCacheStats(h, size, now),
    size,
    rehash_in_progress: false,
    indexing_in_progress: false,
    bounded: s.bounded,
    indexed: s.indexed,
    persistent: s.persistent,
    transactional: s.transactional,
    secured: s.secured,
    has_remote_backup: s.hasRemoteBackup,
    statistics: s.statistics,
    queryable: s.indexed,
    rebalancing_enabled: true,
    key_storage: s.keyMediaType ?? 'application/unknown',
    value_storage: s.valueMediaType ?? 'application/unknown',
    mode: s.cacheMode,
  };
  if (admin) {
    details.configuration = configuration;
    details.storage_type = s.storageType;
    details.max_size = s.maxSizeBytes >= 0 ? String(s.maxSizeBytes) : '';
    details.max_size_bytes = s.maxSizeBytes;
  }
  return details;
}

/** One item of `?action=detailed` (behavior-notes §6.2, 15.0 field set plus `rebalancing_enabled`). */
export function presentCacheListItem(h: CacheHandle, ignored: boolean, rebalancing: boolean): Record<string, unknown> {
  const s = h.cache.settings;
  return {
    status: ignored ? 'IGNORED' : 'RUNNING',
    name: h.cache.name,
    type: s.kind,
    simple_cache: false,
    transactional: s.transactional,
    persistent: s.persistent,
    bounded: s.bounded,
    secured: s.secured,
    indexed: s.indexed,
    has_remote_backup: s.hasRemoteBackup,
    health: cacheHealthOf(h),
    rebalancing_enabled: rebalancing,
  };
}

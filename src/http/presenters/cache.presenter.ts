import type { EngineNode, KeyOwners } from '../../services';
import type { CacheView, NodeInfo, StatsSnapshot } from '../../services';
import type { CacheDistribution, CacheStatistics, MutableAttributeView } from '../../services/cache.service';
import { cacheHealthOf } from '../../services/container.service';
import { storageTypes } from '../../services/storage-types';

/** Mean read, write and remove times in ms and ns (0 before the first operation), cache and container alike. */
export function averageTimes(st: StatsSnapshot): Record<string, number> {
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

/** What a cache's stats are made of: its counts, read just before, and its statistics. */
export interface CacheFigures {
  size: number;
  inMemory: number;
  statistics: CacheStatistics;
}

/**
 * The stats object of docs/reference/management-plane.md#cache-stats, in the original's field order
 * (`total_number_of_entries` of 14/15 kept after the in-memory count); -1 everywhere when statistics
 * are off. One node holds every entry, so the approximate counts are the exact ones.
 */
export function presentCacheStats(cache: CacheView, { size, inMemory, statistics: st }: CacheFigures, now: number): Record<string, number> {
  const on = cache.settings.statistics;
  const v = (n: number) => (on ? n : -1);
  const averages = Object.fromEntries(Object.entries(averageTimes(st)).map(([k, n]) => [k, v(n)]));
  return {
    time_since_start: v(Math.floor((now - st.startedAt) / 1000)),
    time_since_reset: v(Math.floor((now - st.resetAt) / 1000)),
    approximate_entries: v(size),
    approximate_entries_in_memory: v(inMemory),
    approximate_entries_unique: v(size),
    current_number_of_entries: v(size),
    current_number_of_entries_in_memory: v(inMemory),
    total_number_of_entries: v(st.stores),
    off_heap_memory_used: v(0),
    data_memory_used: v(st.dataMemoryUsed),
    stores: v(st.stores),
    retrievals: v(st.retrievals),
    hits: v(st.hits),
    misses: v(st.misses),
    remove_hits: v(st.removeHits),
    remove_misses: v(st.removeMisses),
    evictions: v(st.evictions),
    ...averages,
    required_minimum_number_of_nodes: v(1),
  };
}

/**
 * How the details' `stats` combine the nodes' stats objects, field by field, as the original's
 * cluster-wide cache statistics do (docs/reference/management-plane.md#cache-details): counters
 * summed, average times and off-heap memory the mean of the nodes' values (rounded down), the time
 * since start and the nodes needed the largest. The entry counts are the cache's, counted once on
 * any node (the entries live in the cluster), and the time since reset is this node's.
 */
const COMBINED: Record<string, (values: number[]) => number> = Object.fromEntries([
  ...['total_number_of_entries', 'data_memory_used', 'stores', 'retrievals', 'hits', 'misses', 'remove_hits', 'remove_misses', 'evictions']
    .map((f) => [f, (vs: number[]) => vs.reduce((a, b) => a + b, 0)]),
  ...['average_read_time', 'average_read_time_nanos', 'average_write_time', 'average_write_time_nanos', 'average_remove_time', 'average_remove_time_nanos', 'off_heap_memory_used']
    .map((f) => [f, (vs: number[]) => Math.floor(vs.reduce((a, b) => a + b, 0) / vs.length)]),
  ...['time_since_start', 'required_minimum_number_of_nodes'].map((f) => [f, (vs: number[]) => Math.max(...vs)]),
]);

/**
 * The details' `stats`: this node's figures combined with each other node's `others` (the same
 * cache's statistics there); this node's alone on one node, or with statistics off (-1 throughout).
 */
export function presentClusterCacheStats(cache: CacheView, figures: CacheFigures, others: readonly CacheStatistics[], now: number): Record<string, number> {
  const own = presentCacheStats(cache, figures, now);
  if (!cache.settings.statistics || others.length === 0) return own;
  const theirs = others.map((statistics) => presentCacheStats(cache, { ...figures, statistics }, now));
  return Object.fromEntries(Object.entries(own).map(([field, value]) => {
    const combine = COMBINED[field];
    return [field, combine ? combine([value, ...theirs.map((t) => t[field])]) : value];
  }));
}

/** Both switches must be on: the container's and the cache's own (docs/reference/management-plane.md#cache-rebalancing). */
function rebalancingOf(cache: CacheView, containerRebalancing: boolean): Record<string, unknown> {
  return { rebalancing_enabled: containerRebalancing && cache.rebalancing, rebalancing_requested: 0, rebalancing_inflight: 0 };
}

/** The fields listing and details share, in the original's order (CacheResourceV2.CacheInfo). */
function presentCacheInfo(cache: CacheView, status: string): Record<string, unknown> {
  const s = cache.settings;
  return {
    status,
    name: cache.name,
    type: s.kind,
    simple_cache: s.simpleCache,
    transactional: s.transactional,
    persistent: s.persistent,
    bounded: s.bounded,
    secured: s.secured,
    indexed: s.indexed,
    has_remote_backup: s.hasRemoteBackup,
  };
}

/**
 * GET /caches/{name} (docs/reference/management-plane.md#cache-details); configuration and sizing only for ADMIN callers;
 * `others`: the cache's statistics on the other nodes of the cluster.
 * `tracing` needs the server's tracing too, which grid does not have: always false here.
 */
export function presentCacheDetails(cache: CacheView, figures: CacheFigures, others: readonly CacheStatistics[], now: number, admin: boolean, configuration: unknown,
  containerRebalancing: boolean): Record<string, unknown> {
  const s = cache.settings;
  const storage = storageTypes(cache);
  const details: Record<string, unknown> = {
    ...presentCacheInfo(cache, 'RUNNING'),
    tracing: false,
    health: null,
    aliases: s.aliases,
    statistics: s.statistics,
    key_storage: storage.key.raw,
    value_storage: storage.value.raw,
    mode: s.cacheMode,
    stats: presentClusterCacheStats(cache, figures, others, now),
    size: figures.size,
    rehash_in_progress: false,
    indexing_in_progress: false,
    queryable: isQueryable(storage.value.raw),
    ...rebalancingOf(cache, containerRebalancing),
  };
  if (admin) {
    details.configuration = configuration;
    details.storage_type = s.storageType;
    details.max_size = s.maxSize ?? '';
    details.max_size_bytes = s.maxSizeBytes;
  }
  return details;
}

/** Protostream and Java-object values can be queried (the original's isCacheQueryable). */
function isQueryable(valueStorage: string): boolean {
  const essence = valueStorage.split(';')[0].trim().toLowerCase();
  return essence === 'application/x-protostream' || essence === 'application/x-java-object';
}

/**
 * One item of `?action=detailed` and `/cache-managers/{n}/caches` (docs/reference/management-plane.md#cache-listing): as the
 * original, `statistics` is always false and `key_storage`, `value_storage`, `mode` always null in
 * a listing; `tracing` is the cache's own switch (on unless the configuration turns it off).
 */
export function presentCacheListItem(cache: CacheView, ignored: boolean, containerRebalancing: boolean): Record<string, unknown> {
  return {
    ...presentCacheInfo(cache, ignored ? 'IGNORED' : 'RUNNING'),
    tracing: cache.settings.tracing,
    health: cacheHealthOf(cache),
    aliases: cache.settings.aliases,
    statistics: false,
    key_storage: null,
    value_storage: null,
    mode: null,
    ...rebalancingOf(cache, containerRebalancing),
  };
}

/** `?action=get-mutable-attributes`: the names, or with `full=true` each `{value, type}`. */
export function presentMutableAttributes(attributes: MutableAttributeView[], full: boolean): unknown {
  if (!full) return attributes.map((a) => a.name);
  return Object.fromEntries(attributes.map((a) => [a.name, { value: a.value, type: a.type }]));
}

/** `GET /caches/{c}?action=distribution`: one item per node (docs/reference/management-plane.md#cache-distribution); an engine node is named by its address. */
export function presentCacheDistribution(node: NodeInfo, rows: CacheDistribution[]): Array<Record<string, unknown>> {
  return rows.map((d) => ({
    node_name: d.node?.address ?? node.name, node_addresses: [d.node?.address ?? node.address],
    memory_entries: d.memoryEntries, total_entries: d.totalEntries, memory_used: d.memoryUsed,
  }));
}

/**
 * `GET /caches/{c}/{key}?action=distribution` (docs/reference/data-plane.md#key-distribution): this
 * node owns every key it holds; engine nodes own a key whether it is held or not, the primary first
 * (`primary: true` while the key is held, as on one node).
 */
export function presentKeyDistribution(node: NodeInfo, containsKey: boolean, owners: KeyOwners | undefined): Record<string, unknown> {
  if (!owners) return { contains_key: containsKey, owners: [{ node_name: node.name, node_addresses: [node.address], primary: containsKey }] };
  const row = (n: EngineNode, primary: boolean) => ({ node_name: n.address, node_addresses: [n.address], primary });
  return { contains_key: containsKey, owners: [row(owners.primary, containsKey), ...owners.backups.map((b) => row(b, false))] };
}

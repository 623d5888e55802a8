import type { ClusterView, NodeInfo, Subject } from '../../services';
import type { ContainerService, ContainerStatistics } from '../../services/container.service';
import { CONFIG_NAMESPACE } from '../../model/cache-config';
import { escapeXml } from '../xml-escape';
import { averageTimes } from './cache.presenter';

/**
 * GET /container (docs/reference/management-plane.md#container-info): the members are the live
 * grid nodes (docs/scale-out.md, "Membership"; this node alone on SQLite); caches the caller holds
 * no permission on are neither listed nor counted.
 */
export function presentContainerInfo(c: ContainerService, node: NodeInfo, cluster: ClusterView, version: string, subject: Subject): Record<string, unknown> {
  const visible = c.visibleCaches(subject);
  const user = visible.filter((v) => !v.internal);
  const coordinator = cluster.members[0].name;
  return {
    version,
    name: c.name,
    coordinator: coordinator === node.name,
    cache_configuration_names: c.configurationNames(subject),
    cluster_name: cluster.name,
    physical_addresses: `[${node.address}]`,
    coordinator_address: coordinator,
    cache_manager_status: c.status,
    created_cache_count: user.length,
    running_cache_count: c.stopped ? 0 : user.length,
    node_address: node.name,
    cluster_members: cluster.members.map((m) => m.name),
    cluster_members_physical_addresses: cluster.members.map((m) => m.address),
    cluster_size: cluster.members.length,
    defined_caches: visible.map((v) => ({ name: v.name, started: !c.stopped })),
    local_site: 'local',
    relay_node: false,
    relay_nodes_address: [node.name], // no sites: this node
    sites_view: [],
    rebalancing_enabled: c.rebalancingEnabled,
    tracing_enabled: false,
  };
}

/**
 * GET /container/health: the live grid nodes on the redis engine; on SQLite standalone, as the
 * original reports it (no transport: 0 nodes); only the caller's caches.
 */
export function presentHealth(c: ContainerService, cluster: ClusterView, subject: Subject): Record<string, unknown> {
  const nodes = cluster.clustered ? cluster.members.map((m) => m.name) : [];
  return {
    cluster_health: { cluster_name: cluster.name, health_status: c.clusterHealth(), number_of_nodes: nodes.length, node_names: nodes },
    cache_health: c.cacheHealth(subject),
  };
}

/** GET /container/stats: the 15.x field list, counted by the engine since the last container reset. */
export function presentContainerStats(st: ContainerStatistics, now: number): Record<string, unknown> {
  const reads = st.retrievals;
  return {
    statistics_enabled: true,
    number_of_entries: st.entries,
    hit_ratio: reads ? st.hits / reads : 0,
    read_write_ratio: st.stores ? reads / st.stores : 0,
    time_since_start: Math.floor((now - st.startedAt) / 1000),
    time_since_reset: Math.floor((now - st.resetAt) / 1000),
    current_number_of_entries: st.entries,
    current_number_of_entries_in_memory: st.entriesInMemory,
    off_heap_memory_used: 0,
    data_memory_used: st.dataMemoryUsed,
    stores: st.stores,
    retrievals: reads,
    hits: st.hits,
    misses: st.misses,
    remove_hits: st.removeHits,
    remove_misses: st.removeMisses,
    evictions: st.evictions,
    ...averageTimes(st),
    required_minimum_number_of_nodes: 1,
  };
}

/** The global configuration (docs/reference/management-plane.md#container-config): the container element and an empty caches map. */
export function containerConfigJson(name: string, dataDir: string): Record<string, unknown> {
  return {
    infinispan: {
      'cache-container': {
        name,
        statistics: 'true',
        'global-state': { 'persistent-location': { path: dataDir } },
        security: { authorization: {} },
        caches: {},
      },
    },
  };
}

export function containerConfigXml(name: string, dataDir: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<infinispan xmlns="${CONFIG_NAMESPACE}">` +
    `<cache-container name="${escapeXml(name)}" statistics="true">` +
    `<global-state><persistent-location path="${escapeXml(dataDir)}"/></global-state>` +
    '<security><authorization/></security></cache-container></infinispan>';
}

import type { ClusterView, Services } from '../../services';
import { sendJson, sendStatus, sendText } from '../respond';
import { queryAll } from '../params';
import { json, MEDIA, param, typed } from '../route-doc';
import type { GridContext, RouteSpec } from '../route-spec';

const SERVER = param('server', 'Stop only the node of this name (repeatable); none: every node', { repeated: true });

/** `/rest/v2/cluster…` (docs/reference/management-plane.md#cluster), the root probes `/health/live|ready` and `/metrics` (docs/reference/management-plane.md#health-probes). */
export function clusterRoutes(): RouteSpec[] {
  const probe = (path: string, ready: (s: Services) => boolean, summary: string): RouteSpec[] => (['GET', 'HEAD'] as const).map((method) => ({
    method, path, permission: 'AUTHENTICATED', anonymous: true, handle: (ctx: GridContext, s: Services) => sendStatus(ctx, ready(s) ? 200 : 503),
    doc: { summary, responses: { 200: 'Yes', 503: 'No' } },
  }));
  return [
    { method: 'GET', path: '/rest/v2/cluster/members', permission: 'ADMIN', handle: async (ctx, s) => sendJson(ctx, members(await s.cluster.view(), s)),
      doc: { summary: 'The live grid nodes of the cluster, the coordinator first', responses: { 200: json('{members: [{version, node_address, physical_addresses, cache_manager_status}], rolling_upgrade}') } } },
    { method: 'GET', path: '/rest/v2/cluster', action: 'distribution', permission: 'MONITOR', handle: async (ctx, s) => sendJson(ctx, distribution(await s.cluster.view())),
      doc: { summary: 'Memory per live grid node', responses: { 200: json('[{node_name, node_addresses, memory_available, memory_used}]') } } },
    { method: 'POST', path: '/rest/v2/cluster', action: 'stop', permission: 'LIFECYCLE', handle: (ctx, s) => stop(ctx, s),
      doc: { summary: 'Stop every grid node of the cluster, or the named ones', query: [SERVER], responses: { 204: 'Stopping', 404: 'A name no live node carries: nothing stopped' } } },
    // GET and OPTIONS, on /metrics and any path below it, all scrape the same registry (as the original)
    ...(['/metrics', '/metrics/*sub'] as const).flatMap((path) => (['GET', 'OPTIONS'] as const).map((method): RouteSpec => ({
      method, path, permission: 'AUTHENTICATED', anonymous: true, handle: (ctx, s) => metrics(ctx, s),
      doc: { summary: 'Metrics in the Prometheus/OpenMetrics text format', responses: { 200: typed('The metrics', MEDIA.text, 'application/openmetrics-text') } },
    }))),
    ...probe('/health/live', () => true, 'Liveness probe: is the process up?'),
    ...probe('/health/ready', (s) => !s.container.stopped, 'Readiness probe: does the container serve requests?'),
  ];
}

async function metrics(ctx: GridContext, s: Services): Promise<void> {
  const { contentType, body } = await s.metrics.text();
  sendText(ctx, body, contentType);
}

/** Each live node (docs/scale-out.md, "Membership"); this node's status is that of the container the request reached. */
function members(cluster: ClusterView, s: Services): Record<string, unknown> {
  return {
    members: cluster.members.map((m) => ({
      version: m.version, node_address: m.name, physical_addresses: `[${m.address}]`, cache_manager_status: m.name === cluster.self ? s.container.status : m.status,
    })),
    rolling_upgrade: new Set(cluster.members.map((m) => m.version)).size > 1,
  };
}

/** Heap in use and free per live node: this node's now, another's at its last heartbeat (docs/scale-out.md, "Membership"). */
function distribution(cluster: ClusterView): Array<Record<string, unknown>> {
  return cluster.members.map((m) => ({ node_name: m.name, node_addresses: [m.address], memory_available: m.memoryAvailable, memory_used: m.memoryUsed }));
}

/**
 * The named nodes, or all, are told to stop; this node, when among them, stops once its 204 is on
 * its way (docs/reference/management-plane.md#cluster, docs/scale-out.md "Cluster-wide operations").
 */
async function stop(ctx: GridContext, s: Services): Promise<void> {
  const stopsHere = await s.cluster.stop(queryAll(ctx, 'server'));
  sendStatus(ctx, 204);
  if (stopsHere) ctx.res.once('finish', () => s.server.requestStop());
}

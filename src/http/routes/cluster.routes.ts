import type { Services } from '../../services';
import { sendJson, sendStatus, sendText } from '../respond';
import { queryAll } from '../params';
import type { GridContext, RouteSpec } from '../route-spec';

/** `/rest/v2/cluster…` (behavior-notes §12), the root probes `/health/live|ready` and `/metrics` (§17). */
export function clusterRoutes(): RouteSpec[] {
  const probe = (path: string, ready: (s: Services) => boolean): RouteSpec[] => (['GET', 'HEAD'] as const).map((method) => ({
    method, path, permission: 'AUTHENTICATED', anonymous: true, handle: (ctx: GridContext, s: Services) => sendStatus(ctx, ready(s) ? 200 : 503),
  }));
  return [
    { method: 'GET', path: '/rest/v2/cluster/members', permission: 'ADMIN', handle: (ctx, s) => sendJson(ctx, members(s)) },
    { method: 'GET', path: '/rest/v2/cluster', action: 'distribution', permission: 'MONITOR', handle: (ctx, s) => sendJson(ctx, [distribution(s)]) },
    { method: 'POST', path: '/rest/v2/cluster', action: 'stop', permission: 'LIFECYCLE', handle: (ctx, s) => stop(ctx, s) },
    { method: 'GET', path: '/metrics', permission: 'AUTHENTICATED', anonymous: true, handle: (ctx, s) => metrics(ctx, s) },
    ...probe('/health/live', () => true),
    ...probe('/health/ready', (s) => !s.container.stopped),
  ];
}

async function metrics(ctx: GridContext, s: Services): Promise<void> {
  const { contentType, body } = await s.metrics.text();
  sendText(ctx, body, contentType);
}

function members(s: Services): Record<string, unknown> {
  return {
    members: [{ version: s.version, node_address: s.node.name, physical_addresses: `[${s.node.address}]`, cache_manager_status: s.container.status }],
    rolling_upgrade: false,
  };
}

function distribution(s: Services): Record<string, unknown> {
  const mem = process.memoryUsage();
  return { node_name: s.node.name, node_addresses: [s.node.address], memory_available: mem.heapTotal - mem.heapUsed, memory_used: mem.heapUsed };
}

/** Stops this node when no `server` is named or when it is one of them (behavior-notes §12). */
function stop(ctx: GridContext, s: Services): void {
  const servers = queryAll(ctx, 'server');
  sendStatus(ctx, 204);
  if (servers.length === 0 || servers.includes(s.node.name)) ctx.res.once('finish', () => s.server.requestStop());
}

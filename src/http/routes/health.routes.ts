import type { Services } from '../../services';
import { sendText } from '../respond';
import { text } from '../route-doc';
import type { RouteSpec } from '../route-spec';

/**
 * The anonymous health probe (docs/reference/management-plane.md#container-health): the rest of the container resource belongs to
 * the management-plane issue.
 */
export function healthRoutes(): RouteSpec[] {
  // after a container shutdown the probe keeps answering 200, with an empty body (docs/reference/management-plane.md#container-health)
  const status = (s: Services) => (s.container.stopped ? '' : s.container.clusterHealth());
  return ['/rest/v2/container/health/status', '/rest/v2/cache-managers/:manager/health/status'].flatMap((path): RouteSpec[] => {
    const doc = { summary: 'Cluster health, for probes', responses: { 200: text('HEALTHY, HEALTHY_REBALANCING or DEGRADED; empty after a shutdown') }, deprecated: path.includes('/cache-managers/') };
    return [
      { method: 'GET', path, permission: 'AUTHENTICATED', anonymous: true, handle: (ctx, s) => sendText(ctx, status(s)), doc },
      { method: 'HEAD', path, permission: 'AUTHENTICATED', anonymous: true, handle: (ctx, s) => sendText(ctx, status(s)), doc },
    ];
  });
}

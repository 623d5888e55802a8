import type { Services } from '../../services';
import type { RouteSpec } from '../route-spec';

/** `…/backups` and `…/restores` under /container, /cache-managers/{name} and /cluster (spec 2). */
export function backupRoutes(s: Services): RouteSpec[] {
  void s;
  return [];
}

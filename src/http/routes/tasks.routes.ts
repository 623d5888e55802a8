import type { Services } from '../../services';
import type { RouteSpec } from '../route-spec';

/** `/rest/v2/tasks…` (spec 2 "Server tasks", behavior-notes §14). */
export function taskRoutes(s: Services): RouteSpec[] {
  void s;
  return [];
}

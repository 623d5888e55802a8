import type { Services } from '../../services';
import type { RouteSpec } from '../route-spec';

/** `/rest/v2/schemas…` (spec 1 "Protobuf schemas", behavior-notes §7). */
export function schemaRoutes(s: Services): RouteSpec[] {
  void s;
  return [];
}

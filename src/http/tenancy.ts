import { tenantNameProblem } from '../config/tenants';
import { ApiVersionNotServedError, ResourceNotFoundError } from '../errors';
import type { Services } from '../services';
import type { RouteMatch, Router } from './router';

/** The container a request reaches and the row it matched. */
export interface TenantTarget extends RouteMatch {
  services: Services;
  /** The tenant's name; undefined for the default container. */
  tenant?: string;
  /**
   * The path reads as a container's row under a segment that names no tenant (and as nothing
   * else): it is answered as a tenant's row is to a caller without that tenant's credentials.
   */
  unknownTenant?: true;
}

// `/rest/<segment>` then the rest, if any (empty segments are dropped later by the router)
const TENANT_PATH = /^\/+rest\/+([^/]+)(\/.*)?$/;

type Attempt = RouteMatch | { error: unknown };

/**
 * The tenancy step and the route match (docs/configuration.md, Tenants), as the original's
 * multi-tenant REST router does it: the segment after `/rest/` names a tenant and the rest of the
 * path is one of a container's rows → that tenant's container, with the segment taken out of the
 * path; anything else → the default container, path unchanged (so `/rest/t9/k` is read by the v1
 * rules, `/rest/<cache>/<key>`). The segment is compared as sent, case included.
 *
 * A caller without credentials must not tell a tenant's name from any other (docs/security.md,
 * Tenants): a segment that could name a tenant but does not, followed by a container's row that
 * the default container does not have as it is written, is `unknownTenant` — asked for
 * credentials as a tenant would (app.ts), and 404 only to a caller who has some. Both kinds of
 * segment choose between the tenant reading and the plain reading by the same rule, so every
 * other answer (404, 405, 400, a v1 cache) is the same for both.
 */
export function routeToContainer(
  router: Router, method: string, path: string, action: string | undefined, defaults: Services, tenants: ReadonlyMap<string, Services>,
): TenantTarget {
  const m = TENANT_PATH.exec(path);
  // API versions past v2 are a literal segment, as v2 is: never a tenant, nor a v1 cache name
  if (m && /^v([3-9]|\d{2,})$/.test(m[1])) throw new ApiVersionNotServedError(m[1]);
  if (!m || tenantNameProblem(m[1]) !== undefined) return { services: defaults, ...router.match(method, path, action) };
  const asTenant = attempt(() => containerRow(router.match(method, `/rest${m[2] ?? ''}`, action)));
  const asIs = attempt(() => router.match(method, path, action));
  const services = tenants.get(m[1]);
  if (services && 'route' in asTenant) return { services, tenant: m[1], ...asTenant };
  if ('route' in asIs) return { services: defaults, ...asIs };
  if (!services && 'route' in asTenant) return { services: defaults, ...asTenant, unknownTenant: true };
  // neither reading matches: a tenant row's 405 or 400 says more than "not found"
  throw 'error' in asTenant && !(asTenant.error instanceof ResourceNotFoundError) ? asTenant.error : asIs.error;
}

/** Only a container's rows are reached under a tenant: `/rest/t1/v2/server` is as unknown as `/rest/v2/nothing`. */
function containerRow(match: RouteMatch): RouteMatch {
  if (!match.route.perContainer) throw new ResourceNotFoundError();
  return match;
}

function attempt(match: () => RouteMatch): Attempt {
  try {
    return match();
  } catch (error) {
    return { error };
  }
}

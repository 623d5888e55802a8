import type { Services } from '../services';

/** The container a request reaches and the path the route table sees. */
export interface TenantTarget {
  services: Services;
  /** The path with the tenant segment taken out: `/rest/t1/v2/caches` → `/rest/v2/caches`. */
  path: string;
  /** The tenant's name; undefined for the default container. */
  tenant?: string;
}

// `/rest/<segment>` then the rest, if any (empty segments are dropped later by the router)
const TENANT_PATH = /^\/+rest\/+([^/]+)(\/.*)?$/;

/**
 * The tenancy step (docs/configuration.md, Tenants), as the original's multi-tenant REST router does it: the
 * segment after `/rest/` names a tenant → that tenant's container, with the segment taken out of
 * the path; anything else → the default container, path unchanged (so an unknown segment is read
 * by the v1 rules, `/rest/<cache>/<key>`). The segment is compared as sent, case included.
 */
export function resolveTenant(path: string, defaults: Services, tenants: ReadonlyMap<string, Services>): TenantTarget {
  if (tenants.size === 0) return { services: defaults, path };
  const m = TENANT_PATH.exec(path);
  const services = m ? tenants.get(m[1]) : undefined;
  if (!m || !services) return { services: defaults, path };
  return { services, path: `/rest${m[2] ?? ''}`, tenant: m[1] };
}

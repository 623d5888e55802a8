import { CacheNotFoundError, PermissionDeniedError } from '../../errors';
import { hasPermission, type Permission } from '../../model/security/permissions';
import { ANONYMOUS_ADMIN, type Subject } from './auth.service';
import { PROTOBUF_METADATA } from '../protobuf-metadata';
import type { CacheView } from '../cache-view';

/** What a route table row asks of its caller: a permission, or only to be authenticated. */
export type RoutePermission = Permission | 'AUTHENTICATED';

/**
 * The caller's permissions on a cache: a cache with `security.authorization` only grants what the
 * caller's roles that the cache lists grant (all roles when it lists none); others use the global
 * permissions (docs/reference/http.md#authorization). With authentication off nothing is restricted.
 */
export function cacheMask(subject: Subject, cache: CacheView): number {
  return settingsMask(subject, cache.settings);
}

/** What a cache's security settings grant the caller: `cacheMask` for a cache as it was defined at one time (a configuration event). */
export function settingsMask(subject: Subject, s: { readonly secured: boolean; readonly roles: readonly string[] }): number {
  if (!s.secured || subject === ANONYMOUS_ADMIN) return subject.mask;
  return subject.roles.filter((r) => s.roles.length === 0 || s.roles.includes(r)).reduce((m, r) => m | (subject.roleMasks[r] ?? 0), 0);
}

/** Listings, names and health show only caches the caller holds at least one permission on. */
export function canAccess(subject: Subject, cache: CacheView): boolean {
  return cacheMask(subject, cache) !== 0;
}

export function canAdminister(subject: Subject, cache: CacheView): boolean {
  return hasPermission(cacheMask(subject, cache), 'ADMIN');
}

/**
 * The permissions a row's permission stands for on a cache. Writes through `___protobuf_metadata`
 * are schema changes, so they also need CREATE, as `/rest/v2/schemas` does: whichever path writes
 * a schema, the same permission applies.
 */
export function permissionsFor(permission: Permission, cache: CacheView | undefined): Permission[] {
  const schemaWrite = cache?.internal && cache.name === PROTOBUF_METADATA && (permission === 'WRITE' || permission === 'BULK_WRITE');
  return schemaWrite ? [permission, 'CREATE'] : [permission];
}

/**
 * Authorizes one request against its route row: with `cache` (the existing cache the request names)
 * the cache's own permissions decide, whatever the operation — create, update, delete, entries,
 * configuration — otherwise the global ones. A cache the caller holds no permission on is, for a
 * row that only asks for authentication (`HEAD /caches/{name}`), as if it did not exist.
 */
export function authorize(subject: Subject, permission: RoutePermission, cache: CacheView | undefined): void {
  if (permission === 'AUTHENTICATED') {
    if (cache && !canAccess(subject, cache)) throw new CacheNotFoundError(cache.name);
    return;
  }
  const mask = cache ? cacheMask(subject, cache) : subject.mask;
  for (const p of permissionsFor(permission, cache)) requirePermission(subject, mask, p);
}

/** 403 ISPN000287 naming the subject and the permission only, never the roles a cache accepts. */
export function requirePermission(subject: Subject, mask: number, permission: Permission): void {
  if (!hasPermission(mask, permission)) throw new PermissionDeniedError(subject.name, permission);
}

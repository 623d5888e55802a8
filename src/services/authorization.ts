import { PermissionDeniedError } from '../errors';
import type { CacheHandle } from '../grid/cache-manager';
import { hasPermission, type Permission } from '../model/permissions';
import type { Subject } from './auth.service';

/**
 * The caller's permissions on a cache: a cache with `security.authorization` only grants what the
 * caller's roles that the cache lists grant (all roles when it lists none); others use the global
 * permissions (behavior-notes §2.2).
 */
export function cacheMask(subject: Subject, h: CacheHandle): number {
  const s = h.cache.settings;
  if (!s.secured) return subject.mask;
  return subject.roles.filter((r) => s.roles.length === 0 || s.roles.includes(r)).reduce((m, r) => m | (subject.roleMasks[r] ?? 0), 0);
}

export function requirePermission(subject: Subject, mask: number, permission: Permission): void {
  if (!hasPermission(mask, permission)) throw new PermissionDeniedError(subject.name, permission);
}

/** Listings show only caches the caller holds at least one permission on. */
export function canAccess(subject: Subject, h: CacheHandle): boolean {
  return cacheMask(subject, h) !== 0;
}

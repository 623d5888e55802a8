import { InvalidFlagError } from '../errors';

/**
 * The core `Flag`s an entry operation applies, as bits of one number (0 = none), so that a request
 * without the `flags` header costs nothing and the flags travel route → service → cache as a plain
 * argument. The original applies the header with `AdvancedCache.withFlags` (RestCacheManager.getCache).
 */
export type OpFlags = number;

export const NO_FLAGS: OpFlags = 0;
/** Writes and removals change memory only; the persistent store keeps what it had. */
export const SKIP_CACHE_STORE: OpFlags = 1;
/** Reads (and the lookups of writes and removals) see memory only, never the store. */
export const SKIP_CACHE_LOAD: OpFlags = 2;
/** The operation is not counted in the cache's or the container's statistics. */
export const SKIP_STATISTICS: OpFlags = 4;
/** Entry listeners (`?action=listen`) hear nothing of the operation. */
export const SKIP_LISTENER_NOTIFICATION: OpFlags = 8;
/** A write leaves the cache's index as it was (queries go on finding what they found). */
export const SKIP_INDEXING: OpFlags = 16;

/**
 * Core `Flag` names accepted on entry operations (docs/reference/data-plane.md#flags) and the bit each applies.
 * Bit 0: accepted and meaningless for one node without transactions, locks or shared stores
 * (docs/compatibility.md, "Entry flags").
 */
const ENTRY_FLAGS = new Map<string, OpFlags>([
  ['SKIP_CACHE_STORE', SKIP_CACHE_STORE], ['SKIP_CACHE_LOAD', SKIP_CACHE_LOAD],
  ['SKIP_STATISTICS', SKIP_STATISTICS], ['SKIP_LISTENER_NOTIFICATION', SKIP_LISTENER_NOTIFICATION], ['SKIP_INDEXING', SKIP_INDEXING],
  ...[
    'ZERO_LOCK_ACQUISITION_TIMEOUT', 'CACHE_MODE_LOCAL', 'SKIP_LOCKING', 'FORCE_WRITE_LOCK', 'FORCE_ASYNCHRONOUS',
    'FORCE_SYNCHRONOUS', 'FAIL_SILENTLY', 'SKIP_REMOTE_LOOKUP', 'PUT_FOR_EXTERNAL_READ',
    'PUT_FOR_STATE_TRANSFER', 'PUT_FOR_X_SITE_STATE_TRANSFER', 'SKIP_SHARED_CACHE_STORE', 'SKIP_OWNERSHIP_CHECK',
    'IGNORE_RETURN_VALUES', 'SKIP_XSITE_BACKUP', 'SKIP_INDEX_CLEANUP', 'COMMAND_RETRY', 'ROLLING_UPGRADE',
    'REMOTE_ITERATION', 'SKIP_SIZE_OPTIMIZATION', 'IGNORE_TRANSACTION', 'IRAC_UPDATE', 'IRAC_STATE', 'ALREADY_HAS_LOCK',
    'BACKUP_WRITE',
  ].map((name): [string, OpFlags] => [name, NO_FLAGS]),
]);

/** The original's `CacheContainerAdmin.AdminFlag`s, sent on cache create/update. */
export type AdminFlag = 'VOLATILE' | 'UPDATE';
const ADMIN_FLAGS: ReadonlySet<string> = new Set<AdminFlag>(['VOLATILE', 'UPDATE']);

const NONE: ReadonlySet<AdminFlag> = new Set();

/**
 * The `flags` header of an entry operation: comma-separated, case-sensitive, no trimming, empty
 * entries dropped, as the original parses them; an unknown name is 400
 * `No enum constant org.infinispan.context.Flag.<name>`.
 */
export function parseEntryFlags(header: string | undefined): OpFlags {
  if (header === undefined || header === '') return NO_FLAGS;
  let flags = NO_FLAGS;
  for (const name of header.split(',')) {
    if (name === '') continue;
    const bit = ENTRY_FLAGS.get(name);
    if (bit === undefined) throw new InvalidFlagError('org.infinispan.context.Flag', name);
    flags |= bit;
  }
  return flags;
}

/**
 * The `flags` header of a cache create or update: comma-separated, case-sensitive, no entry
 * dropped; an unknown name (the empty one too) is 400
 * `No enum constant org.infinispan.commons.api.CacheContainerAdmin.AdminFlag.<name>`.
 */
export function parseAdminFlags(header: string | undefined): ReadonlySet<AdminFlag> {
  if (header === undefined || header === '') return NONE;
  const out = new Set<AdminFlag>();
  for (const name of header.split(',')) {
    if (!ADMIN_FLAGS.has(name)) throw new InvalidFlagError('org.infinispan.commons.api.CacheContainerAdmin.AdminFlag', name);
    out.add(name as AdminFlag);
  }
  return out;
}

import { InvalidFlagError } from '../errors';

/** Core `Flag` names accepted on entry operations (behavior-notes §4.1). */
const ENTRY_FLAGS = new Set([
  'ZERO_LOCK_ACQUISITION_TIMEOUT', 'CACHE_MODE_LOCAL', 'SKIP_LOCKING', 'FORCE_WRITE_LOCK', 'FORCE_ASYNCHRONOUS',
  'FORCE_SYNCHRONOUS', 'SKIP_CACHE_STORE', 'SKIP_CACHE_LOAD', 'FAIL_SILENTLY', 'SKIP_REMOTE_LOOKUP', 'SKIP_INDEXING',
  'PUT_FOR_EXTERNAL_READ', 'PUT_FOR_STATE_TRANSFER', 'PUT_FOR_X_SITE_STATE_TRANSFER', 'SKIP_SHARED_CACHE_STORE',
  'SKIP_OWNERSHIP_CHECK', 'IGNORE_RETURN_VALUES', 'SKIP_XSITE_BACKUP', 'SKIP_LISTENER_NOTIFICATION', 'SKIP_STATISTICS',
  'SKIP_INDEX_CLEANUP', 'COMMAND_RETRY', 'ROLLING_UPGRADE', 'REMOTE_ITERATION', 'SKIP_SIZE_OPTIMIZATION',
  'IGNORE_TRANSACTION', 'IRAC_UPDATE', 'IRAC_STATE', 'ALREADY_HAS_LOCK', 'BACKUP_WRITE',
]);

/** Admin flags on cache create/update. */
const ADMIN_FLAGS = new Set(['VOLATILE', 'UPDATE']);

export type EntryFlag = string;

const NONE: ReadonlySet<string> = new Set();

function parse(header: string | undefined, allowed: Set<string>, enumName: string): ReadonlySet<string> {
  if (header === undefined || header === '') return NONE;
  const out = new Set<string>();
  for (const name of header.split(',')) {
    if (!allowed.has(name)) throw new InvalidFlagError(enumName, name);
    out.add(name);
  }
  return out;
}

/** Comma-separated, case-sensitive, no trimming, as the original parses them. */
export function parseEntryFlags(header: string | undefined): ReadonlySet<EntryFlag> {
  return parse(header, ENTRY_FLAGS, 'org.infinispan.context.Flag');
}

export function parseAdminFlags(header: string | undefined): ReadonlySet<string> {
  return parse(header, ADMIN_FLAGS, 'org.infinispan.commons.api.CacheContainerAdmin.AdminFlag');
}

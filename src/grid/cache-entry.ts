import type { Commit, StoredEntry } from '../store/store';

/**
 * An entry as the engine holds it: the stored fields (`created` is the time of the last write, as
 * the original resets it on every write) plus its ETag, computed once.
 */
export interface CacheEntry extends StoredEntry {
  etag: string;
}

export function isExpired(e: CacheEntry, now: number): boolean {
  return (e.lifespan >= 0 && e.created + e.lifespan <= now) || (e.maxIdle >= 0 && e.lastUsed + e.maxIdle <= now);
}

/** Mortal entries carry Last-Modified / Expires on reads (behavior-notes §5.3). */
export function isMortal(e: CacheEntry): boolean {
  return e.lifespan >= 0 || e.maxIdle >= 0;
}

/** Memory the entry accounts for against `memory.max-size` (key and value bytes plus a fixed overhead). */
export function entrySize(e: Pick<CacheEntry, 'key' | 'value'>): number {
  return e.key.length + e.value.length + ENTRY_OVERHEAD;
}

export const ENTRY_OVERHEAD = 64;

/** A write not yet committed to the store: an entry, or `null` for a removal. */
export interface Inflight {
  entry: CacheEntry | null;
  commit: Commit;
}

/** An entry as the store keeps it and backups archive it. Times are epoch ms, -1 = not set. */
export interface StoredEntry {
  key: Buffer;
  value: Buffer;
  /** Media type the value was written with, when the cache keeps it per entry. */
  valueType: string | null;
  created: number;
  lastUsed: number;
  /** ms, -1 = immortal */
  lifespan: number;
  /** ms, -1 = no idle limit */
  maxIdle: number;
}

/** Bytes an entry counts for, beyond its key and value, against `memory.max-size`. */
export const ENTRY_OVERHEAD = 64;

/**
 * What the entry weighs against `memory.max-size` (key and value bytes plus a fixed overhead): one
 * rule for both engines, the memory tier's and the redis engine's bounded scripts, so a max-size
 * means the same number of entries on either.
 */
export function entrySize(e: Pick<StoredEntry, 'key' | 'value'>): number {
  return e.key.length + e.value.length + ENTRY_OVERHEAD;
}

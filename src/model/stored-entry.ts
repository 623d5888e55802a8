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

import type { CacheSettings } from '../model/cache-config';
import { etagOf } from '../model/etag';
import { type OpFlags, SKIP_CACHE_LOAD } from '../model/flags';
import type { Clock } from '../util/clock';
import type { Commit, Store, StoredEntry } from '../store/store';
import { type CacheEntry, isExpired } from './cache-entry';
import type { CacheStats } from './cache-stats';
import type { IndexFeed } from './content-index';
import { InflightWrites } from './inflight-writes';
import { idOf, MemoryTier } from './memory-tier';

export interface EntryTiersDeps {
  store: Store;
  clock: Clock;
  /** Evictions are counted here. */
  stats: CacheStats;
  /** Told of entries that leave the cache by eviction and of moves between memory and the store. */
  index: IndexFeed;
}

function toEntry(row: StoredEntry): CacheEntry {
  return { key: row.key, value: row.value, valueType: row.valueType, created: row.created, lastUsed: row.lastUsed, lifespan: row.lifespan, maxIdle: row.maxIdle, etag: etagOf(row.value) };
}

function toStored(e: CacheEntry): StoredEntry {
  return { key: e.key, value: e.value, valueType: e.valueType, created: e.created, lastUsed: e.lastUsed, lifespan: e.lifespan, maxIdle: e.maxIdle };
}

/**
 * Where one cache's entries live: a memory tier (LRU when bounded) and, with `persistence`, the
 * store behind it. Write-through caches store every write; passivating caches store entries only
 * when they are evicted or at clean shutdown, and take an entry back into memory when it is read
 * (activation). Writes not yet committed are remembered (`InflightWrites`) so reads never go
 * around them to older store rows. What an entry means — expiry, max-idle, conditional writes,
 * events — is the `Cache`'s: these tiers keep and find entries, expired or not.
 */
export class EntryTiers {
  readonly memory: MemoryTier;
  readonly writes: InflightWrites;
  readonly store: Store;

  constructor(readonly cacheId: number, private settings: CacheSettings, private readonly deps: EntryTiersDeps) {
    this.store = deps.store;
    this.memory = new MemoryTier({ maxCount: settings.maxCount, maxSize: settings.maxSizeBytes });
    this.writes = new InflightWrites(deps.store, this.memory);
  }

  get persistent(): boolean {
    return this.settings.persistent;
  }

  get passivating(): boolean {
    return this.settings.persistent && this.settings.passivation;
  }

  /** Memory holds entries the store does not have (a cache without a store, or a passivating one): listings walk it first. */
  get memoryIsTruth(): boolean {
    return !this.settings.persistent || this.settings.passivation;
  }

  /** New settings of a compatible update: memory limits may evict at once. */
  reconfigure(settings: CacheSettings): void {
    this.settings = settings;
    this.afterEviction(this.memory.setLimits({ maxCount: settings.maxCount, maxSize: settings.maxSizeBytes }));
  }

  /**
   * The key's entry from the store, for a key memory does not hold (a pending write's entry
   * first); a live entry is brought into memory. SKIP_CACHE_LOAD: the store is not read.
   */
  load(id: string, key: Buffer, flags: OpFlags): CacheEntry | undefined {
    if ((flags & SKIP_CACHE_LOAD) !== 0 || !this.settings.persistent) return undefined;
    const pending = this.writes.get(id);
    if (pending) return pending.entry ?? undefined;
    if (this.writes.clearPending) return undefined;
    const row = this.store.entries.find(this.cacheId, key);
    if (!row) return undefined;
    const e = toEntry(row);
    if (isExpired(e, this.deps.clock.now())) return e;
    if (this.settings.passivation) {
      // activation: the entry lives in memory again, the store copy goes
      this.writes.write(id, { kind: 'entry.delete', cacheId: this.cacheId, key }, e);
      this.deps.index.apply({ kind: 'activate', key });
    }
    this.afterEviction(this.memory.set(id, e));
    return e;
  }

  /** The key's entry wherever it is, an entry only the store holds left there (not brought into memory). */
  find(id: string, key: Buffer): CacheEntry | undefined {
    const held = this.memory.peek(id);
    if (held || !this.settings.persistent) return held;
    const pending = this.writes.get(id);
    if (pending) return pending.entry ?? undefined;
    if (this.writes.clearPending) return undefined;
    const row = this.store.entries.find(this.cacheId, key);
    return row && toEntry(row);
  }

  /** `find` for a batch of keys: those only the store holds are read with one query. */
  findMany(keys: Buffer[]): Array<CacheEntry | undefined> {
    const found: Array<CacheEntry | undefined> = keys.map((key) => {
      const id = idOf(key);
      return this.memory.peek(id) ?? (this.writes.has(id) ? this.writes.get(id)!.entry ?? undefined : undefined);
    });
    const fromStore = this.settings.persistent && !this.writes.clearPending
      ? keys.filter((key, i) => !found[i] && !this.writes.has(idOf(key)))
      : [];
    if (fromStore.length) {
      const rows = new Map(this.store.entries.findMany(this.cacheId, fromStore).map((r) => [idOf(r.key), r]));
      keys.forEach((key, i) => {
        const row = !found[i] && rows.get(idOf(key));
        if (row) found[i] = toEntry(row);
      });
    }
    return found;
  }

  /**
   * Keeps a written entry: in memory, and in the store when `toStore` — a write-through cache
   * stores it, a passivating one deletes a passivated older version (which must not come back on
   * restart or be counted twice). The commit to await, if the store was written.
   */
  put(id: string, entry: CacheEntry, toStore: boolean): Commit | undefined {
    let commit: Commit | undefined;
    if (toStore) {
      if (!this.settings.passivation) {
        commit = this.writes.write(id, { kind: 'entry.upsert', cacheId: this.cacheId, entry: toStored(entry) }, entry);
      } else if (this.store.entries.find(this.cacheId, entry.key)) {
        commit = this.writes.write(id, { kind: 'entry.delete', cacheId: this.cacheId, key: entry.key }, entry);
      }
    }
    this.afterEviction(this.memory.set(id, entry));
    return commit;
  }

  /** Keeps a restored entry: in memory, and in the store of a write-through cache. */
  restore(id: string, entry: CacheEntry): Commit | undefined {
    let commit: Commit | undefined;
    if (this.settings.persistent && !this.settings.passivation) {
      commit = this.writes.write(id, { kind: 'entry.upsert', cacheId: this.cacheId, entry: toStored(entry) }, entry);
    }
    this.afterEviction(this.memory.set(id, entry));
    return commit;
  }

  /** Deletes the key's store row (memory is the caller's to change). */
  deleteStored(id: string, key: Buffer): Commit {
    return this.writes.write(id, { kind: 'entry.delete', cacheId: this.cacheId, key }, null);
  }

  /** Memory emptied, pending writes forgotten: the first half of a clear (the index is told in between). */
  clearMemory(): void {
    this.memory.clear();
    this.writes.forgetAll();
  }

  /** The store's rows deleted (persistent caches): the second half of a clear. */
  clearStore(): Commit | undefined {
    if (!this.settings.persistent) return undefined;
    return this.writes.writeClear({ kind: 'entry.clear', cacheId: this.cacheId });
  }

  /** Keys of up to `limit` store rows expired at `now` by their stored times, soonest expired first. */
  expiredStoreKeys(now: number, limit: number): Buffer[] {
    return this.store.entries.listExpiredKeys(this.cacheId, now, limit);
  }

  /** Deletes the store's rows expired at `now` in one statement, read by nobody. */
  purgeExpired(now: number): void {
    this.writes.writeUnkeyed({ kind: 'entry.purgeExpired', cacheId: this.cacheId, now });
  }

  /** Waits until every write made so far is durable. */
  async settled(): Promise<void> {
    const pending = this.store.pendingCommit;
    if (pending && this.settings.persistent) await pending.promise.catch(() => undefined);
  }

  /** Clean shutdown of a passivating cache: memory goes to the store. */
  passivateAll(): void {
    if (!this.passivating) return;
    for (const [id, e] of this.memory.entries()) this.passivate(id, e);
  }

  /** Whether only memory holds this key's entry (a passivating cache's entry not passivated). */
  heldOnlyInMemory(key: Buffer): boolean {
    return this.passivating && this.memory.peek(idOf(key)) !== undefined;
  }

  /** Entries memory evicted leave the cache, or, passivating, go to the store. */
  private afterEviction(evicted: CacheEntry[]): void {
    for (const e of evicted) {
      this.deps.stats.evicted();
      if (!this.settings.persistent) this.deps.index.apply({ kind: 'remove', key: e.key }); // the entry leaves the cache
      if (this.passivating) this.passivate(idOf(e.key), e);
    }
  }

  /** A passivating cache's entry goes to the store; its index document says so in the same commit. */
  private passivate(id: string, e: CacheEntry): void {
    this.writes.write(id, { kind: 'entry.upsert', cacheId: this.cacheId, entry: toStored(e) }, e);
    this.deps.index.apply({ kind: 'passivate', key: e.key });
  }
}

import { ContainerFullError } from '../errors';
import type { CacheSettings } from '../model/cache-config';
import { etagOf } from '../model/etag';
import type { Expiry } from '../model/expiration';
import { NO_FLAGS, type OpFlags, SKIP_CACHE_STORE, SKIP_INDEXING, SKIP_LISTENER_NOTIFICATION, SKIP_STATISTICS } from '../model/flags';
import type { Clock } from '../util/clock';
import { Listeners } from '../util/listeners';
import type { Commit, Store, StoredEntry } from '../store/store';
import { type CacheEntry, isExpired, type ScannedEntry } from './cache-entry';
import { CacheStats } from './cache-stats';
import { type ContentIndex, IndexFeed } from './content-index';
import type { EntryEvent } from './entry-events';
import { EntryListing } from './entry-listing';
import { EntryTiers } from './entry-tiers';
import { ExpiryReaper } from './expiry-reaper';
import { idOf, type MemoryTier } from './memory-tier';

export interface CacheDeps {
  store: Store;
  clock: Clock;
  /** The container's statistics, which every cache also reports to. */
  containerStats?: CacheStats;
}

/** The outcome of a write: the entry now held, and the commit to await before acknowledging. */
export interface WriteResult {
  entry: CacheEntry;
  commit: Commit | undefined;
}

export interface RemoveResult {
  removed: CacheEntry | undefined;
  commit: Commit | undefined;
}

/**
 * One cache: what its entries mean — expiry and max-idle, conditional writes, statistics, entry
 * events, what its index is told — over `EntryTiers`, where they live (memory, and the store of a
 * persistent cache).
 */
export class Cache {
  readonly stats: CacheStats;
  /** Entry listeners; writes only look for an existing entry when someone listens. */
  readonly listeners = new Listeners<EntryEvent>();
  private readonly tiers: EntryTiers;
  /** The tiers' memory, read directly on the paths of every GET and PUT. */
  private readonly memory: MemoryTier;
  private readonly index = new IndexFeed();
  private readonly reaper: ExpiryReaper;
  private readonly listing: EntryListing;

  constructor(
    readonly id: number,
    readonly name: string,
    private currentSettings: CacheSettings,
    private readonly deps: CacheDeps,
  ) {
    this.stats = new CacheStats(deps.clock.now(), deps.containerStats);
    this.tiers = new EntryTiers(id, currentSettings, { store: deps.store, clock: deps.clock, stats: this.stats, index: this.index });
    this.memory = this.tiers.memory;
    this.reaper = new ExpiryReaper(this.tiers, this.listeners, this.index, deps.clock);
    this.listing = new EntryListing(this.tiers, deps.clock, (key) => this.peek(key));
  }

  get settings(): CacheSettings {
    return this.currentSettings;
  }

  get memoryEntryCount(): number {
    return this.memory.size;
  }

  /** Entries in memory that have not expired (`current_number_of_entries_in_memory`), counted in slices. */
  liveMemoryEntryCount(): Promise<number> {
    return this.listing.liveMemoryCount();
  }

  get memoryBytes(): number {
    return this.memory.usedBytes;
  }

  /** The query index that follows this cache's content (indexed caches only). */
  attachIndex(index: ContentIndex | undefined): void {
    this.index.attach(index);
  }

  /**
   * Refuses a put the cache's index cannot take (ISPN028021/ISPN028022) before anything is written:
   * for an engine whose writes do not pass through `put` (the redis engine's).
   */
  checkIndexable(): void {
    this.index.checkPut();
  }

  /** Applies changed settings of a compatible update (memory limits may evict at once). */
  reconfigure(settings: CacheSettings): void {
    this.currentSettings = settings;
    this.tiers.reconfigure(settings);
  }

  /**
   * The live entry for `key`, refreshing its idle time; undefined when absent or expired.
   * `flags` (src/model/flags.ts) are the request's: SKIP_CACHE_LOAD, SKIP_STATISTICS apply.
   */
  get(key: Buffer, flags: OpFlags = NO_FLAGS): CacheEntry | undefined {
    const counted = (flags & SKIP_STATISTICS) === 0;
    const started = counted ? this.timer() : 0n;
    const id = idOf(key);
    const now = this.deps.clock.now();
    const e = this.memory.get(id) ?? this.tiers.load(id, key, flags);
    const live = e && !isExpired(e, now) ? e : undefined;
    if (e && !live) this.expire(id, e);
    if (live && live.maxIdle >= 0) live.lastUsed = now;
    if (counted) this.stats.read(live !== undefined, this.elapsed(started));
    return live;
  }

  /** Like `get` but touches neither idle time nor statistics; SKIP_CACHE_LOAD looks at memory only. */
  peek(key: Buffer, flags: OpFlags = NO_FLAGS): CacheEntry | undefined {
    const id = idOf(key);
    const e = this.memory.peek(id) ?? this.tiers.load(id, key, flags);
    return e && !isExpired(e, this.deps.clock.now()) ? e : undefined;
  }

  /**
   * Like `peek`, but an entry that is only in the store is read without being brought into memory:
   * queries read their hits this way, so a query over a big persistent cache does not fill memory.
   */
  lookup(key: Buffer): CacheEntry | undefined {
    const e = this.tiers.find(idOf(key), key);
    return e && !isExpired(e, this.deps.clock.now()) ? e : undefined;
  }

  /** `lookup` for a batch of keys: those found only in the store are read with one query. */
  lookupMany(keys: Buffer[]): Array<CacheEntry | undefined> {
    const now = this.deps.clock.now();
    return this.tiers.findMany(keys).map((e) => (e && !isExpired(e, now) ? e : undefined));
  }

  /** The commit a read of `key` must wait for, if the key's last write is not yet durable. */
  pendingCommit(key: Buffer): Commit | undefined {
    return this.tiers.writes.pendingCommit(idOf(key));
  }

  /** Stores the entry; the request's `flags` (src/model/flags.ts) may keep it from the store, statistics and listeners. */
  put(key: Buffer, value: Buffer, valueType: string | null, expiry: Expiry, flags: OpFlags = NO_FLAGS): WriteResult {
    const counted = (flags & SKIP_STATISTICS) === 0;
    const started = counted ? this.timer() : 0n;
    const id = idOf(key);
    const now = this.deps.clock.now();
    // an overwrite keeps the Buffer of the key the entry already holds (the same bytes): the
    // request's copy dies young instead of being promoted with the entry
    const heldKey = this.memory.peek(id)?.key ?? key;
    const entry: CacheEntry = { key: heldKey, value, valueType, created: now, lastUsed: now, lifespan: expiry.lifespan, maxIdle: expiry.maxIdle, etag: etagOf(value) };
    if (this.currentSettings.whenFull === 'EXCEPTION' && this.memory.wouldOverflow(id, entry)) {
      throw new ContainerFullError(this.currentSettings.maxCount >= 0 ? this.currentSettings.maxCount : this.currentSettings.maxSizeBytes);
    }
    const notify = this.listeners.size > 0 && (flags & SKIP_LISTENER_NOTIFICATION) === 0;
    const existed = notify && this.peek(key, flags) !== undefined;
    const toStore = this.currentSettings.persistent && (flags & SKIP_CACHE_STORE) === 0;
    // an entry kept from the store lives in memory only, like a passivating cache's (its document goes at the next start);
    // SKIP_INDEXING leaves the index as it was, as the original does
    if ((flags & SKIP_INDEXING) === 0) {
      this.index.apply({ kind: 'put', entry, memoryOnly: this.tiers.passivating || (this.currentSettings.persistent && !toStore) });
    }
    const commit = this.tiers.put(id, entry, toStore);
    if (counted) this.stats.write(this.elapsed(started));
    if (notify) this.listeners.emit({ type: existed ? 'cache-entry-modified' : 'cache-entry-created', key });
    return { entry, commit };
  }

  /**
   * Writes an entry exactly as it was (times included, so it expires at the same absolute time):
   * the restore path. Expired entries are skipped (undefined).
   */
  restore(stored: StoredEntry): WriteResult | undefined {
    const entry: CacheEntry = { ...stored, etag: etagOf(stored.value) };
    if (isExpired(entry, this.deps.clock.now())) return undefined;
    this.index.apply({ kind: 'put', entry, memoryOnly: this.tiers.passivating });
    const commit = this.tiers.restore(idOf(stored.key), entry);
    this.stats.write(0);
    return { entry, commit };
  }

  /** Stores only when the key is absent; undefined when an entry exists (nothing written). */
  putIfAbsent(key: Buffer, value: Buffer, valueType: string | null, expiry: Expiry, flags: OpFlags = NO_FLAGS): WriteResult | undefined {
    if (this.peek(key, flags)) return undefined;
    return this.put(key, value, valueType, expiry, flags);
  }

  /** Removes the entry; SKIP_CACHE_STORE leaves the store's copy (it comes back once memory no longer holds the key). */
  remove(key: Buffer, flags: OpFlags = NO_FLAGS): RemoveResult {
    const counted = (flags & SKIP_STATISTICS) === 0;
    const started = counted ? this.timer() : 0n;
    const id = idOf(key);
    const removed = this.peek(key, flags);
    this.memory.delete(id);
    const present = removed !== undefined || this.tiers.writes.has(id);
    if (present) this.index.apply({ kind: 'remove', key });
    let commit: Commit | undefined;
    if (present && this.currentSettings.persistent && (flags & SKIP_CACHE_STORE) === 0) commit = this.tiers.deleteStored(id, key);
    if (counted) this.stats.remove(removed !== undefined, this.elapsed(started));
    if (removed && this.listeners.size && (flags & SKIP_LISTENER_NOTIFICATION) === 0) this.listeners.emit({ type: 'cache-entry-removed', key });
    return { removed, commit };
  }

  clear(): Commit | undefined {
    this.tiers.clearMemory();
    this.index.apply({ kind: 'clear' });
    return this.tiers.clearStore();
  }

  /** Number of live entries (waits for pending commits so the store count is exact). */
  async size(): Promise<number> {
    await this.settled();
    return this.listing.count();
  }

  /** Waits until every write made so far is durable. */
  settled(): Promise<void> {
    return this.tiers.settled();
  }

  /**
   * Every live entry (call `settled()` first), for listings, event streams, backups and
   * reindexing, which may take many turns to go through it (`EntryListing`).
   */
  entries(): Generator<StoredEntry> {
    return this.listing.entries();
  }

  /** The live entries memory holds, walked in place (for a copy at one instant: backups). */
  memoryEntries(): Generator<StoredEntry> {
    return this.listing.memoryEntries();
  }

  /** Every live key (call `settled()` first), as `entries` gives them, without reading a value of the store. */
  keys(): Generator<Buffer> {
    return this.listing.keys();
  }

  /** Every live entry, for queries (call `settled()` first), the store's a packed page at a time. */
  scan(): Generator<ScannedEntry> {
    return this.listing.scan();
  }

  /** Removes expired entries from memory and the store (the periodic reaper: `ExpiryReaper`); how many memory held. */
  reapExpired(): number {
    return this.reaper.run();
  }

  /** Clean shutdown of a passivating cache: memory goes to the store. */
  passivateAll(): void {
    this.tiers.passivateAll();
  }

  /** Whether only memory holds this key's entry (a passivating cache's entry not passivated). */
  heldOnlyInMemory(key: Buffer): boolean {
    return this.tiers.heldOnlyInMemory(key);
  }

  /** Operation timing costs a clock read, so only caches with statistics pay it. */
  private timer(): bigint {
    return this.currentSettings.statistics ? process.hrtime.bigint() : 0n;
  }

  private elapsed(started: bigint): number {
    return started === 0n ? 0 : Number(process.hrtime.bigint() - started);
  }

  /** An entry found expired on access (`found` may come from the store only): it goes, listeners hear it. */
  private expire(id: string, found: CacheEntry): void {
    const e = this.memory.delete(id) ?? this.tiers.writes.get(id)?.entry ?? found;
    if (e) this.index.apply({ kind: 'remove', key: e.key });
    if (e && this.listeners.size) this.listeners.emit({ type: 'cache-entry-expired', key: e.key });
    if (this.currentSettings.persistent && e) this.tiers.deleteStored(id, e.key);
  }
}

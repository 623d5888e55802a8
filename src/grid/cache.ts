import { inSlices } from '../util/slices';
import { ContainerFullError } from '../errors';
import type { CacheSettings } from '../model/cache-config';
import { etagOf } from '../model/etag';
import type { Expiry } from '../model/expiration';
import { NO_FLAGS, type OpFlags, SKIP_CACHE_STORE, SKIP_INDEXING, SKIP_LISTENER_NOTIFICATION, SKIP_STATISTICS } from '../model/flags';
import type { Clock } from '../util/clock';
import { Listeners } from '../util/listeners';
import { type Commit, EntryPageCursor, type KeyRow, ROW_EXPIRED, ROW_VALUE_OMITTED, type Store, type StoredEntry } from '../store/store';
import { type CacheEntry, isExpired, isMortal, type ScannedEntry, WholeEntry } from './cache-entry';
import { CacheStats } from './cache-stats';
import { type ContentIndex, IndexFeed } from './content-index';
import type { EntryEvent } from './entry-events';
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

/** Keys read from the keys index per statement (keys are small: at most a URL's length). */
const KEY_PAGE = 512;
/**
 * Scan pages aim at this many bytes; their row count follows the rows' size (values over 16 KiB
 * are read one by one). A page is one SQLite statement the event loop cannot leave: 64 KiB
 * (~500 small rows) takes 1-7 ms on the loaded 2-core machine, 256 KiB took up to 28 ms.
 */
const SCAN_PAGE_BYTES = 64 * 1024;
const FIRST_SCAN_PAGE = 64;
const MIN_SCAN_PAGE = 16;
const MAX_SCAN_PAGE = 4096;

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
  }

  get settings(): CacheSettings {
    return this.currentSettings;
  }

  get memoryEntryCount(): number {
    return this.memory.size;
  }

  /**
   * Entries in memory that have not expired (`current_number_of_entries_in_memory`): the memory
   * size itself while no entry held there can expire; else the tier is walked in slices, and only
   * until every mortal entry was seen.
   */
  async liveMemoryEntryCount(): Promise<number> {
    if (this.memory.mortalCount === 0) return this.memory.size;
    const now = this.deps.clock.now();
    let mortal = this.memory.mortalCount;
    let expired = 0;
    await inSlices(untilSeen(this.memory.entries(), () => mortal > 0), ([, e]) => {
      if (!isMortal(e)) return;
      mortal--;
      if (isExpired(e, now)) expired++;
    });
    return Math.max(0, this.memory.size - expired);
  }

  get memoryBytes(): number {
    return this.memory.usedBytes;
  }

  /** The query index that follows this cache's content (indexed caches only). */
  attachIndex(index: ContentIndex | undefined): void {
    this.index.attach(index);
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
    const now = this.deps.clock.now();
    let n = 0;
    if (!this.currentSettings.persistent || this.currentSettings.passivation) {
      // a large cache is counted in slices, so the count never holds other requests up
      await inSlices(this.memory.entries(), ([, e]) => { if (!isExpired(e, now)) n++; });
    }
    if (this.currentSettings.persistent) n += await this.deps.store.entries.count(this.id, now);
    return n;
  }

  /** Waits until every write made so far is durable. */
  settled(): Promise<void> {
    return this.tiers.settled();
  }

  /**
   * Every live entry (call `settled()` first), for listings, event streams, backups and reindexing,
   * which may take many turns to go through it. Memory is walked in place, without a copy (see
   * `MemoryTier.walk`), first for caches whose memory is not a copy of the store; then the store in
   * key order, its keys a page at a time from the keys index and each value read on its own, so no
   * step reads more than one value, however large the values (a page of 1,000 rows of 1 MB once
   * held the event loop for 10 s).
   */
  *entries(): Generator<StoredEntry> {
    const now = this.deps.clock.now();
    const memoryIsTruth = this.tiers.memoryIsTruth;
    if (memoryIsTruth) {
      for (const e of this.memory.walk()) if (!isExpired(e, now)) yield e;
    }
    if (!this.currentSettings.persistent) return;
    for (const row of this.storeKeys(now, memoryIsTruth)) {
      const e = this.memory.peek(idOf(row.key)) ?? this.deps.store.entries.find(this.id, row.key);
      if (e && !isExpired(e, now)) yield e;
    }
  }

  /** The live entries memory holds, walked in place (for a copy at one instant: backups). */
  *memoryEntries(): Generator<StoredEntry> {
    const now = this.deps.clock.now();
    for (const e of this.memory.walk()) if (!isExpired(e, now)) yield e;
  }

  /** Every live key (call `settled()` first), as `entries` gives them, without reading a value of the store. */
  *keys(): Generator<Buffer> {
    const now = this.deps.clock.now();
    const memoryIsTruth = this.tiers.memoryIsTruth;
    if (memoryIsTruth) {
      for (const e of this.memory.walk()) if (!isExpired(e, now)) yield e.key;
    }
    if (!this.currentSettings.persistent) return;
    for (const row of this.storeKeys(now, memoryIsTruth)) yield row.key;
  }

  /**
   * The store's keys of live entries: by their stored expiry, or by memory's copy, whose max-idle
   * may have been refreshed since the write; `skipHeld` leaves out keys memory holds (already walked).
   */
  private *storeKeys(now: number, skipHeld: boolean): Generator<KeyRow> {
    let after: Buffer = Buffer.alloc(0);
    for (;;) {
      const page = this.deps.store.entries.listKeys(this.id, after, KEY_PAGE);
      for (const row of page) {
        const held = this.memory.peek(idOf(row.key));
        if (held ? skipHeld || isExpired(held, now) : row.expiresAt !== null && row.expiresAt <= now) continue;
        yield row;
      }
      if (page.length < KEY_PAGE) return;
      after = page[page.length - 1].key;
    }
  }

  /**
   * Every live entry, for queries (call `settled()` first). The memory tier is walked in place (no
   * copy of a big cache); a persistent cache's rows come a packed page at a time, each row a view
   * into the page, so a scan allocates per page rather than per entry. A write-through cache's
   * committed rows are the whole content; a passivating cache adds the rows of entries not in memory.
   */
  *scan(): Generator<ScannedEntry> {
    const now = this.deps.clock.now();
    const memoryIsTruth = this.tiers.memoryIsTruth;
    const whole = new WholeEntry();
    if (memoryIsTruth) {
      for (const e of this.memory.walk()) if (!isExpired(e, now)) yield whole.of(e.key, e.value);
    }
    if (!this.currentSettings.persistent) return;
    let after: Buffer = Buffer.alloc(0);
    let rows = FIRST_SCAN_PAGE;
    for (;;) {
      const page = this.deps.store.entries.scanPage(this.id, after, now, rows);
      if (!page) return;
      const row = new EntryPageCursor(page.bytes);
      while (row.advance()) {
        if (memoryIsTruth && this.memory.peek(row.keyId())) continue;
        if (row.flags & ROW_EXPIRED && !this.peek(row.key())) continue; // max-idle may be refreshed in memory since the write
        if (!(row.flags & ROW_VALUE_OMITTED)) yield row;
        else {
          const stored = this.deps.store.entries.find(this.id, row.key());
          if (stored) yield whole.of(stored.key, stored.value);
        }
      }
      if (page.count < rows) return;
      after = page.lastKey;
      rows = Math.max(MIN_SCAN_PAGE, Math.min(MAX_SCAN_PAGE, Math.floor((SCAN_PAGE_BYTES * page.count) / page.bytes.length)));
    }
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

/** The items of `items` while `more()` holds (checked before each). */
function* untilSeen<T>(items: Iterable<T>, more: () => boolean): Generator<T> {
  for (const item of items) {
    if (!more()) return;
    yield item;
  }
}

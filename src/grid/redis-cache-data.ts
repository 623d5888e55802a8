import { ContainerFullError } from '../errors';
import type { CacheSettings } from '../model/cache-config';
import { etagOf } from '../model/etag';
import type { Expiry } from '../model/expiration';
import { NO_FLAGS, type OpFlags, SKIP_INDEXING, SKIP_LISTENER_NOTIFICATION, SKIP_STATISTICS } from '../model/flags';
import type { StoredEntry } from '../store/store';
import type { Bounded, RedisEntries, WriteCondition, WriteFlags } from '../store/redis/redis-entries';
import type { EntryEventFeed } from '../store/redis/entry-event-feed';
import type { ClusterTopology, RedisNode } from '../store/redis/cluster-topology';
import { EngineUnavailableError } from '../errors';
import type { Clock } from '../util/clock';
import { Listeners } from '../util/listeners';
import type { Pages } from '../util/pages';
import type { CacheData, Placement, RemoveOutcome, SharedContent } from './cache-data';
import { type CacheEntry, isExpired, type ScannedEntry, scannedPages } from './cache-entry';
import type { CacheStats } from './cache-stats';
import type { EntryEvent } from './entry-events';

/**
 * What the entries need to know of their cache: whether it has an index and whether that takes a
 * write (ISPN028021/22), and the statistics this node counts of it.
 */
export interface IndexedCache {
  readonly settings: { readonly indexed: boolean; readonly statistics: boolean };
  readonly stats: CacheStats;
  checkIndexable(): void;
}

/**
 * Whether the cache keeps its bound on this engine (docs/scale-out.md, "Bounded caches"): one
 * without persistence and with memory.max-count or max-size, or one that refuses writes when full
 * (when-full EXCEPTION), persistent or not — a bound a client sees. A persistent cache that evicts
 * has nothing to evict here: Redis is its store and holds every entry.
 */
export function keepsBound(settings: CacheSettings): boolean {
  return settings.bounded && (!settings.persistent || settings.whenFull === 'EXCEPTION');
}

/** The bound of a cache that keeps one, read from its settings at each write (a definition update may change it); evictions go to its statistics. */
export function boundOf(cache: { readonly settings: CacheSettings; readonly stats: CacheStats }): Bounded | undefined {
  if (!keepsBound(cache.settings)) return undefined;
  return {
    bounds: () => {
      const { maxCount, maxSizeBytes, whenFull } = cache.settings;
      return { maxCount: maxCount > 0 ? maxCount : -1, maxSize: maxSizeBytes, refuse: whenFull === 'EXCEPTION' };
    },
    evicted: (count) => {
      for (let i = 0; i < count; i++) cache.stats.evicted();
    },
  };
}

/**
 * The entries of a cache on a Redis Cluster (docs/scale-out.md, "Entries"): every operation is one
 * script on the master of the key's segment, which checks a condition and makes the write it
 * guards in one step, whichever node of grid sends it. A write resolves once Redis acknowledged it,
 * so a listing has nothing to wait for first. Redis is this engine's memory, and it has no store
 * behind it: SKIP_CACHE_LOAD and SKIP_CACHE_STORE change nothing here. A bounded cache keeps its
 * bound in the step of each write (`keepsBound`); a write its bound refuses (when-full EXCEPTION)
 * answers as on the local engine.
 *
 * Listeners hear the writes made through this object when they are made, and — with a `feed` —
 * those of other nodes once the feed hands them over (docs/scale-out.md, "Entry events"). So with
 * expiries: an expired entry is removed, and its expiry published, by the script that finds it — a
 * read (not a peek), a write's prune, a remove, or the periodic reaper (`reapExpired`, run at the
 * cache's `expiration.interval` on every node) — and this node's listeners hear it when that script
 * ran through it, the others' through their feeds.
 *
 * The writes of an indexed cache also go to its feed of changes, in the same script, so that every
 * node's index can follow them (`shared`, docs/scale-out.md, "Queries").
 */
export class RedisCacheData implements CacheData {
  readonly listeners = new Listeners<EntryEvent>((n) => this.following(n > 0));
  /** Following the feed: the way to stop, once subscribed. */
  private followed: Promise<() => Promise<void>> | undefined;

  /** Each segment's changes, in the order its master made them: what the nodes' query indexes follow. */
  readonly shared: SharedContent = {
    feedEnds: () => this.store.feedEnds(),
    readFeeds: (reads) => this.store.readFeeds(reads, this.clock.now()),
    mark: (marker) => this.store.mark(marker),
    peekMany: (keys) => this.store.readMany(keys, this.clock.now()),
  };

  /** The reaper's run under way, if one is: a run is not started again before it ends. */
  private reaping: Promise<number> | undefined;

  /** The Redis nodes that hold the cache's segments (docs/scale-out.md, "Owners and health"); absent without a topology. */
  readonly placement?: Placement;

  constructor(private readonly store: RedisEntries, private readonly clock: Clock, private readonly feed?: EntryEventFeed, private readonly cache?: IndexedCache,
    topology?: ClusterTopology) {
    store.expired.add((key) => this.notify('cache-entry-expired', key, NO_FLAGS));
    if (topology) this.placement = placementOf(store, topology, clock);
  }

  async get(key: Buffer, flags: OpFlags): Promise<CacheEntry | undefined> {
    const started = this.timer(flags);
    const entry = await this.store.read(key, this.clock.now(), true, this.indexed);
    if (started !== undefined) this.cache!.stats.read(entry !== undefined, elapsed(started));
    return entry;
  }

  peek(key: Buffer, _flags: OpFlags): Promise<CacheEntry | undefined> {
    return this.store.read(key, this.clock.now(), false);
  }

  async put(key: Buffer, value: Buffer, valueType: string | null, expiry: Expiry, flags: OpFlags, unlessEtag?: string): Promise<CacheEntry | undefined> {
    return this.write(key, value, valueType, expiry, flags, unlessEtag === undefined ? undefined : { unlessEtag });
  }

  async putIfAbsent(key: Buffer, value: Buffer, valueType: string | null, expiry: Expiry, flags: OpFlags): Promise<CacheEntry | undefined> {
    return this.write(key, value, valueType, expiry, flags, { absent: true });
  }

  async remove(key: Buffer, flags: OpFlags, ifEtag?: string): Promise<RemoveOutcome> {
    const started = this.timer(flags);
    // a removal always reaches the index, SKIP_INDEXING or not, as on the local engine
    const outcome = await this.store.remove(key, this.clock.now(), ifEtag, { silent: (flags & SKIP_LISTENER_NOTIFICATION) !== 0, fed: this.indexed });
    if (outcome !== 'removed') return outcome;
    // counted as the local engine counts: a removal made (what is absent or has another ETag counts nothing)
    if (started !== undefined) this.cache!.stats.remove(true, elapsed(started));
    this.notify('cache-entry-removed', key, flags);
    return outcome;
  }

  /**
   * The periodic reaper's run (docs/scale-out.md, "Entry events"): a bounded number of expired
   * entries per segment removed and published, each once whichever node's run removes it; a run
   * asked for while one is under way is that one. Resolves with how many it removed.
   */
  reapExpired(): Promise<number> {
    this.reaping ??= this.store.reap(this.clock.now(), this.indexed).finally(() => { this.reaping = undefined; });
    return this.reaping;
  }

  size(_flags: OpFlags): Promise<number> {
    return this.store.count(this.clock.now());
  }

  async clear(): Promise<void> {
    await this.store.clear(this.indexed);
  }

  /** The cache was removed: its entries and feeds go too (whatever is written meanwhile may stay). */
  async discard(): Promise<void> {
    this.following(false);
    await this.store.clear();
    await this.store.dropFeeds();
  }

  private get indexed(): boolean {
    return this.cache?.settings.indexed ?? false;
  }

  /** Follows the other nodes' events while someone listens. */
  private following(on: boolean): void {
    if (!this.feed || on === (this.followed !== undefined)) return;
    if (on) {
      this.followed = this.feed.follow(this.store.eventChannels, (e) => { if (this.listeners.size) this.listeners.emit(e); });
      this.followed.catch(() => { this.followed = undefined; });
    } else {
      const stop = this.followed!;
      this.followed = undefined;
      void stop.then((s) => s(), () => undefined);
    }
  }

  /** The restore path: the entry as archived, fed to every node's index, heard by no listener (as on the local engine). */
  async restore(entry: StoredEntry): Promise<boolean> {
    const now = this.clock.now();
    if (isExpired(entry, now)) return false;
    const outcome = await this.store.write({ ...entry, etag: etagOf(entry.value) }, now, undefined, { silent: true, fed: this.indexed, indexed: this.indexed });
    if (outcome === 'full') {
      const { maxCount, maxSize } = this.store.bounds!;
      throw new ContainerFullError(maxCount >= 0 ? maxCount : maxSize);
    }
    return true;
  }

  /** Every live entry, segment by segment, a page of bounded size at a time (no idle time refreshed). */
  entries(): Pages<StoredEntry> {
    return this.store.entries(() => this.clock.now());
  }

  /** Every live entry as the query matcher reads it, a page per segment read. */
  scan(): Pages<ScannedEntry> {
    return scannedPages(this.entries());
  }

  /** Every live key, as `entries` orders them, without reading values. */
  keys(): Pages<Buffer> {
    return this.store.keys(() => this.clock.now());
  }

  private async write(key: Buffer, value: Buffer, valueType: string | null, expiry: Expiry, flags: OpFlags, condition: WriteCondition | undefined): Promise<CacheEntry | undefined> {
    // a configuration the index cannot take refuses the write before anything is written, as on the local engine
    if (this.indexed) this.cache!.checkIndexable();
    const started = this.timer(flags);
    const now = this.clock.now();
    const entry: CacheEntry = { key, value, valueType, created: now, lastUsed: now, lifespan: expiry.lifespan, maxIdle: expiry.maxIdle, etag: etagOf(value) };
    // SKIP_INDEXING leaves every node's index as it was
    const written: WriteFlags = { silent: (flags & SKIP_LISTENER_NOTIFICATION) !== 0, fed: this.indexed && (flags & SKIP_INDEXING) === 0, indexed: this.indexed };
    const outcome = await this.store.write(entry, now, condition, written);
    if (outcome === 'full') {
      const { maxCount, maxSize } = this.store.bounds!;
      throw new ContainerFullError(maxCount >= 0 ? maxCount : maxSize);
    }
    if (outcome === 'kept') return undefined;
    if (started !== undefined) this.cache!.stats.write(elapsed(started));
    this.notify(outcome === 'created' ? 'cache-entry-created' : 'cache-entry-modified', key, flags);
    return entry;
  }

  /**
   * When an operation that counts in this node's statistics began (docs/scale-out.md, "Cluster-wide
   * statistics"); undefined when it does not count (SKIP_STATISTICS, or no cache to count for). As
   * on the local engine, only a cache with statistics on pays the clock read (0: not timed).
   */
  private timer(flags: OpFlags): bigint | undefined {
    if (!this.cache || (flags & SKIP_STATISTICS) !== 0) return undefined;
    return this.cache.settings.statistics ? process.hrtime.bigint() : 0n;
  }

  private notify(type: EntryEvent['type'], key: Buffer, flags: OpFlags): void {
    if (this.listeners.size > 0 && (flags & SKIP_LISTENER_NOTIFICATION) === 0) this.listeners.emit({ type, key });
  }
}

/** The masters and replicas of the slots of `store`'s segments, as `topology` knows them. */
function placementOf(store: RedisEntries, topology: ClusterTopology, clock: Clock): Placement {
  const node = (n: RedisNode) => ({ address: n.address });
  return {
    async owners(key) {
      const slot = store.slotOf(key);
      const owners = (await topology.current()).owners(slot);
      if (!owners) throw new EngineUnavailableError(`no master serves the key's slot ${slot}`);
      return { primary: node(owners.master), backups: owners.replicas.map(node) };
    },
    async shares() {
      const [counts, topo] = await Promise.all([store.segmentCounts(clock.now()), topology.current()]);
      const byMaster = new Map<string, number>(topo.masters.map((m) => [m.address, 0]));
      store.segmentSlots.forEach((slot, s) => {
        const master = topo.owners(slot)?.master.address;
        if (master === undefined) throw new EngineUnavailableError(`no master serves the slot ${slot}`);
        byMaster.set(master, (byMaster.get(master) ?? 0) + counts[s]);
      });
      return [...byMaster].map(([address, entries]) => ({ node: { address }, entries }));
    },
    health: () => topology.health(store.segmentSlots),
  };
}

function elapsed(started: bigint): number {
  return started === 0n ? 0 : Number(process.hrtime.bigint() - started);
}

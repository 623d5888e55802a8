import type { Expiry } from '../model/expiration';
import type { OpFlags } from '../model/flags';
import type { StoredEntry } from '../store/store';
import type { FeedPosition, FeedRead } from '../store/redis/redis-entries';
import type { Listeners } from '../util/listeners';
import type { Pages } from '../util/pages';
import type { EntryEvent } from './entry-events';
import type { CacheEntry, ScannedEntry } from './cache-entry';

/** A value at once, or the promise of it when it must be waited for (a commit, a round trip). */
export type MaybePromise<T> = T | Promise<T>;

/** What a conditional remove found: done, no live entry, or an entry whose ETag is not the one asked for. */
export type RemoveOutcome = 'removed' | 'absent' | 'etag-differs';

/**
 * What the query index a node keeps reads of a cache whose writes other nodes make too (the redis
 * engine: docs/scale-out.md, "Queries"): each segment's feed of changed keys, in the order the
 * segment's writes were made, and the entries of a query's hits.
 */
export interface SharedContent {
  /** Where the feed of each segment ends now, and whether it still holds every change it received. */
  feedEnds(): Promise<Array<{ end: FeedPosition; whole: boolean }>>;
  /** The next changes of each segment after its `from`, each key with its live entry as it is now. */
  readFeeds(reads: ReadonlyArray<{ segment: number; from: FeedPosition }>): Promise<FeedRead[]>;
  /** Asks every node's index to rebuild (`r`) or to empty (`x`), in order with the writes. */
  mark(marker: 'r' | 'x'): Promise<void>;
  /** The live entries of `keys` now, no idle time refreshed. */
  peekMany(keys: Buffer[]): Promise<Array<CacheEntry | undefined>>;
}

/** A node of the engine that holds entries (on the redis engine a Redis master or replica), by the address clients reach it at. */
export interface EngineNode {
  address: string;
}

/** The engine nodes that hold a key: the one that serves it, then its copies. */
export interface KeyOwners {
  primary: EngineNode;
  backups: EngineNode[];
}

/**
 * Where the entries of a cache live when nodes of the engine hold them rather than this process
 * (the redis engine: docs/scale-out.md, "Owners and health").
 */
export interface Placement {
  /** The nodes that hold `key`, as the engine knows them now (at most a second old). */
  owners(key: Buffer): Promise<KeyOwners>;
  /** The live entries each serving node holds: they add up to the cache's size. */
  shares(): Promise<Array<{ node: EngineNode; entries: number }>>;
  /**
   * How the engine serves the cache as last seen (at most a second old): DEGRADED while a part of
   * it has no reachable node, HEALTHY_REBALANCING while a part moves between nodes.
   */
  health(): 'HEALTHY' | 'HEALTHY_REBALANCING' | 'DEGRADED';
}

/**
 * The entries of one cache, wherever they are kept: the seam between what the API does with
 * entries (the services: media types, preconditions, listings) and where entries live — the local
 * engine (memory tier and store, `Cache`), or the schema files behind `___protobuf_metadata`.
 * docs/architecture.md ("The engine seam") says what each side owns.
 *
 * Keys and values are in the cache's storage form. Reads see every acknowledged write; a write
 * resolves once it is as durable as the cache's persistence makes it; a condition is checked in
 * the same step as the write it guards, so nothing comes between them. Results come at once when
 * nothing has to be waited for (the hot path takes no turn of the event loop).
 */
export interface CacheData {
  /** The live entry, once the key's last write is durable: a read (statistics, max-idle refreshed); `flags` as the request's. */
  get(key: Buffer, flags: OpFlags): MaybePromise<CacheEntry | undefined>;
  /** Like `get`, but touching neither statistics nor idle time. */
  peek(key: Buffer, flags: OpFlags): MaybePromise<CacheEntry | undefined>;
  /** Creates or replaces the entry — unless `unlessEtag` is the current entry's ETag: undefined then, nothing written. */
  put(key: Buffer, value: Buffer, valueType: string | null, expiry: Expiry, flags: OpFlags, unlessEtag?: string): MaybePromise<CacheEntry | undefined>;
  /** Stores only when there is no live entry; undefined when there is (nothing written). */
  putIfAbsent(key: Buffer, value: Buffer, valueType: string | null, expiry: Expiry, flags: OpFlags): MaybePromise<CacheEntry | undefined>;
  /** Removes the live entry — when `ifEtag` is given, only if it is the entry's ETag. */
  remove(key: Buffer, flags: OpFlags, ifEtag?: string): MaybePromise<RemoveOutcome>;
  /** The live entries; with SKIP_CACHE_LOAD only those the engine holds in memory (as the original). */
  size(flags: OpFlags): Promise<number>;
  /** Removes every entry; resolves once that is durable. */
  clear(): Promise<void>;
  /**
   * Every live entry, every write acknowledged before the call included (listings, event streams),
   * a page at a time (src/util/pages.ts): the reader may wait between pages, never within one.
   */
  entries(): Pages<StoredEntry>;
  /**
   * Writes an entry exactly as an archive holds it (times included, so it expires at the same
   * absolute time), telling no listener; an expired one is skipped (false). Absent where the
   * cache's own `Cache.restore` does it (the local engine).
   */
  restore?(entry: StoredEntry): Promise<boolean>;
  /** Every live entry for a query's scan (docs/reference/query.md#scan-semantics), in the form the matcher reads; no idle time refreshed. */
  scan(): Pages<ScannedEntry>;
  /** Every live key, as `entries` gives them, without reading values where the engine can. */
  keys(): Pages<Buffer>;
  /**
   * The cache was removed: an engine whose entries outlive the cache's handle removes them (the
   * redis engine); absent where the removal itself took them (the local engine).
   */
  discard?(): Promise<void>;
  /**
   * The periodic reaper's run (at the cache's `expiration.interval`), for an engine whose entries
   * the cache's own reaper does not hold (the redis engine: docs/scale-out.md, "Entry events");
   * resolves with how many expired entries it removed. Absent: `Cache.reapExpired` is the reaper.
   */
  reapExpired?(): Promise<number>;
  /** Entry listeners (docs/reference/data-plane.md#entry-events). */
  readonly listeners: Listeners<EntryEvent>;
  /** Where other nodes write the entries too (the redis engine): what this node's query index follows. */
  readonly shared?: SharedContent;
  /** Which nodes of the engine hold the entries; absent where this process holds them all. */
  readonly placement?: Placement;
}

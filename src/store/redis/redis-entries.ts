import calculateSlot from 'cluster-key-slot';
import type { Cluster } from 'ioredis';
import type { StoredEntry } from '../../model/stored-entry';
import { entryKeyOf, FEED_LENGTH, SEGMENTS, type SegmentKeys, segmentKeysOf, segmentOf } from './entry-layout';
import { CLEAR_PAGE, DUE, ENTRIES_PAGE, FEED_READ, FEEDS_READ, KEYS_PAGE, MARK, PUT, READ, REAP, REMOVE, SIZE } from './entry-scripts';
import { BOUNDED_CLEAR_PAGE, BOUNDED_PUT, BOUNDED_READ, BOUNDED_REAP, BOUNDED_REMOVE } from './bounded-entry-scripts';
import { Listeners } from '../../util/listeners';
import type { Pages } from '../../util/pages';
import { groupByMaster, scriptBatch, type ScriptBatch, type ScriptCall, scriptCommands, type ScriptTable } from './script-commands';
import { masterWrites, type Writes } from './cluster-engine';
import { inParallel, walkPages, type Page } from './segment-walk';
import { engineFailure } from './engine-failure';

/** An entry with its ETag, as a write stores it and a read finds it. */
export interface EntryRecord extends StoredEntry {
  etag: string;
}

/** What a write was to depend on: no live entry, or a live entry whose ETag is not the one given. */
export type WriteCondition = { absent: true } | { unlessEtag: string };

/**
 * What a write did: `kept` — the condition held it back, nothing was written; `full` — the bound
 * of a cache that refuses writes when full held it back, nothing was written.
 */
export type WriteOutcome = 'created' | 'replaced' | 'kept' | 'full';

/** What a remove found: done, no live entry, or a live entry whose ETag is not the one asked for. */
export type RemovalOutcome = 'removed' | 'absent' | 'etag-differs';

/**
 * What else a write does: `silent` publishes no event of its own; `fed` tells the cache's feed of
 * changes (an indexed cache's) of the write.
 */
export interface WriteFlags {
  silent?: boolean;
  fed?: boolean;
  /** The cache keeps a feed (an indexed cache): the expired entries the write removes go to it, `fed` or not. */
  indexed?: boolean;
}

/** Where a reader of a segment's feed stands: after the entry `id`, the feed having received `seen` entries up to it. */
export interface FeedPosition {
  id: string;
  seen: number;
}

/** A marker in a feed: the segment cleared (`c`), a reindex (`r`) or an index clear (`x`) asked for. */
export type FeedMarker = 'c' | 'r' | 'x';

/** What one read of a segment's feed found. */
export interface FeedRead {
  /** Where the reader stands after it (after a gap: at the feed's end). */
  next: FeedPosition;
  /**
   * The keys the entries read name, once each, with the live entry as it is now (undefined: none):
   * made as they are iterated, so that a reader of many reads turns them into objects a few at a time.
   */
  changes: Iterable<{ key: Buffer; entry: StoredEntry | undefined }>;
  /** How many keys `changes` gives. */
  count: number;
  /** Why the read stopped: entries after the reader's position were trimmed before it read them (`gap`), or the marker it read last. */
  stop: 'gap' | FeedMarker | undefined;
  /** The feed's newest id at the read. */
  end: string;
}

/** How whole-cache operations walk the segments; each bound holds by construction. */
export interface Paging {
  /** Keys a listing page looks at, at most. */
  keys: number;
  /** A page of entries stops after the entry that brings it to this many key and value bytes. */
  bytes: number;
  /** Segments whose next page is fetched ahead of the one being read (listings). */
  window: number;
  /** Segments asked at once (size, clear). */
  parallel: number;
}

export const DEFAULT_PAGING: Paging = { keys: 256, bytes: 256 * 1024, window: 8, parallel: 32 };

/** The bound of a bounded cache as it stands (a definition update may change the numbers). */
export interface EntryBounds {
  /** Entries at most; -1: no bound on their number. */
  maxCount: number;
  /** Bytes at most, each entry weighed as `entrySize` (src/model/stored-entry.ts); -1: none. */
  maxSize: number;
  /** A write past the bound is refused (`full`) rather than evicting the least recently used. */
  refuse: boolean;
}

/** A bounded cache: its one segment keeps the bound in each write's step (bounded-entry-scripts.ts). */
export interface Bounded {
  /** The bound, read at each write. */
  bounds(): EntryBounds;
  /** Live entries a write evicted to make room. */
  evicted?(count: number): void;
}

/** BOUNDED_PUT's answer when it made some room and needs to be sent again. */
const MORE_ROOM = 4;
/** REMOVE's answer when it found no live entry but an expired one, which it removed. */
const EXPIRED_REMOVED = 3;

/**
 * Expired entries the reaper removes from one segment per run, at most: a segment with more is
 * continued by the next run (docs/scale-out.md, "Entry events"), so a run is at most 256 such
 * scripts of short work, and hands this node at most 256 times this many keys.
 */
export const REAP_PER_SEGMENT = 16;

type EntryScript = 'read' | 'put' | 'remove' | 'due' | 'reap' | 'size' | 'keysPage' | 'entriesPage' | 'clearPage' | 'mark' | 'feedRead' | 'feedsRead'
  | 'boundedRead' | 'boundedPut' | 'boundedRemove' | 'boundedReap' | 'boundedClearPage';

const SCRIPTS: ScriptTable<EntryScript> = [
  ['read', READ, 4], ['put', PUT, 4], ['remove', REMOVE, 4], ['due', DUE, 1], ['reap', REAP, 3], ['size', SIZE, 2],
  ['keysPage', KEYS_PAGE, 2], ['entriesPage', ENTRIES_PAGE, 2], ['clearPage', CLEAR_PAGE, 3], ['mark', MARK, 1],
  ['feedRead', FEED_READ, 1], ['feedsRead', FEEDS_READ, 1],
  // a bounded cache's (its size and pages are the scripts above; it has no feed: bounds and indexing are not served together)
  ['boundedRead', BOUNDED_READ, 5], ['boundedPut', BOUNDED_PUT, 5], ['boundedRemove', BOUNDED_REMOVE, 5], ['boundedReap', BOUNDED_REAP, 4],
  ['boundedClearPage', BOUNDED_CLEAR_PAGE, 4],
];

/**
 * What one read of a segment's feed takes at most: feed entries, and key and value bytes (plus one
 * entry) — a catch-up reads every segment at once, so a round holds at most 256 times this.
 */
const FEED_READ_KEYS = 32;
const FEED_READ_BYTES = 8 * 1024;
/** Segments one FEEDS_READ reads, at most: one call of a master's Lua, which holds that master meanwhile. */
const FEEDS_PER_CALL = 32;

/** A write of an indexed cache goes to its segment's feed, kept at about this length. */
const fedLength = (fed: boolean | undefined): string | number => (fed ? FEED_LENGTH : '');

/**
 * The entries of one cache on a Redis Cluster (docs/scale-out.md, "Entries"), under an opaque
 * cluster-wide cache id: one script per operation, each one round trip to the master of the key's
 * segment and atomic there. Times are the caller's clock (`now`), so every node of grid applies
 * one expiry rule; whole-cache operations walk the cache's 256 segments, never the master's other keys.
 * A bounded cache (`bounded`) has one segment, and its reads, writes, removes and clears keep its
 * bound, recency and weight (docs/scale-out.md, "Bounded caches").
 */
export class RedisEntries {
  /**
   * The keys of the expired entries that scripts sent through this object removed, each told once
   * whichever node's script removed it (its expiry published to the other nodes in the same step):
   * what this node's listeners hear of them, in the order of the key's other events.
   */
  readonly expired = new Listeners<Buffer>();
  private readonly scripts: Record<EntryScript, ScriptCall>;
  private readonly readBatch: ScriptBatch;
  private readonly reapBatch: ScriptBatch;
  private readonly segments: SegmentKeys[];
  private slots: number[] | undefined;

  /**
   * `writes`: how a write is sent and made durable (`--durability power`: on clients of their own,
   * then waiting for a replica; by default on `client`, waiting for nothing); `node`: the writing node's id
   * (16 characters), published with each write's event unless a write asks for none; `bounded`:
   * the cache is bounded, which makes its layout one segment — for the cache's whole life.
   */
  constructor(private readonly client: Cluster, cacheId: string, private readonly paging: Paging = DEFAULT_PAGING,
    private readonly writes: Writes = masterWrites(client), private readonly node = '',
    private readonly bounded?: Bounded) {
    this.scripts = scriptCommands(client, 'gridEntries', SCRIPTS, true);
    this.readBatch = scriptBatch(client, 'gridEntries', 'read', true, this.scripts.read);
    this.reapBatch = scriptBatch(client, 'gridEntries', 'reap', true, this.scripts.reap);
    this.segments = segmentKeysOf(cacheId, bounded ? 1 : SEGMENTS);
  }

  /** The bound a bounded cache keeps as it stands now; undefined for an unbounded cache. */
  get bounds(): EntryBounds | undefined {
    return this.bounded?.bounds();
  }

  /** The scripts as commands of `client` (the shared one, or one `writes` hands a write). */
  private scriptsOf(client: Cluster): Record<EntryScript, ScriptCall> {
    return client === this.client ? this.scripts : scriptCommands(client, 'gridEntries', SCRIPTS, true);
  }

  /** The key's segment: by its hash, or the one segment of a bounded cache. */
  private segmentFor(key: Buffer): SegmentKeys {
    return this.segments[this.bounded ? 0 : segmentOf(key)];
  }

  /**
   * The live entry; `touch` (a read, not a peek) refreshes the idle time of an entry with max-idle,
   * and removes an expired one (`expired` hears it). `indexed`: the cache keeps a feed, which hears of such a removal.
   */
  async read(key: Buffer, now: number, touch: boolean, indexed = false): Promise<EntryRecord | undefined> {
    const segment = this.segmentFor(key);
    const args = [key, now, touch ? '1' : '0', segment.events, this.node];
    const f = await (this.bounded
      ? this.scripts.boundedRead(entryKeyOf(segment, key), segment.keys, segment.expiries, segment.recency, segment.sums, ...args)
      : this.scripts.read(entryKeyOf(segment, key), segment.keys, segment.expiries, segment.feed, ...args, fedLength(indexed))) as Array<Buffer | null> | number | null;
    if (f === 1) {
      this.expired.emit(key);
      return undefined;
    }
    return entryOf(key, f as Array<Buffer | null> | null);
  }

  /**
   * Writes the entry as given (its times are the caller's) unless `condition` holds it back — or,
   * on a bounded cache that refuses writes when full, its bound.
   */
  async write(entry: EntryRecord, now: number, condition?: WriteCondition, flags: WriteFlags = {}): Promise<WriteOutcome> {
    const segment = this.segmentFor(entry.key);
    const [kind, etag] = !condition ? ['', ''] : 'absent' in condition ? ['absent', ''] : ['unless-etag', condition.unlessEtag];
    const args = [
      entry.key, now, entry.value, entry.valueType ?? '', entry.created, entry.lastUsed, entry.lifespan, entry.maxIdle, entry.etag,
      kind, etag, segment.entryPrefix, segment.events, this.node, flags.silent ? '1' : '0',
    ];
    const done = await this.writes.run(segment.keys, entry.key.length + entry.value.length, async (client) => {
      const scripts = this.scriptsOf(client);
      if (!this.bounded) {
        const [outcome, ...expired] = await scripts.put(entryKeyOf(segment, entry.key), segment.keys, segment.expiries, segment.feed, ...args,
          fedLength(flags.indexed || flags.fed), flags.fed ? '1' : '0') as [number, ...Buffer[]];
        for (const key of expired) this.expired.emit(key);
        return outcome;
      }
      // a write that must make more room than one script may (EVICT_PER_SCRIPT) is sent again until it is done
      let outcome: number;
      do {
        const { maxCount, maxSize, refuse } = this.bounded.bounds();
        let evicted: number;
        let expired: Buffer[];
        [outcome, evicted, ...expired] = await scripts.boundedPut(entryKeyOf(segment, entry.key), segment.keys, segment.expiries, segment.recency, segment.sums,
          ...args, maxCount, maxSize, refuse ? '1' : '0') as [number, number, ...Buffer[]];
        if (evicted > 0) this.bounded.evicted?.(evicted);
        for (const key of expired) this.expired.emit(key);
      } while (outcome === MORE_ROOM);
      return outcome;
    }, (outcome) => outcome === 1 || outcome === 2);
    return done === 0 ? 'kept' : done === 1 ? 'created' : done === 2 ? 'replaced' : 'full';
  }

  /**
   * Removes the live entry — when `ifEtag` is given, only if it is the entry's ETag; an expired
   * entry it finds goes (`expired` hears it) and the answer is `absent`. `fed`: the removal goes to the cache's feed.
   */
  async remove(key: Buffer, now: number, ifEtag?: string, flags: WriteFlags = {}): Promise<RemovalOutcome> {
    const segment = this.segmentFor(key);
    const args = [key, now, ifEtag === undefined ? '0' : '1', ifEtag ?? '', segment.events, this.node, flags.silent ? '1' : '0'];
    const done = await this.writes.run(segment.keys, 0, async (client) => {
      const scripts = this.scriptsOf(client);
      return await (this.bounded
        ? scripts.boundedRemove(entryKeyOf(segment, key), segment.keys, segment.expiries, segment.recency, segment.sums, ...args)
        : scripts.remove(entryKeyOf(segment, key), segment.keys, segment.expiries, segment.feed, ...args, fedLength(flags.fed))) as number;
    }, (outcome) => outcome === 1);
    if (done === EXPIRED_REMOVED) this.expired.emit(key);
    return done === 1 ? 'removed' : done === 0 || done === EXPIRED_REMOVED ? 'absent' : 'etag-differs';
  }

  /**
   * The periodic reaper's run (docs/scale-out.md, "Entry events"): removes, in every segment, up to
   * `limit` entries whose expiry has come, each published and told to `expired` once. It asks each
   * master which of its segments hold such entries (DUE, one call), then sends REAP to those, one
   * pipeline per master, and tells each master's keys as its answer comes. Another node's reaper
   * running at once removes other keys, never the same twice; a segment with more expired entries is
   * continued by the next run. Returns how many it removed. `indexed`: the cache keeps a feed, which hears of each.
   */
  async reap(now: number, indexed = false, limit = REAP_PER_SEGMENT): Promise<number> {
    let removed = 0;
    const told = (keys: Buffer[]) => {
      removed += keys.length;
      for (const key of keys) this.expired.emit(key);
    };
    if (this.bounded) {
      const { keys, expiries, recency, sums, entryPrefix, events } = this.segments[0];
      told(await this.scripts.boundedReap(keys, expiries, recency, sums, now, limit, entryPrefix, events, this.node) as Buffer[]);
      return removed;
    }
    const due = await this.dueSegments(now);
    await this.reapBatch(due.map((s) => [s.keys, s.expiries, s.feed, now, limit, s.entryPrefix, s.events, this.node, fedLength(indexed)]), (keys) => told(keys as Buffer[]));
    return removed;
  }

  /** The segments that hold an entry whose expiry has come: one DUE per master; all of a master's segments when its call fails (slots moved). */
  private async dueSegments(now: number): Promise<SegmentKeys[]> {
    const due: SegmentKeys[] = [];
    await Promise.all(groupByMaster(this.client, this.segments.map((s) => s.expiries)).map(async (group) => {
      const names = group.map((i) => this.segments[i].expiries);
      const found = await this.scripts.due(names[0], now, ...names).catch(() => undefined) as number[] | undefined;
      if (found) for (const n of found) due.push(this.segments[group[n - 1]]);
      else for (const i of group) due.push(this.segments[i]);
    }));
    return due;
  }

  /** The event channels of the cache's segments. */
  get eventChannels(): string[] {
    return this.segments.map((s) => s.events);
  }

  /** The live entries: a count per segment from its indexes (no entry is walked). */
  async count(now: number): Promise<number> {
    return (await this.segmentCounts(now)).reduce((sum, n) => sum + n, 0);
  }

  /** The live entries of each segment, in segment order. */
  async segmentCounts(now: number): Promise<number[]> {
    const counts = new Array<number>(this.segments.length);
    await inParallel(this.segments.length, this.paging.parallel, async (s) => {
      counts[s] = await this.scripts.size(this.segments[s].keys, this.segments[s].expiries, now) as number;
    });
    return counts;
  }

  /** The hash slot of each segment, in segment order. */
  get segmentSlots(): readonly number[] {
    return this.slots ??= this.segments.map((s) => calculateSlot(s.keys));
  }

  /** The hash slot `key` lives in. */
  slotOf(key: Buffer): number {
    return calculateSlot(this.segmentFor(key).keys);
  }

  /** Every live key, segment by segment (byte order within one), a bounded page at a time. */
  keys(clock: () => number): Pages<Buffer> {
    return walkPages(this.segments.length, this.paging.window, (s, after) => this.keyPage(s, after, clock(), this.paging.keys));
  }

  /** Every live entry, as `keys` orders them, a page of bounded size at a time; no idle time is refreshed. */
  entries(clock: () => number): Pages<StoredEntry> {
    return walkPages(this.segments.length, this.paging.window, (s, after) => this.entryPage(s, after, clock(), this.paging.keys, this.paging.bytes));
  }

  /** The live keys among the `limit` keys of `segment` after `after` (undefined: from the start). */
  async keyPage(segment: number, after: Buffer | undefined, now: number, limit: number): Promise<Page<Buffer>> {
    const { keys, expiries, entryPrefix } = this.segments[segment];
    const [next, ...items] = await this.scripts.keysPage(keys, expiries, now, after ?? '', after ? '1' : '0', limit, entryPrefix) as Array<Buffer | null>;
    return { items: items as Buffer[], next: next ?? undefined };
  }

  /** The live entries among the `limit` keys of `segment` after `after`, stopping once they reach `bytes` (plus one entry). */
  async entryPage(segment: number, after: Buffer | undefined, now: number, limit: number, bytes: number): Promise<Page<StoredEntry>> {
    const { keys, expiries, entryPrefix } = this.segments[segment];
    const [next, ...flat] = await this.scripts.entriesPage(keys, expiries, now, after ?? '', after ? '1' : '0', limit, bytes, entryPrefix) as Array<Buffer | null>;
    const items: StoredEntry[] = [];
    for (let i = 0; i < flat.length; i += 7) items.push(storedEntryOf(flat[i]!, flat, i + 1));
    return { items, next: next ?? undefined };
  }

  /** Removes every entry, each segment in pages; returns how many keys it removed (expired ones included). `fed`: each page tells the feed. */
  async clear(fed = false): Promise<number> {
    let removed = 0;
    await inParallel(this.segments.length, this.paging.parallel, async (s) => {
      const { keys, expiries, recency, sums, entryPrefix, feed } = this.segments[s];
      await this.writes.run(keys, 0, async (client) => {
        const scripts = this.scriptsOf(client);
        let n: number;
        do {
          n = await (this.bounded
            ? scripts.boundedClearPage(keys, expiries, recency, sums, entryPrefix, this.paging.keys)
            : scripts.clearPage(keys, expiries, feed, entryPrefix, this.paging.keys, fedLength(fed))) as number;
          removed += n;
        } while (n === this.paging.keys); // a shorter page emptied the segment
      });
    });
    return removed;
  }

  /**
   * Where the feed of each segment ends now (a reader starting there reads every change made after
   * this), and whether it still holds every entry it ever received (none trimmed yet); one pipeline per master.
   */
  async feedEnds(): Promise<Array<{ end: FeedPosition; whole: boolean }>> {
    const replies = await this.feedReads(this.segments.map((s) => ({ feed: s.feed, after: '0-0', seen: 0, prefix: '' })), 0, 0, 0) as Array<[Buffer, number, Buffer, number]>;
    return replies.map(([end, added, , length]) => ({ end: { id: end.toString(), seen: added }, whole: added === length }));
  }

  /**
   * The changes of each segment after its `from`: at most `limit` feed entries, stopping after a
   * marker and after the entry whose key and value bring the read to `bytes`; each key with its
   * live entry now.
   */
  async readFeeds(reads: ReadonlyArray<{ segment: number; from: FeedPosition }>, now: number, limit = FEED_READ_KEYS, bytes = FEED_READ_BYTES): Promise<FeedRead[]> {
    const replies = await this.feedReads(reads.map(({ segment, from }) => ({ feed: this.segments[segment].feed, after: from.id, seen: from.seen, prefix: this.segments[segment].entryPrefix })),
      limit, now, bytes);
    return replies.map((reply, i) => feedReadOf(reads[i].from, reply as Array<Buffer | number | null>));
  }

  /**
   * Reads of many feeds: one FEEDS_READ per master for up to FEEDS_PER_CALL of its segments, where a
   * read each would be a command each; the reads of a call that fails (slots moved since the client
   * learned them) are made one by one.
   */
  private async feedReads(reads: Array<{ feed: string; after: string; seen: number; prefix: Buffer | string }>, limit: number, now: number, bytes: number): Promise<unknown[]> {
    const answers = new Array<unknown>(reads.length);
    await Promise.all(groupByMaster(this.client, reads.map((r) => r.feed), FEEDS_PER_CALL).map(async (group) => {
      const args = group.flatMap((i) => [reads[i].feed, reads[i].after, reads[i].seen, reads[i].prefix]);
      const replies = await this.scripts.feedsRead(reads[group[0]].feed, limit, now, bytes, ...args).catch(() => undefined) as unknown[] | undefined;
      await Promise.all(group.map(async (i, n) => {
        const { feed, after, seen, prefix } = reads[i];
        answers[i] = replies ? replies[n] : await this.scripts.feedRead(feed, after, seen, limit, now, bytes, prefix);
      }));
    }));
    return answers;
  }

  /** The live entries of `keys` (a peek: no idle time refreshed); one pipeline per master. */
  async readMany(keys: Buffer[], now: number): Promise<Array<EntryRecord | undefined>> {
    const replies = await this.readBatch(keys.map((key) => {
      const segment = this.segmentFor(key);
      return [entryKeyOf(segment, key), segment.keys, segment.expiries, segment.feed, key, now, '0', segment.events, this.node, ''];
    }));
    return replies.map((f, i) => entryOf(keys[i], f as Array<Buffer | null> | null));
  }

  /** Puts `marker` in every segment's feed: every node's index reads it in order with the segment's changes. */
  async mark(marker: 'r' | 'x'): Promise<void> {
    await inParallel(this.segments.length, this.paging.parallel, async (s) => {
      await this.scripts.mark(this.segments[s].feed, FEED_LENGTH, marker);
    });
  }

  /** Deletes the feeds (the cache was removed). */
  async dropFeeds(): Promise<void> {
    await inParallel(this.segments.length, this.paging.parallel, async (s) => {
      await this.client.unlink(this.segments[s].feed).catch(engineFailure);
    });
  }
}

/**
 * The entry `key` whose fields — value, type|nil, created, lastUsed, lifespan, maxIdle, as the
 * scripts answer them (entry-scripts.ts) — start at `f[at]`.
 */
function storedEntryOf(key: Buffer, f: ReadonlyArray<Buffer | null>, at: number): StoredEntry {
  return {
    key, value: f[at]!, valueType: f[at + 1] && f[at + 1]!.toString(), created: Number(f[at + 2]), lastUsed: Number(f[at + 3]),
    lifespan: Number(f[at + 4]), maxIdle: Number(f[at + 5]),
  };
}

/** The entry of a READ answer (undefined: none live): its fields, then its ETag. */
function entryOf(key: Buffer, f: Array<Buffer | null> | null): EntryRecord | undefined {
  return f ? { ...storedEntryOf(key, f, 0), etag: f[6]!.toString() } : undefined;
}

/** A FEED_READ answer (entry-scripts.ts) of a reader that stood at `from`. */
function feedReadOf(from: FeedPosition, [end, added, last, read, stop, ...flat]: Array<Buffer | number | null>): FeedRead {
  const tail = (end as Buffer).toString();
  const stopped = (stop as Buffer).toString();
  if (stopped === 'gap') return { next: { id: tail, seen: added as number }, changes: [], count: 0, stop: 'gap', end: tail };
  const n = read as number;
  return {
    next: n === 0 ? from : { id: (last as Buffer).toString(), seen: from.seen + n },
    changes: changesOf(flat as Array<Buffer | null>), count: flat.length / 7, stop: stopped === '' ? undefined : stopped as FeedMarker, end: tail,
  };
}

function* changesOf(f: Array<Buffer | null>): Generator<{ key: Buffer; entry: StoredEntry | undefined }> {
  for (let i = 0; i < f.length; i += 7) {
    const key = f[i]!;
    yield { key, entry: f[i + 1] ? storedEntryOf(key, f, i + 1) : undefined };
  }
}

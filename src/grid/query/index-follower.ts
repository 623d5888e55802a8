import { compareEventIds } from '../../model/event-id';
import type { FeedMarker, FeedPosition, FeedRead } from '../../store/redis/redis-entries';
import type { Clock } from '../../util/clock';
import type { Logger } from '../../util/logger';
import type { SharedContent } from '../cache-data';
import type { CacheIndex, IndexSync } from './cache-index';
import { TimeSlice } from './time-slice';

/** Keys applied in one turn of the event loop, at most (see `apply`). */
const APPLY_PER_TURN = 64;
/** While queries use the index, it catches up in the background this often, so that a query finds little to apply. */
export const TRICKLE_EVERY_MS = 2_000;
/** ... as long as a query used it within this time; an index nobody queries is left until the next query. */
const TRICKLE_WHILE_USED_MS = 10 * 60_000;
/**
 * How often, at most, the documents of expired entries are removed: an expiry reaches the feed only
 * when a script finds the entry expired (docs/scale-out.md, "Entry events"), which may be well after it expired.
 */
const PURGE_EVERY_MS = 60_000;

interface Waiter {
  /** The catch-up's number: a pass that starts after it was asked serves it. */
  n: number;
  resolve(): void;
  reject(err: unknown): void;
}

/**
 * Keeps this node's index of a cache on the redis engine in step with the writes of every node
 * (docs/scale-out.md, "Queries"). Each write of an indexed cache also appends its key to its
 * segment's feed, in the same script; the follower remembers where it stands in each of the 256
 * feeds and, when asked to catch up, reads every feed from there and puts each key's entry *as it
 * is now* into the index, or removes its document when there is none. It applies states, not
 * changes, so the order in which the segments are read does not matter: the index converges on
 * what the cluster holds.
 *
 * A catch-up is served by a pass that starts after it was asked for, so a query that catches up
 * first sees every write acknowledged before it began; the catch-ups asked for while a pass runs
 * share the next one. The first pass builds the index (`build`). A feed trimmed past this node's
 * place (the node fell more than `FEED_LENGTH` changes of one segment behind), a cleared cache and
 * a reindex asked for on any node rebuild it from every entry; an index clear asked for on any node
 * empties it.
 */
export class IndexFollower implements IndexSync {
  /** Where this node's index stands in each segment's feed; undefined until it is built. */
  private positions: FeedPosition[] | undefined;
  private asked = 0;
  private waiters: Waiter[] = [];
  private running = false;
  private stopped = false;
  private purgedAt: number;
  private appliedThisTurn = 0;
  /** When a query last asked for a catch-up. */
  private usedAt = -Infinity;

  /** `index`: the cache's index, replaced when the cache's definition changes (the positions stay). */
  constructor(public index: CacheIndex, private readonly shared: SharedContent, private readonly clock: Clock, private readonly log?: Logger) {
    this.purgedAt = clock.now();
  }

  catchUp(): Promise<void> {
    this.usedAt = this.clock.now();
    return this.passAfterNow();
  }

  /**
   * A catch-up in the background, while queries use the index: the changes a query must apply first
   * are then those of the last moments, and a node that queries a busy cache does not fall so far
   * behind that it must rebuild (docs/scale-out.md, "Queries").
   */
  trickle(): void {
    if (this.running || this.clock.now() - this.usedAt > TRICKLE_WHILE_USED_MS) return;
    this.passAfterNow().catch((err: unknown) => this.log?.debug({ cache: this.index.cache.name, err: (err as Error).message }, 'query index did not catch up in the background'));
  }

  private passAfterNow(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    const n = ++this.asked;
    const caught = new Promise<void>((resolve, reject) => this.waiters.push({ n, resolve, reject }));
    if (!this.running) void this.run();
    return caught;
  }

  /** A marker in every feed: each node rebuilds its index when its follower reads it, this one before this resolves. */
  async reindex(): Promise<void> {
    await this.shared.mark('r');
    await this.catchUp();
  }

  async clear(): Promise<void> {
    await this.shared.mark('x');
    await this.catchUp();
  }

  /**
   * The index built from the cluster, in the background: when the follower starts (this node's
   * start, a cache created or adopted: the first query need not wait for it all), and when writes
   * to the index were lost (they could not be applied).
   */
  startOver(): void {
    this.positions = undefined;
    this.passAfterNow().catch((err: unknown) => this.log?.warn({ cache: this.index.cache.name, err: (err as Error).message }, 'query index not rebuilt: the next query rebuilds it'));
  }

  /** The cache is gone or no longer indexed: no pass starts any more. */
  stop(): void {
    this.stopped = true;
  }

  private async run(): Promise<void> {
    this.running = true;
    try {
      while (this.waiters.length > 0) {
        const covered = this.asked;
        let failure: { err: unknown } | undefined;
        try {
          await this.pass();
        } catch (err) {
          failure = { err };
        }
        const served = this.waiters.filter((w) => w.n <= covered);
        this.waiters = this.waiters.filter((w) => w.n > covered);
        for (const w of served) {
          if (failure) w.reject(failure.err);
          else w.resolve();
        }
      }
    } finally {
      this.running = false;
    }
  }

  private async pass(): Promise<void> {
    if (this.stopped) return;
    if (!this.positions) await this.build();
    for (;;) {
      const { gap, markers } = await this.readFeeds();
      if (this.stopped) return;
      if (markers.has('x')) await this.index.clearHere();
      if (gap || markers.has('c') || markers.has('r')) await this.rebuild(gap ? 'the index fell behind the feed of changes' : markers.has('c') ? 'the cache was cleared' : 'a reindex was asked for');
      // a segment stops at its marker: what follows it is read in another round
      if (markers.size === 0) break;
    }
    const now = this.clock.now();
    if (now - this.purgedAt >= PURGE_EVERY_MS) {
      this.purgedAt = now;
      this.index.apply({ kind: 'purgeExpired', now });
    }
  }

  /**
   * While every feed still holds every change it received (a cache that had at most `FEED_LENGTH`
   * changes in each segment), the index is the feeds read from their start: writes that asked to
   * stay out of the index (SKIP_INDEXING) stay out, as on the node that made them. Else: where every
   * feed ends, then every entry — whatever is written meanwhile is in the feeds after those places.
   */
  private async build(): Promise<void> {
    const ends = await this.shared.feedEnds();
    if (ends.every((e) => e.whole)) {
      await this.index.clearHere();
      this.positions = ends.map(() => ({ id: '0-0', seen: 0 }));
      return;
    }
    this.positions = ends.map((e) => e.end);
    await this.rebuild('the feeds no longer hold every change');
  }

  private async rebuild(reason: string): Promise<void> {
    const started = performance.now();
    this.log?.info({ cache: this.index.cache.name, reason }, 'rebuilding the query index from the entries');
    try {
      await this.index.rebuildHere(true);
    } catch (err) {
      // what the feeds said before is not in the index: the next pass builds it again
      this.positions = undefined;
      throw err;
    }
    this.log?.info({ cache: this.index.cache.name, ms: Math.round(performance.now() - started) }, 'query index rebuilt');
  }

  /**
   * Every feed read from this node's place up to where it ended at its first read, each key's
   * entry applied: all segments at once, then again those with more to read. A feed stops early at
   * a marker or a gap (its place then jumps to its end).
   */
  private async readFeeds(): Promise<{ gap: boolean; markers: Set<FeedMarker> }> {
    const positions = this.positions!;
    const markers = new Set<FeedMarker>();
    let gap = false;
    const slice = new TimeSlice();
    const ends = new Map<number, string>();
    let pending = positions.map((_, segment) => segment);
    while (pending.length > 0) {
      const reads = await this.shared.readFeeds(pending.map((segment) => ({ segment, from: positions[segment] })));
      if (this.stopped) break;
      const more: number[] = [];
      for (const [i, read] of reads.entries()) {
        const segment = pending[i];
        if (read.stop === 'gap') {
          gap = true;
          positions[segment] = read.next;
          continue;
        }
        await this.apply(read, slice);
        positions[segment] = read.next;
        if (read.stop) {
          markers.add(read.stop);
          continue;
        }
        if (!ends.has(segment)) ends.set(segment, read.end);
        if (read.count > 0 && compareEventIds(read.next.id, ends.get(segment)!) < 0) more.push(segment);
      }
      pending = more;
    }
    return { gap, markers };
  }

  /**
   * Each key's entry as the read found it: its document written, or removed when the entry is gone.
   * The index database writes what a turn applied in one transaction, when the turn ends: a turn
   * applies APPLY_PER_TURN keys at most, so that transaction stays short too.
   */
  private async apply(read: FeedRead, slice: TimeSlice): Promise<void> {
    for (const { key, entry } of read.changes) {
      this.index.apply(entry ? { kind: 'put', entry, memoryOnly: false } : { kind: 'remove', key });
      if (++this.appliedThisTurn >= APPLY_PER_TURN || slice.due()) {
        await slice.pause();
        this.appliedThisTurn = 0;
      }
    }
  }
}

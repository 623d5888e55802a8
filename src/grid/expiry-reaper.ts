import type { Clock } from '../util/clock';
import type { Listeners } from '../util/listeners';
import type { Commit } from '../store/store';
import { type CacheEntry, isExpired } from './cache-entry';
import type { IndexFeed } from './content-index';
import type { EntryEvent } from './entry-events';
import type { EntryTiers } from './entry-tiers';
import { idOf } from './memory-tier';

/**
 * Expired store rows the reaper reads per step when listeners must hear of each (one indexed
 * statement; the next step waits for this one's deletions to commit).
 */
const REAP_BATCH = 500;

/**
 * The periodic removal of one cache's expired entries (the container runs it at the cache's
 * `expiration.interval`): from memory at once, then from the store. Listeners hear
 * `cache-entry-expired` for each, also for entries only the store held, which are then read in
 * bounded batches; without listeners the store's expired rows go in one statement, read by nobody.
 */
export class ExpiryReaper {
  /** A pass over the store's expired rows with events is under way (see `reapStore`). */
  private reapingStore = false;

  constructor(
    private readonly tiers: EntryTiers,
    private readonly listeners: Listeners<EntryEvent>,
    private readonly index: IndexFeed,
    private readonly clock: Clock,
  ) {}

  /** One run: the entries removed from memory (the store's follow, asynchronously with listeners). */
  run(): number {
    const now = this.clock.now();
    const memory = this.tiers.memory;
    const persistent = this.tiers.persistent;
    const notify = this.listeners.size > 0;
    const expired: CacheEntry[] = [];
    // a cache may reap every few ms (its expiration.interval): with no mortal entry in memory there is nothing to walk
    if (memory.mortalCount > 0) for (const [, e] of memory.entries()) if (isExpired(e, now)) expired.push(e);
    for (const e of expired) {
      const id = idOf(e.key);
      memory.delete(id);
      if (!persistent) this.index.apply({ kind: 'remove', key: e.key });
      if (!notify) continue;
      // its store row goes now: the pass over the store then skips it (in flight), no second event
      if (persistent) this.tiers.deleteStored(id, e.key);
      this.listeners.emit({ type: 'cache-entry-expired', key: e.key });
    }
    if (persistent) {
      this.index.apply({ kind: 'purgeExpired', now });
      // a pass cut short (the store closing at shutdown, a failed commit) is taken up by the next run
      if (notify) this.reapStore(now).catch(() => undefined);
      // one indexed look first: a purge is a write, and a commit (with its fsync) per run for nothing would add up
      else if (this.tiers.expiredStoreKeys(now, 1).length) this.tiers.purgeExpired(now);
    }
    return expired.length;
  }

  /**
   * The store's expired rows, a bounded batch at a time, each deleted with its event. A row is left
   * alone while a write of its key is not committed (that write decides) or while memory holds its
   * entry alive (max-idle refreshed there). Each batch waits for the previous one's deletions to
   * commit; a batch that deletes nothing ends the pass.
   */
  private async reapStore(now: number): Promise<void> {
    if (this.reapingStore) return;
    this.reapingStore = true;
    const memory = this.tiers.memory;
    try {
      for (;;) {
        if (this.tiers.writes.clearPending) return;
        const keys = this.tiers.expiredStoreKeys(now, REAP_BATCH);
        let last: Commit | undefined;
        for (const key of keys) {
          const id = idOf(key);
          if (this.tiers.writes.has(id)) continue;
          const held = memory.peek(id);
          if (held && !isExpired(held, now)) continue;
          if (held) memory.delete(id);
          last = this.tiers.deleteStored(id, key);
          if (this.listeners.size) this.listeners.emit({ type: 'cache-entry-expired', key });
        }
        if (!last || keys.length < REAP_BATCH) return;
        await last.promise.catch(() => undefined);
      }
    } finally {
      this.reapingStore = false;
    }
  }
}

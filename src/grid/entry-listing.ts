import type { Clock } from '../util/clock';
import { inSlices } from '../util/slices';
import { EntryPageCursor, type KeyRow, ROW_EXPIRED, ROW_VALUE_OMITTED, type StoredEntry } from '../store/store';
import { type CacheEntry, isExpired, isMortal, type ScannedEntry, WholeEntry } from './cache-entry';
import type { EntryTiers } from './entry-tiers';
import { idOf } from './memory-tier';

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
 * One cache's live entries walked over both tiers, for listings, scans and counts: memory first
 * when it holds entries the store does not (see `EntryTiers.memoryIsTruth`), then the store in key
 * order, a bounded page per statement, so that no step holds the event loop long however big the
 * cache or its values. Callers wait for `Cache.settled()` first, so the store's rows are the
 * cache's.
 */
export class EntryListing {
  /**
   * `peek` is the cache's: a row the store says expired may be alive in memory (max-idle refreshed
   * there since the write).
   */
  constructor(private readonly tiers: EntryTiers, private readonly clock: Clock, private readonly peek: (key: Buffer) => CacheEntry | undefined) {}

  /** How many live entries; memory is counted in slices, so a large cache never holds other requests up. */
  async count(): Promise<number> {
    const now = this.clock.now();
    let n = 0;
    if (this.tiers.memoryIsTruth) await inSlices(this.tiers.memory.entries(), ([, e]) => { if (!isExpired(e, now)) n++; });
    if (this.tiers.persistent) n += await this.tiers.store.entries.count(this.tiers.cacheId, now);
    return n;
  }

  /**
   * Entries in memory that have not expired: the memory size itself while no entry held there can
   * expire; else the tier is walked in slices, and only until every mortal entry was seen.
   */
  async liveMemoryCount(): Promise<number> {
    const memory = this.tiers.memory;
    if (memory.mortalCount === 0) return memory.size;
    const now = this.clock.now();
    let mortal = memory.mortalCount;
    let expired = 0;
    await inSlices(untilSeen(memory.entries(), () => mortal > 0), ([, e]) => {
      if (!isMortal(e)) return;
      mortal--;
      if (isExpired(e, now)) expired++;
    });
    return Math.max(0, memory.size - expired);
  }

  /**
   * Every live entry. Memory is walked in place, without a copy (see `MemoryTier.walk`); the store
   * in key order, its keys a page at a time from the keys index and each value read on its own, so
   * no step reads more than one value, however large the values (a page of 1,000 rows of 1 MB once
   * held the event loop for 10 s).
   */
  *entries(): Generator<StoredEntry> {
    const now = this.clock.now();
    const { memory, memoryIsTruth } = this.tiers;
    if (memoryIsTruth) {
      for (const e of memory.walk()) if (!isExpired(e, now)) yield e;
    }
    if (!this.tiers.persistent) return;
    for (const row of this.storeKeys(now, memoryIsTruth)) {
      const e = memory.peek(idOf(row.key)) ?? this.tiers.store.entries.find(this.tiers.cacheId, row.key);
      if (e && !isExpired(e, now)) yield e;
    }
  }

  /** The live entries memory holds, walked in place. */
  *memoryEntries(): Generator<StoredEntry> {
    const now = this.clock.now();
    for (const e of this.tiers.memory.walk()) if (!isExpired(e, now)) yield e;
  }

  /** Every live key, as `entries` gives them, without reading a value of the store. */
  *keys(): Generator<Buffer> {
    const now = this.clock.now();
    const { memory, memoryIsTruth } = this.tiers;
    if (memoryIsTruth) {
      for (const e of memory.walk()) if (!isExpired(e, now)) yield e.key;
    }
    if (!this.tiers.persistent) return;
    for (const row of this.storeKeys(now, memoryIsTruth)) yield row.key;
  }

  /**
   * Every live entry, for queries: a persistent cache's rows come a packed page at a time, each row
   * a view into the page, so a scan allocates per page rather than per entry. A write-through
   * cache's committed rows are the whole content; a passivating cache adds the rows of entries not
   * in memory.
   */
  *scan(): Generator<ScannedEntry> {
    const now = this.clock.now();
    const { memory, memoryIsTruth, store, cacheId } = this.tiers;
    const whole = new WholeEntry();
    if (memoryIsTruth) {
      for (const e of memory.walk()) if (!isExpired(e, now)) yield whole.of(e.key, e.value);
    }
    if (!this.tiers.persistent) return;
    let after: Buffer = Buffer.alloc(0);
    let rows = FIRST_SCAN_PAGE;
    for (;;) {
      const page = store.entries.scanPage(cacheId, after, now, rows);
      if (!page) return;
      const row = new EntryPageCursor(page.bytes);
      while (row.advance()) {
        if (memoryIsTruth && memory.peek(row.keyId())) continue;
        if (row.flags & ROW_EXPIRED && !this.peek(row.key())) continue; // max-idle may be refreshed in memory since the write
        if (!(row.flags & ROW_VALUE_OMITTED)) yield row;
        else {
          const stored = store.entries.find(cacheId, row.key());
          if (stored) yield whole.of(stored.key, stored.value);
        }
      }
      if (page.count < rows) return;
      after = page.lastKey;
      rows = Math.max(MIN_SCAN_PAGE, Math.min(MAX_SCAN_PAGE, Math.floor((SCAN_PAGE_BYTES * page.count) / page.bytes.length)));
    }
  }

  /**
   * The store's keys of live entries: by their stored expiry, or by memory's copy, whose max-idle
   * may have been refreshed since the write; `skipHeld` leaves out keys memory holds (already walked).
   */
  private *storeKeys(now: number, skipHeld: boolean): Generator<KeyRow> {
    const memory = this.tiers.memory;
    let after: Buffer = Buffer.alloc(0);
    for (;;) {
      const page = this.tiers.store.entries.listKeys(this.tiers.cacheId, after, KEY_PAGE);
      for (const row of page) {
        const held = memory.peek(idOf(row.key));
        if (held ? skipHeld || isExpired(held, now) : row.expiresAt !== null && row.expiresAt <= now) continue;
        yield row;
      }
      if (page.length < KEY_PAGE) return;
      after = page[page.length - 1].key;
    }
  }
}

/** The items of `items` while `more()` holds (checked before each). */
function* untilSeen<T>(items: Iterable<T>, more: () => boolean): Generator<T> {
  for (const item of items) {
    if (!more()) return;
    yield item;
  }
}

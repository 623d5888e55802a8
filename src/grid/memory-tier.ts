import { entrySize } from '../model/stored-entry';
import { type CacheEntry, isMortal } from './cache-entry';

export interface MemoryLimits {
  /** -1 = unbounded */
  maxCount: number;
  /** bytes, -1 = unbounded */
  maxSize: number;
}

const NONE: CacheEntry[] = [];

/** The id the memory tier files a key under: its bytes as latin1, one character per byte. */
export function idOf(key: Buffer): string {
  return key.toString('latin1');
}

/**
 * The in-memory entries of one cache, keyed by the key's bytes. A JS Map keeps insertion order,
 * so re-inserting on access makes its first key the least recently used one: eviction takes from
 * the front. Unbounded tiers skip the re-insertion.
 */
export class MemoryTier {
  private readonly map = new Map<string, CacheEntry>();
  private bytes = 0;
  /** Entries with a lifespan or max-idle: only while there are some can an entry held here be expired. */
  private mortal = 0;
  /** Walks under way: while there is one, entries keep their place (see `walk`). */
  private walking = 0;
  /**
   * Where eviction goes on from: a live iterator over the map. Everything it passed was evicted, so
   * it stays at the front; a fresh iterator would first step over every hole the deletions left
   * there (V8 compacts the table only now and then), which made each eviction cost O(n).
   */
  private cursor: IterableIterator<[string, CacheEntry]> | undefined;

  constructor(private limits: MemoryLimits) {}

  get bounded(): boolean {
    return this.limits.maxCount >= 0 || this.limits.maxSize >= 0;
  }

  get size(): number {
    return this.map.size;
  }

  get mortalCount(): number {
    return this.mortal;
  }

  get usedBytes(): number {
    return this.bytes;
  }

  setLimits(limits: MemoryLimits): CacheEntry[] {
    this.limits = limits;
    return this.evictOverflow();
  }

  /** Reads without changing recency. */
  peek(id: string): CacheEntry | undefined {
    return this.map.get(id);
  }

  /** Reads and marks as most recently used. */
  get(id: string): CacheEntry | undefined {
    const e = this.map.get(id);
    if (e && this.bounded && this.walking === 0) {
      this.map.delete(id);
      this.map.set(id, e);
    }
    return e;
  }

  /** True when adding `incoming` (replacing what `id` holds) would pass a limit. */
  wouldOverflow(id: string, incoming: CacheEntry): boolean {
    const old = this.map.get(id);
    const count = this.map.size + (old ? 0 : 1);
    const bytes = this.bytes + entrySize(incoming) - (old ? entrySize(old) : 0);
    return (this.limits.maxCount >= 0 && count > this.limits.maxCount) || (this.limits.maxSize >= 0 && bytes > this.limits.maxSize);
  }

  /** Stores the entry; returns the least recently used entries evicted to stay within limits. */
  set(id: string, e: CacheEntry): CacheEntry[] {
    const old = this.map.get(id);
    if (old) this.forget(old);
    this.count(e);
    if (!this.bounded) {
      // replaced in place: without a limit the order means nothing, and a Map that deletes and
      // re-adds keys keeps rehashing itself (a tenth of a PUT's time with 10k keys)
      this.map.set(id, e);
      return NONE;
    }
    if (this.limits.maxSize >= 0 && entrySize(e) > this.limits.maxSize) {
      // heavier than the whole tier: evicted at once and the others kept, as the original's memory
      // container (Caffeine) does, rather than evicting everything else to make room for it
      if (old) this.map.delete(id);
      this.forget(e);
      return [e];
    }
    if (old && this.walking === 0) this.map.delete(id); // to the back: most recently used
    this.map.set(id, e);
    return this.evictOverflow(id);
  }

  delete(id: string): CacheEntry | undefined {
    const old = this.map.get(id);
    if (!old) return undefined;
    this.map.delete(id);
    this.forget(old);
    return old;
  }

  clear(): void {
    this.map.clear();
    this.bytes = 0;
    this.mortal = 0;
    this.cursor = undefined;
  }

  entries(): IterableIterator<[string, CacheEntry]> {
    return this.map.entries();
  }

  /**
   * Every entry, walked live without a copy. A Map iterator sees an entry again when it is deleted
   * and set anew, as recency updates do; so while a walk is under way reads leave entries where
   * they are and rewrites replace them in place. Each entry is then seen once — in its state when
   * the walk reaches it — and the order of eviction is only approximately LRU meanwhile.
   */
  *walk(): Generator<CacheEntry> {
    this.walking++;
    try {
      yield* this.map.values();
    } finally {
      this.walking--;
    }
  }

  private over(): boolean {
    return (this.limits.maxCount >= 0 && this.map.size > this.limits.maxCount) || (this.limits.maxSize >= 0 && this.bytes > this.limits.maxSize);
  }

  /** Evicts least recently used entries until within limits, never `keep` (the entry just stored, the newest). */
  private evictOverflow(keep?: string): CacheEntry[] {
    if (!this.over()) return NONE;
    const evicted: CacheEntry[] = [];
    let restarted = false;
    while (this.over()) {
      this.cursor ??= this.map.entries();
      const next = this.cursor.next();
      if (next.done) {
        this.cursor = undefined;
        if (restarted) break;
        restarted = true;
        continue;
      }
      const [id, e] = next.value;
      if (id === keep) {
        // replaced in place during a walk, the newest may sit anywhere: step over it
        if (this.walking > 0) continue;
        this.cursor = undefined; // only the newest is left
        break;
      }
      this.map.delete(id);
      this.forget(e);
      evicted.push(e);
    }
    return evicted;
  }

  private count(e: CacheEntry): void {
    this.bytes += entrySize(e);
    if (isMortal(e)) this.mortal++;
  }

  private forget(e: CacheEntry): void {
    this.bytes -= entrySize(e);
    if (isMortal(e)) this.mortal--;
  }
}

/** The counters at one moment, as plain numbers (what the statistics answers are made of). */
export interface StatsSnapshot {
  readonly hits: number;
  readonly misses: number;
  readonly retrievals: number;
  readonly stores: number;
  readonly removeHits: number;
  readonly removeMisses: number;
  readonly evictions: number;
  readonly readNanos: number;
  readonly writeNanos: number;
  readonly removeNanos: number;
  readonly startedAt: number;
  readonly resetAt: number;
}

/**
 * Counters of one cache, or of the whole container (the parent every cache reports to as well);
 * reported as -1 when statistics are off. Resetting one level leaves the other alone.
 */
export class CacheStats {
  hits = 0;
  misses = 0;
  stores = 0;
  removeHits = 0;
  removeMisses = 0;
  evictions = 0;
  readNanos = 0;
  writeNanos = 0;
  removeNanos = 0;
  readonly startedAt: number;
  resetAt: number;

  constructor(now: number, private readonly parent?: CacheStats) {
    this.startedAt = now;
    this.resetAt = now;
  }

  get retrievals(): number {
    return this.hits + this.misses;
  }

  snapshot(): StatsSnapshot {
    const { hits, misses, retrievals, stores, removeHits, removeMisses, evictions, readNanos, writeNanos, removeNanos, startedAt, resetAt } = this;
    return { hits, misses, retrievals, stores, removeHits, removeMisses, evictions, readNanos, writeNanos, removeNanos, startedAt, resetAt };
  }

  read(hit: boolean, nanos: number): void {
    if (hit) this.hits++;
    else this.misses++;
    this.readNanos += nanos;
    this.parent?.read(hit, nanos);
  }

  write(nanos: number): void {
    this.stores++;
    this.writeNanos += nanos;
    this.parent?.write(nanos);
  }

  remove(hit: boolean, nanos: number): void {
    if (hit) this.removeHits++;
    else this.removeMisses++;
    this.removeNanos += nanos;
    this.parent?.remove(hit, nanos);
  }

  evicted(): void {
    this.evictions++;
    this.parent?.evicted();
  }

  reset(now: number): void {
    this.hits = this.misses = this.stores = this.removeHits = this.removeMisses = this.evictions = 0;
    this.readNanos = this.writeNanos = this.removeNanos = 0;
    this.resetAt = now;
  }
}

/** Counters of one cache (or the whole container); reported as -1 when statistics are off. */
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

  constructor(now: number) {
    this.startedAt = now;
    this.resetAt = now;
  }

  get retrievals(): number {
    return this.hits + this.misses;
  }

  reset(now: number): void {
    this.hits = this.misses = this.stores = this.removeHits = this.removeMisses = this.evictions = 0;
    this.readNanos = this.writeNanos = this.removeNanos = 0;
    this.resetAt = now;
  }
}

/** One kind of query's timings as figures (what a node tells another: docs/scale-out.md, "Cluster-wide statistics"). */
export interface TimingFigures {
  readonly count: number;
  readonly totalNs: number;
  /** -1 before anything was recorded; 0 after a clear. */
  readonly maxNs: number;
  /** The query that took `maxNs`, when known. */
  readonly slowest?: string;
}

/** A cache's query statistics as figures, per execution kind. */
export interface QueryFigures {
  readonly indexed: TimingFigures;
  readonly hybrid: TimingFigures;
  readonly nonIndexed: TimingFigures;
  readonly entityLoad: TimingFigures;
  readonly entitiesLoaded: number;
}

/** One kind of query's timings, as `search/stats` reports them (docs/reference/query.md#search-admin), in nanoseconds. */
export class TimingStats implements TimingFigures {
  count = 0;
  totalNs = 0;
  /** -1 before anything was recorded; 0 after a clear, as the original. */
  maxNs = -1;
  slowest: string | undefined;

  record(ns: number, query?: string): void {
    this.count++;
    this.totalNs += ns;
    if (ns > this.maxNs) {
      this.maxNs = ns;
      if (query !== undefined) this.slowest = query;
    }
  }

  clear(): void {
    this.count = 0;
    this.totalNs = 0;
    this.maxNs = 0;
    this.slowest = undefined;
  }

  get averageNs(): number {
    return this.count ? this.totalNs / this.count : 0;
  }
}

/** Query statistics of one cache: per execution kind, plus the loading of entities for hits. */
export class QueryStatistics implements QueryFigures {
  readonly indexed = new TimingStats();
  readonly hybrid = new TimingStats();
  readonly nonIndexed = new TimingStats();
  readonly entityLoad = new TimingStats();
  /** Entities loaded for hits (`objects_loaded_count` of the deprecated statistics). */
  entitiesLoaded = 0;

  clear(): void {
    for (const t of [this.indexed, this.hybrid, this.nonIndexed, this.entityLoad]) t.clear();
    this.entitiesLoaded = 0;
  }
}

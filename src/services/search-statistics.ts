import type { QueryFigures, TimingFigures } from '../grid/query/query-stats';

/** An index's counts on one node, per configured entity (0 when none are indexed yet). */
export interface IndexStatistics {
  types: Array<{ name: string; count: number; size: number }>;
  reindexing: boolean;
  entityIndexingFailures: number;
}

/** A cache's search statistics on one node: its query timings and its index's counts (`GET search/stats`). */
export interface SearchStatistics {
  query: QueryFigures;
  index: IndexStatistics;
}

/**
 * The search statistics of several nodes as one, as the original's `scope=cluster` merges them
 * (docs/scale-out.md, "Cluster-wide statistics"): per query kind the counts and total times summed
 * and the largest time kept with its query; entities loaded summed; per indexed type the document
 * counts and sizes summed (each node's index holds every entry); failures summed; reindexing while
 * any node is.
 */
export function combineSearchStatistics(nodes: readonly SearchStatistics[]): SearchStatistics {
  const queries = nodes.map((n) => n.query);
  const kind = (pick: (q: QueryFigures) => TimingFigures) => combineTimings(queries.map(pick));
  const types = new Map<string, { name: string; count: number; size: number }>();
  for (const t of nodes.flatMap((n) => n.index.types)) {
    const seen = types.get(t.name);
    if (seen) {
      seen.count += t.count;
      seen.size += t.size;
    } else {
      types.set(t.name, { ...t });
    }
  }
  return {
    query: {
      indexed: kind((q) => q.indexed), hybrid: kind((q) => q.hybrid), nonIndexed: kind((q) => q.nonIndexed), entityLoad: kind((q) => q.entityLoad),
      entitiesLoaded: queries.reduce((n, q) => n + q.entitiesLoaded, 0),
    },
    index: {
      types: [...types.values()],
      reindexing: nodes.some((n) => n.index.reindexing),
      entityIndexingFailures: nodes.reduce((n, s) => n + s.index.entityIndexingFailures, 0),
    },
  };
}

function combineTimings(timings: readonly TimingFigures[]): TimingFigures {
  const slowest = timings.reduce((a, b) => (b.maxNs > a.maxNs ? b : a));
  return {
    count: timings.reduce((n, t) => n + t.count, 0),
    totalNs: timings.reduce((n, t) => n + t.totalNs, 0),
    maxNs: slowest.maxNs,
    slowest: slowest.slowest,
  };
}

import { CacheNotIndexedError, CacheStatisticsDisabledError, IndexedEntityError } from '../errors';
import type { CacheIndex } from '../grid/query/cache-index';
import type { Indexing } from '../grid/query/indexing';
import type { QueryEngine } from '../grid/query/query-engine';
import type { QueryFigures, QueryStatistics, TimingFigures } from '../grid/query/query-stats';
import type { EntityModel } from '../model/ickle/entity-model';
import type { IndexTypeStats } from '../store/store';
import { type CacheView, handleOf } from './cache-view';
import type { IndexStatistics, SearchStatistics } from './search-statistics';

export type { QueryStatistics, TimingFigures } from '../grid/query/query-stats';
export type { IndexStatistics } from './search-statistics';

/** The search admin resource (docs/reference/query.md#search-admin): reindex, clear, updateSchema, metamodel, statistics. */
export class SearchAdminService {
  constructor(private readonly indexing: Indexing, private readonly engine: QueryEngine) {}

  /** Rebuilds the index from the cache's entries; `async` starts it and returns at once. */
  async reindex(cache: CacheView, async: boolean): Promise<void> {
    const rebuilt = this.indexOf(cache).reindex();
    if (async) {
      rebuilt.catch(() => undefined);
      return;
    }
    await rebuilt;
  }

  /** Empties the index; the entries stay. */
  async clear(cache: CacheView): Promise<void> {
    await this.indexOf(cache).clear();
  }

  /**
   * Fields added to a schema need no index change here (values are rows, not columns), so this only
   * checks that the cache's indexed entities can be used; changed fields need a reindex (docs/reference/query.md#search-admin).
   */
  updateSchema(cache: CacheView): void {
    this.indexOf(cache).entities();
  }

  /** The indexed entities, for `search/indexes/metamodel`. */
  entities(cache: CacheView): EntityModel[] {
    return this.indexOf(cache).entities();
  }

  queryStatistics(cache: CacheView): QueryStatistics {
    return this.engine.statisticsOf(handleOf(cache).cache);
  }

  /** `GET search/stats`: this node's query timings, as they are now, and its index's counts. */
  async statistics(cache: CacheView): Promise<SearchStatistics> {
    const index = await this.indexStatistics(cache);
    return { query: snapshotOf(this.queryStatistics(cache)), index };
  }

  /** `POST search/stats?action=clear`: 404 without statistics, as the original. */
  clearStatistics(cache: CacheView): boolean {
    if (!cache.settings.statistics) return false;
    this.engine.statisticsOf(handleOf(cache).cache).clear();
    return true;
  }

  /** Document counts and sizes per configured entity (0 when none are indexed yet). */
  async indexStatistics(cache: CacheView): Promise<IndexStatistics> {
    const { cache: running } = handleOf(cache);
    const index = this.indexing.of(running);
    if (!index) return { types: [], reindexing: false, entityIndexingFailures: 0 };
    // what every node wrote before now (the redis engine); a configuration that cannot be indexed yet counts what is there
    await index.current()?.catch((err: unknown) => { if (!(err instanceof IndexedEntityError)) throw err; });
    const measured = new Map<string, IndexTypeStats>((await index.reads.stats(running.id)).map((s) => [s.type, s]));
    const types = index.settings.indexedEntities.map((name) => ({ name, count: measured.get(name)?.count ?? 0, size: measured.get(name)?.size ?? 0 }));
    return { types, reindexing: index.reindexing, entityIndexingFailures: index.entityIndexingFailures };
  }

  /** The deprecated `search/indexes/stats` and `search/query/stats` need indexing and statistics. */
  checkLegacyStatistics(cache: CacheView): void {
    this.indexOf(cache);
    if (!cache.settings.statistics) throw new CacheStatisticsDisabledError(cache.name);
  }

  private indexOf(cache: CacheView): CacheIndex {
    const index = this.indexing.of(handleOf(cache).cache);
    if (!index) throw new CacheNotIndexedError(cache.name);
    return index;
  }
}

/** The figures as they are now, apart from the counters that go on. */
function snapshotOf(q: QueryStatistics): QueryFigures {
  const copy = (t: TimingFigures): TimingFigures => ({ count: t.count, totalNs: t.totalNs, maxNs: t.maxNs, slowest: t.slowest });
  return { indexed: copy(q.indexed), hybrid: copy(q.hybrid), nonIndexed: copy(q.nonIndexed), entityLoad: copy(q.entityLoad), entitiesLoaded: q.entitiesLoaded };
}

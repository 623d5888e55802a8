import { CacheNotIndexedError, CacheStatisticsDisabledError } from '../errors';
import type { CacheHandle } from '../grid/cache-manager';
import type { CacheIndex } from '../grid/query/cache-index';
import type { Indexing } from '../grid/query/indexing';
import type { QueryEngine } from '../grid/query/query-engine';
import type { QueryStatistics } from '../grid/query/query-stats';
import type { EntityModel } from '../model/ickle/entity-model';
import type { IndexTypeStats } from '../store/store';

export type { QueryStatistics, TimingStats } from '../grid/query/query-stats';

export interface IndexStatistics {
  types: Array<{ name: string; count: number; size: number }>;
  reindexing: boolean;
  entityIndexingFailures: number;
}

/** The search admin resource (docs/reference/query.md#search-admin): reindex, clear, updateSchema, metamodel, statistics. */
export class SearchAdminService {
  constructor(private readonly indexing: Indexing, private readonly engine: QueryEngine) {}

  /** Rebuilds the index from the cache's entries; `async` starts it and returns at once. */
  async reindex(h: CacheHandle, async: boolean): Promise<void> {
    const rebuilt = this.indexOf(h).reindex();
    if (async) {
      rebuilt.catch(() => undefined);
      return;
    }
    await rebuilt;
  }

  /** Empties the index; the entries stay. */
  async clear(h: CacheHandle): Promise<void> {
    await this.indexOf(h).clear();
  }

  /**
   * Fields added to a schema need no index change here (values are rows, not columns), so this only
   * checks that the cache's indexed entities can be used; changed fields need a reindex (docs/reference/query.md#search-admin).
   */
  updateSchema(h: CacheHandle): void {
    this.indexOf(h).entities();
  }

  /** The indexed entities, for `search/indexes/metamodel`. */
  entities(h: CacheHandle): EntityModel[] {
    return this.indexOf(h).entities();
  }

  queryStatistics(h: CacheHandle): QueryStatistics {
    return this.engine.statisticsOf(h.cache);
  }

  /** `POST search/stats?action=clear`: 404 without statistics, as the original. */
  clearStatistics(h: CacheHandle): boolean {
    if (!h.cache.settings.statistics) return false;
    this.engine.statisticsOf(h.cache).clear();
    return true;
  }

  /** Document counts and sizes per configured entity (0 when none are indexed yet). */
  async indexStatistics(h: CacheHandle): Promise<IndexStatistics> {
    const index = this.indexing.of(h.cache);
    if (!index) return { types: [], reindexing: false, entityIndexingFailures: 0 };
    const measured = new Map<string, IndexTypeStats>((await index.reads.stats(h.cache.id)).map((s) => [s.type, s]));
    const types = index.settings.indexedEntities.map((name) => ({ name, count: measured.get(name)?.count ?? 0, size: measured.get(name)?.size ?? 0 }));
    return { types, reindexing: index.reindexing, entityIndexingFailures: index.entityIndexingFailures };
  }

  /** The deprecated `search/indexes/stats` and `search/query/stats` need indexing and statistics. */
  checkLegacyStatistics(h: CacheHandle): void {
    this.indexOf(h);
    if (!h.cache.settings.statistics) throw new CacheStatisticsDisabledError(h.cache.name);
  }

  private indexOf(h: CacheHandle): CacheIndex {
    const index = this.indexing.of(h.cache);
    if (!index) throw new CacheNotIndexedError(h.cache.name);
    return index;
  }
}

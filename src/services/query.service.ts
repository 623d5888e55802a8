import { CacheNotQueryableError, DeleteThroughGetError, InvalidQueryError, SearchRequestError } from '../errors';
import type { EntityNames, QueryEngine } from '../grid/query/query-engine';
import type { QueryResult } from '../grid/query/query-result';
import { querySettingsOf, type QuerySettings } from '../grid/query/query-settings';
import { APPLICATION_UNKNOWN, essence, JAVA_OBJECT, PROTOSTREAM } from '../model/media/media-type';
import type { Subject } from './auth/auth.service';
import { authorize } from './auth/authorization';
import { storageTypes } from './storage-types';
import { type CacheView, handleOf } from './cache-view';

export { RawJson, type QueryResult } from '../grid/query/query-result';

/** A search as the endpoints read it; undefined numbers take the defaults (docs/reference/query.md#search-endpoint). */
export interface SearchRequest {
  query: string | undefined;
  offset?: number;
  maxResults?: number;
  hitCountAccuracy?: number;
}

/**
 * Who runs a search, and whether through a method that must not change anything (GET, HEAD). A
 * `DELETE FROM …` sent to `?action=search` is a bulk write: it needs BULK_WRITE on the cache, as
 * `?action=deleteByQuery` does, and never runs through a safe method (docs/query.md, Delete by query).
 */
export interface SearchCaller {
  subject: Subject;
  safeMethod: boolean;
}

const DEFAULT_MAX_RESULTS = 10;
/** Longer queries are refused before parsing: no real query comes near it, and compiling is work per character. */
export const MAX_QUERY_LENGTH = 100_000;

/** What a cache's stored values can be queried as (docs/reference/query.md#queryable-caches), or undefined when not queryable. */
export function entityNamesOf(cache: CacheView): EntityNames | undefined {
  const storage = essence(storageTypes(cache).value);
  if (storage === PROTOSTREAM || storage === APPLICATION_UNKNOWN) return 'protobuf';
  if (storage === JAVA_OBJECT) return 'java';
  return undefined;
}

/** Ickle search and delete-by-query over one cache (docs/reference/query.md#search-endpoint, docs/reference/query.md#execution, docs/reference/query.md#delete-by-query). */
export class QueryService {
  constructor(private readonly engine: QueryEngine) {}

  async search(cache: CacheView, req: SearchRequest, caller: SearchCaller): Promise<QueryResult> {
    if (!req.query) throw new SearchRequestError("Invalid search request, missing 'query' parameter");
    const h = handleOf(cache);
    const settings = querySettingsOf(h.definition, h.cache.settings);
    const exec = this.engine.prepare(h.cache, settings, checkLength(req.query), this.namesOf(cache));
    const offset = Math.max(0, req.offset ?? 0);
    const maxResults = maxResultsOf(req.maxResults, settings);
    if (exec.query.kind === 'delete') {
      if (caller.safeMethod) throw new DeleteThroughGetError();
      authorize(caller.subject, 'BULK_WRITE', cache);
      // docs/reference/query.md#delete-through-search: DELETE runs through search only with the cache's default paging
      if (offset !== 0 || maxResults !== settings.defaultMaxResults) {
        throw new InvalidQueryError('ISPN014057: DELETE statements cannot use paging (firstResult/maxResults)');
      }
      return removedResult(await this.engine.remove(h.data, exec));
    }
    return this.engine.search(h.cache, h.data, exec, { offset, maxResults }, req.hitCountAccuracy ?? settings.hitCountAccuracy);
  }

  /** `?action=deleteByQuery` (docs/reference/query.md#delete-by-query): a DELETE statement; the count removed. */
  async deleteByQuery(cache: CacheView, query: string | undefined): Promise<QueryResult> {
    if (!query || !/^delete/i.test(query)) {
      throw new SearchRequestError("Invalid delete by query request, missing 'query' parameter or not 'DELETE' statement");
    }
    const h = handleOf(cache);
    const settings = querySettingsOf(h.definition, h.cache.settings);
    const exec = this.engine.prepare(h.cache, settings, checkLength(query), this.namesOf(cache));
    return removedResult(await this.engine.remove(h.data, exec));
  }

  private namesOf(cache: CacheView): EntityNames {
    const names = entityNamesOf(cache);
    if (!names) throw new CacheNotQueryableError(cache.name, essence(storageTypes(cache).value));
    return names;
  }
}

/** max_results: REST's default 10, -1 the cache's default-max-results (docs/reference/query.md#paging). */
function maxResultsOf(requested: number | undefined, settings: QuerySettings): number {
  if (requested === undefined) return DEFAULT_MAX_RESULTS;
  if (requested === -1) return settings.defaultMaxResults;
  if (requested < 0) throw new InvalidQueryError(`maxResults must not be negative: ${requested}`);
  return requested;
}

function checkLength(query: string): string {
  if (query.length > MAX_QUERY_LENGTH) throw new InvalidQueryError(`The query is longer than ${MAX_QUERY_LENGTH} characters`);
  return query;
}

function removedResult(removed: number): QueryResult {
  return { hitCount: removed, hitCountExact: true, columns: undefined, hits: [], kind: 'non_indexed' };
}

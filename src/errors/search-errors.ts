import { defineError } from './define-error';

/** Search requests refused before any query runs, and the search admin endpoints: plain text, not the query errors' JSON. */

/** A search request body that is not JSON. */
export class InvalidSearchJsonError extends defineError({
  code: 'INVALID_JSON', status: 400,
  text: (reason: string) => `Invalid JSON in the request body: ${reason}`,
}) {}

/** `offset`, `max_results`, `hit_count_accuracy` that Java's Integer.parseInt refuses. */
export class NumberFormatError extends defineError({
  code: 'NUMBER_FORMAT', status: 400,
  text: (text: string) => `For input string: "${text}"`,
}) {}

/** v1 search `query_mode` other than FETCH or BROADCAST. */
export class InvalidQueryModeError extends defineError({
  code: 'INVALID_QUERY_MODE', status: 400,
  text: (mode: string) => `No enum constant org.infinispan.query.dsl.IndexedQueryMode.${mode}`,
}) {}

/** Search admin on a cache without indexing (docs/reference/query.md#search-admin). */
export class CacheNotIndexedError extends defineError({
  code: 'CACHE_NOT_INDEXED', status: 400, ispn: 'ISPN012045',
  text: (cache: string) => `Cache '${cache}' is not indexed`,
}) {}

/** Deprecated search statistics need cache statistics. */
export class CacheStatisticsDisabledError extends defineError({
  code: 'STATISTICS_DISABLED', status: 400, ispn: 'ISPN012046',
  text: (cache: string) => `Cache '${cache}' does not have statistics enabled`,
}) {}

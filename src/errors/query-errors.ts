import { GridError } from './grid-error';

/**
 * A query the client got wrong (docs/reference/query.md#grammar, docs/reference/query.md#semantic-checks). The HTTP layer answers 400 JSON
 * `{"error":{"message":<endpoint's message>,"cause":<this message>}}`; the message is the
 * original's text, ISPN id included where it has one.
 */
export class QueryError extends GridError {
  constructor(code: string, message: string) { super(400, code, message); }
}

/** ISPN028526: the parser's messages, each `[rules]: line L:C detail` (docs/reference/query.md#syntax-errors). */
export class IckleSyntaxError extends QueryError {
  constructor(query: string, detail: string) {
    super('QUERY_SYNTAX', `ISPN028526: Invalid query: ${query}; Parser error messages: [${detail}].`);
  }
}

export class UnknownEntityError extends QueryError {
  constructor(message: string) { super('UNKNOWN_ENTITY', message); }
}

export class UnknownPropertyError extends QueryError {
  constructor(type: string, property: string) {
    super('UNKNOWN_PROPERTY', `ISPN028501: The type ${type} does not have an accessible property named '${property}'.`);
  }
}

export class UnknownAliasError extends QueryError {
  constructor(alias: string) { super('UNKNOWN_ALIAS', `ISPN028502: Unknown alias: ${alias}.`); }
}

export class InvalidLiteralError extends QueryError {
  constructor(message: string) { super('INVALID_LITERAL', message); }
}

export class MultipleTypesError extends QueryError {
  constructor(names: string[]) { super('MULTIPLE_TYPES', `Can't target multiple types: [${names.join(', ')}]`); }
}

export class QueryParameterNotSetError extends QueryError {
  constructor(name: string) { super('PARAMETER_NOT_SET', `ISPN014825: Query parameter '${name}' was not set`); }
}

/** A construct the original rejects with its own text (ISPN0285xx, ISPN0140xx). */
export class InvalidQueryError extends QueryError {
  constructor(message: string) { super('INVALID_QUERY', message); }
}

/** A `DELETE FROM …` sent through `GET ?action=search`: a GET never changes data (docs/query.md, Delete by query). */
export class DeleteThroughGetError extends QueryError {
  constructor() {
    super('DELETE_THROUGH_GET', 'A DELETE statement changes data and does not run through GET: send it with POST ?action=search or POST|DELETE ?action=deleteByQuery');
  }
}

/** knn, geo and the parsed-but-unimplemented HQL forms (docs/compatibility.md). */
export class QueryFeatureNotSupportedError extends QueryError {
  constructor(what: string) { super('QUERY_NOT_SUPPORTED', `${what} is not supported by this server`); }
}

/** Full-text on a cache without indexing (docs/reference/query.md#semantic-checks). */
export class FullTextNeedsIndexError extends QueryError {
  constructor() { super('FULL_TEXT_NEEDS_INDEX', 'The cache must be indexed in order to use full-text queries.'); }
}

export class CacheNotQueryableError extends QueryError {
  constructor(cache: string, storage: string) {
    super('NOT_QUERYABLE', `ISPN028015: Cache '${cache}' with storage type '${storage}' cannot be queried. Please configure the cache encoding as 'application/x-protostream' or 'application/x-java-object'`);
  }
}

/** ISPN028021 / ISPN028022: the cache's indexed-entities cannot be used (docs/reference/query.md#indexing-configuration). */
export class IndexedEntityError extends QueryError {
  constructor(message: string) { super('INDEXED_ENTITY', message); }
}

/**
 * A query that ran past the server's `query-timeout`. The original answers its query time-out
 * (a TimeoutException, a CacheException) with the same 400 JSON, cause null; grid says why.
 */
export class QueryTimeoutError extends QueryError {
  constructor(ms: number) { super('QUERY_TIMEOUT', `The query did not complete within ${ms} ms (limit query-timeout)`); }
}

/** An answer that would hold more rows or bytes than `query-rows` / `query-answer-bytes` allow. */
export class QueryAnswerTooLargeError extends QueryError {
  constructor(what: string, limit: number, name: string) {
    super('QUERY_ANSWER_TOO_LARGE', `The answer would hold more than ${limit} ${what}; ask for a smaller page with offset and max_results (limit ${name})`);
  }
}

/** Full-text expansions (fuzzy, wildcard, regexp, range terms) that would look at more index terms than `query-expansion-terms`. */
export class QueryExpansionError extends QueryError {
  constructor(limit: number) {
    super('QUERY_EXPANSION', `The query's fuzzy, wildcard, regexp and range terms would look at more than ${limit} terms of the index; use fewer or more specific terms (limit query-expansion-terms)`);
  }
}

/** Query-shaped request errors answered before any query runs (missing query, empty body). */
export class SearchRequestError extends QueryError {
  constructor(message: string) { super('SEARCH_REQUEST', message); }
}

/** A search request body that is not JSON (plain text, before any query). */
export class InvalidSearchJsonError extends GridError {
  constructor(reason: string) { super(400, 'INVALID_JSON', `Invalid JSON in the request body: ${reason}`); }
}

/** `offset`, `max_results`, `hit_count_accuracy` that Java's Integer.parseInt refuses (plain text). */
export class NumberFormatError extends GridError {
  constructor(text: string) { super(400, 'NUMBER_FORMAT', `For input string: "${text}"`); }
}

/** v1 search `query_mode` other than FETCH or BROADCAST (plain text). */
export class InvalidQueryModeError extends GridError {
  constructor(mode: string) { super(400, 'INVALID_QUERY_MODE', `No enum constant org.infinispan.query.dsl.IndexedQueryMode.${mode}`); }
}

/** ISPN012045: search admin on a cache without indexing (plain text, docs/reference/query.md#search-admin). */
export class CacheNotIndexedError extends GridError {
  constructor(cache: string) { super(400, 'CACHE_NOT_INDEXED', `ISPN012045: Cache '${cache}' is not indexed`); }
}

/** ISPN012046: deprecated search statistics need cache statistics. */
export class CacheStatisticsDisabledError extends GridError {
  constructor(cache: string) { super(400, 'STATISTICS_DISABLED', `ISPN012046: Cache '${cache}' does not have statistics enabled`); }
}

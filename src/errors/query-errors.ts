import { defineError } from './define-error';
import { GridError } from './grid-error';

/**
 * A query the client got wrong (docs/reference/query.md#grammar, docs/reference/query.md#semantic-checks): the family of the
 * errors below, all 400. The HTTP layer answers them with JSON
 * `{"error":{"message":<endpoint's message>,"cause":<this message>}}`; the message is the
 * original's text, ISPN id included where it has one.
 */
export class QueryError extends GridError {}

/** The parser's messages, each `[rules]: line L:C detail` (docs/reference/query.md#syntax-errors). */
export class IckleSyntaxError extends defineError({
  code: 'QUERY_SYNTAX', status: 400, ispn: 'ISPN028526',
  text: (query: string, detail: string) => `Invalid query: ${query}; Parser error messages: [${detail}].`,
}, QueryError) {}

export class UnknownEntityError extends defineError({
  code: 'UNKNOWN_ENTITY', status: 400,
  text: (message: string) => message,
  summary: '`ISPN028510: Unknown entity name …`; `Unknown type name : …` or `… is not a message type` for a type no schema declares as a message',
}, QueryError) {}

export class UnknownPropertyError extends defineError({
  code: 'UNKNOWN_PROPERTY', status: 400, ispn: 'ISPN028501',
  text: (type: string, property: string) => `The type ${type} does not have an accessible property named '${property}'.`,
}, QueryError) {}

export class UnknownAliasError extends defineError({
  code: 'UNKNOWN_ALIAS', status: 400, ispn: 'ISPN028502',
  text: (alias: string) => `Unknown alias: ${alias}.`,
}, QueryError) {}

export class InvalidLiteralError extends defineError({
  code: 'INVALID_LITERAL', status: 400,
  text: (message: string) => message,
  summary: "`ISPN028505: Invalid numeric literal '…'`; `ISPN028507` (boolean), `ISPN028508` (enum)",
}, QueryError) {}

export class MultipleTypesError extends defineError({
  code: 'MULTIPLE_TYPES', status: 400,
  text: (names: string[]) => `Can't target multiple types: [${names.join(', ')}]`,
  summary: "`Can't target multiple types: […, …]`",
}, QueryError) {}

export class QueryParameterNotSetError extends defineError({
  code: 'PARAMETER_NOT_SET', status: 400, ispn: 'ISPN014825',
  text: (name: string) => `Query parameter '${name}' was not set`,
}, QueryError) {}

/** A construct the original rejects with its own text (ISPN0285xx, ISPN0140xx). */
export class InvalidQueryError extends defineError({
  code: 'INVALID_QUERY', status: 400,
  text: (message: string) => message,
  summary: "the original's text for a construct it rejects (`ISPN0285xx`, `ISPN0140xx`), or grid's for a query past a bound",
}, QueryError) {}

/** A `DELETE FROM …` sent through `GET ?action=search`: a GET never changes data (docs/query.md, Delete by query). */
export class DeleteThroughGetError extends defineError({
  code: 'DELETE_THROUGH_GET', status: 400,
  text: () => 'A DELETE statement changes data and does not run through GET: send it with POST ?action=search or POST|DELETE ?action=deleteByQuery',
}, QueryError) {}

/** knn, geo and the parsed-but-unimplemented HQL forms (docs/compatibility.md). */
export class QueryFeatureNotSupportedError extends defineError({
  code: 'QUERY_NOT_SUPPORTED', status: 400,
  text: (what: string) => `${what} is not supported by this server`,
}, QueryError) {}

/** Full-text on a cache without indexing (docs/reference/query.md#semantic-checks). */
export class FullTextNeedsIndexError extends defineError({
  code: 'FULL_TEXT_NEEDS_INDEX', status: 400,
  text: () => 'The cache must be indexed in order to use full-text queries.',
}, QueryError) {}

export class CacheNotQueryableError extends defineError({
  code: 'NOT_QUERYABLE', status: 400, ispn: 'ISPN028015',
  text: (cache: string, storage: string) =>
    `Cache '${cache}' with storage type '${storage}' cannot be queried. Please configure the cache encoding as 'application/x-protostream' or 'application/x-java-object'`,
}, QueryError) {}

/** ISPN028021 / ISPN028022: the cache's indexed-entities cannot be used (docs/reference/query.md#indexing-configuration). */
export class IndexedEntityError extends defineError({
  code: 'INDEXED_ENTITY', status: 400,
  text: (message: string) => message,
  summary: "`ISPN028021` (an indexed entity without indexed fields) or `ISPN028022` (an entity no schema declares), the original's text",
}, QueryError) {}

/**
 * A query that ran past the server's `query-timeout`. The original answers its query time-out
 * (a TimeoutException, a CacheException) with the same 400 JSON, cause null; grid says why.
 */
export class QueryTimeoutError extends defineError({
  code: 'QUERY_TIMEOUT', status: 400,
  text: (ms: number) => `The query did not complete within ${ms} ms (limit query-timeout)`,
}, QueryError) {}

/** An answer that would hold more rows or bytes than `query-rows` / `query-answer-bytes` allow. */
export class QueryAnswerTooLargeError extends defineError({
  code: 'QUERY_ANSWER_TOO_LARGE', status: 400,
  text: (what: string, limit: number, name: string) =>
    `The answer would hold more than ${limit} ${what}; ask for a smaller page with offset and max_results (limit ${name})`,
}, QueryError) {}

/** Full-text expansions (fuzzy, wildcard, regexp, range terms) that would look at more index terms than `query-expansion-terms`. */
export class QueryExpansionError extends defineError({
  code: 'QUERY_EXPANSION', status: 400,
  text: (limit: number) =>
    `The query's fuzzy, wildcard, regexp and range terms would look at more than ${limit} terms of the index; use fewer or more specific terms (limit query-expansion-terms)`,
}, QueryError) {}

/** Query-shaped request errors answered before any query runs (missing query, empty body). */
export class SearchRequestError extends defineError({
  code: 'SEARCH_REQUEST', status: 400,
  text: (message: string) => message,
  summary: "`Invalid search request…` or `Invalid delete by query request…`, as the JSON's `message` with `cause` null",
}, QueryError) {}

import { InvalidQueryModeError, InvalidSearchJsonError, NumberFormatError, QueryError, SearchRequestError } from '../../errors';
import type { Services } from '../../services';
import type { QueryResult, SearchCaller, SearchRequest } from '../../services/query.service';
import { query } from '../params';
import { presentLegacySearchResult, presentQueryError, presentSearchResult } from '../presenters/search.presenter';
import { readText } from '../request-body';
import { sendParts, setJsonType } from '../respond';
import { json, MEDIA, type ParamDoc } from '../route-doc';
import type { GridContext, RouteSpec } from '../route-spec';

/** The texts the original answers with, per endpoint (docs/reference/query.md#search-errors, docs/reference/query.md#delete-by-query, docs/reference/query.md#v1-search). */
const V2 = { failed: 'Error executing search', emptyBody: 'Invalid search request' };
const V1 = { failed: 'Invalid search request', emptyBody: 'Invalid search request' };
const DELETE = { failed: 'Error executing search or query operation', emptyBody: 'Invalid delete by query request' };
type Texts = typeof V2;

/** Ickle queries: `?action=search` (v2 and v1) and `?action=deleteByQuery` (docs/reference/query.md#search-endpoint). */
export function searchRoutes(): RouteSpec[] {
  const v2 = '/rest/v2/caches/:cache';
  const v1 = '/rest/:cache';
  return [
    { method: 'GET', path: v2, action: 'search', scope: 'cache', permission: 'BULK_READ', handle: (ctx, s) => answer(ctx, V2, () => search(ctx, s, paramsRequest(ctx))),
      doc: { summary: 'Run an Ickle query', query: SEARCH_PARAMS, responses: { 200: json('`{hit_count, hit_count_exact, hits}`'), 400: json('The query is wrong: `{error:{message, cause}}`') } } },
    { method: 'POST', path: v2, action: 'search', scope: 'cache', permission: 'BULK_READ', handle: (ctx, s) => answer(ctx, V2, async () => search(ctx, s, await bodyRequest(ctx, s, V2))),
      doc: { summary: 'Run an Ickle query sent as `{query, offset, max_results, hit_count_accuracy}`', body: [MEDIA.json], responses: { 200: json('`{hit_count, hit_count_exact, hits}`'), 400: json('The query is wrong: `{error:{message, cause}}`') } } },
    { method: 'DELETE', path: v2, action: 'deleteByQuery', scope: 'cache', permission: 'BULK_WRITE', handle: (ctx, s) => answer(ctx, DELETE, () => deleteByQuery(ctx, s, query(ctx, 'query'))),
      doc: { summary: 'Remove the entries a `DELETE FROM …` statement matches', query: [QUERY_PARAM], responses: { 200: json('`{hit_count: <removed>, hit_count_exact, hits: []}`'), 400: json('The statement is wrong') } } },
    { method: 'POST', path: v2, action: 'deleteByQuery', scope: 'cache', permission: 'BULK_WRITE', handle: (ctx, s) => answer(ctx, DELETE, async () => deleteByQuery(ctx, s, (await bodyRequest(ctx, s, DELETE)).query)),
      doc: { summary: 'Remove the entries a `DELETE FROM …` statement sent as `{query}` matches', body: [MEDIA.json], responses: { 200: json('`{hit_count: <removed>, hit_count_exact, hits: []}`'), 400: json('The statement is wrong') } } },
    { method: 'GET', path: v1, action: 'search', scope: 'cache', permission: 'BULK_READ', handle: (ctx, s) => answer(ctx, V1, () => legacySearch(ctx, s, legacyParamsRequest(ctx))),
      doc: { summary: 'Run an Ickle query (v1)', query: [...SEARCH_PARAMS.slice(0, 3), QUERY_MODE], responses: { 200: json('`{total_results, hits}`'), 400: json('`{error:{message, cause}}`') }, deprecated: true } },
    { method: 'POST', path: v1, action: 'search', scope: 'cache', permission: 'BULK_READ', handle: (ctx, s) => answer(ctx, V1, async () => legacySearch(ctx, s, await legacyBodyRequest(ctx, s))),
      doc: { summary: 'Run an Ickle query sent as `{query, offset, max_results, query_mode}` (v1)', body: [MEDIA.json], responses: { 200: json('`{total_results, hits}`'), 400: json('`{error:{message, cause}}`') }, deprecated: true } },
  ];
}

const QUERY_PARAM: ParamDoc = { name: 'query', description: 'The Ickle statement', required: true };
const SEARCH_PARAMS: ParamDoc[] = [
  QUERY_PARAM,
  { name: 'offset', description: 'Hits to skip (0)', type: 'integer' },
  { name: 'max_results', description: 'Hits to answer (10; -1 = the cache\'s default-max-results; 0 = count only)', type: 'integer' },
  { name: 'hit_count_accuracy', description: 'Count matches exactly up to this many (the cache\'s hit-count-accuracy, 10000)', type: 'integer' },
  { name: 'local', description: 'Accepted; the server is one node', type: 'boolean' },
];
const QUERY_MODE: ParamDoc = { name: 'query_mode', description: 'Accepted (FETCH or BROADCAST)', enum: ['FETCH', 'BROADCAST'] };

async function search(ctx: GridContext, s: Services, req: SearchRequest): Promise<Buffer[]> {
  return presentSearchResult(await s.queries.search(ctx.state.cache, req, callerOf(ctx)));
}

async function legacySearch(ctx: GridContext, s: Services, req: SearchRequest): Promise<Buffer[]> {
  return presentLegacySearchResult(await s.queries.search(ctx.state.cache, req, callerOf(ctx)));
}

/** A DELETE statement needs BULK_WRITE and a method that may change data (docs/query.md, Delete by query). */
function callerOf(ctx: GridContext): SearchCaller {
  return { subject: ctx.state.subject, safeMethod: ctx.method === 'GET' || ctx.method === 'HEAD' };
}

async function deleteByQuery(ctx: GridContext, s: Services, text: string | undefined): Promise<Buffer[]> {
  const result: QueryResult = await s.queries.deleteByQuery(ctx.state.cache, text);
  return presentSearchResult(result);
}

/**
 * 200 with the JSON result, once it is complete (a limit it meets is still a 400); the client's
 * query mistakes answer 400 JSON with the endpoint's message.
 */
async function answer(ctx: GridContext, texts: Texts, run: () => Promise<Buffer[]>): Promise<void> {
  try {
    const parts = await run();
    ctx.status = 200;
    setJsonType(ctx);
    sendParts(ctx, parts);
  } catch (err) {
    if (!(err instanceof QueryError)) throw err;
    const request = err instanceof SearchRequestError;
    ctx.status = 400;
    setJsonType(ctx);
    ctx.body = presentQueryError(request ? err.message : texts.failed, request ? null : err.message);
  }
}

/** GET parameters; numbers parse as Java's Integer.parseInt, failing with its text (docs/reference/query.md#search-endpoint). */
function paramsRequest(ctx: GridContext): SearchRequest {
  return {
    query: query(ctx, 'query'),
    offset: intOf(query(ctx, 'offset')),
    maxResults: intOf(query(ctx, 'max_results')),
    hitCountAccuracy: intOf(query(ctx, 'hit_count_accuracy')),
  };
}

/** v1 also reads `query_mode` (FETCH or BROADCAST, the exact enum name; docs/reference/query.md#v1-search). */
function legacyParamsRequest(ctx: GridContext): SearchRequest {
  queryMode(query(ctx, 'query_mode'));
  return { query: query(ctx, 'query'), offset: intOf(query(ctx, 'offset')), maxResults: intOf(query(ctx, 'max_results')) };
}

/** The raw body as a JSON object whatever its Content-Type; empty → the endpoint's 400 JSON. */
async function bodyRequest(ctx: GridContext, s: Services, texts: Texts): Promise<SearchRequest> {
  const doc = await readJsonBody(ctx, s, texts);
  return {
    query: stringOf(doc.query),
    offset: intOf(doc.offset),
    maxResults: intOf(doc.max_results),
    hitCountAccuracy: intOf(doc.hit_count_accuracy),
  };
}

async function legacyBodyRequest(ctx: GridContext, s: Services): Promise<SearchRequest> {
  const doc = await readJsonBody(ctx, s, V1);
  queryMode(stringOf(doc.query_mode));
  return { query: stringOf(doc.query), offset: intOf(doc.offset), maxResults: intOf(doc.max_results) };
}

async function readJsonBody(ctx: GridContext, s: Services, texts: Texts): Promise<Record<string, unknown>> {
  const text = await readText(ctx, s.bodyLimit);
  if (text.trim() === '') throw new SearchRequestError(texts.emptyBody);
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new InvalidSearchJsonError((e as Error).message);
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) throw new SearchRequestError(texts.emptyBody);
  return doc as Record<string, unknown>;
}

function stringOf(v: unknown): string | undefined {
  return v === undefined || v === null ? undefined : String(v);
}

/** Integer.parseInt: an optional sign and decimal digits within 32 bits, else `For input string: "x"`. */
function intOf(v: unknown): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'number' && Number.isInteger(v) && Math.abs(v) < 2 ** 31) return v;
  const text = String(v);
  if (/^[+-]?\d+$/.test(text)) {
    const n = Number(text);
    if (n >= -(2 ** 31) && n < 2 ** 31) return n;
  }
  throw new NumberFormatError(text);
}

function queryMode(v: string | undefined): void {
  if (v !== undefined && v !== 'FETCH' && v !== 'BROADCAST') {
    throw new InvalidQueryModeError(v);
  }
}

import { NotImplementedError } from '../../errors';
import type { Services } from '../../services';
import { combineSearchStatistics } from '../../services/search-statistics';
import { query } from '../params';
import { presentLegacyIndexStats, presentLegacyQueryStats, presentMetamodel, presentSearchStats } from '../presenters/search-admin.presenter';
import { sendJson, sendStatus } from '../respond';
import { json, type ParamDoc, text } from '../route-doc';
import type { GridContext, RouteSpec } from '../route-spec';

/**
 * The search admin resource `/rest/v2/caches/{cache}/search/…` (docs/reference/query.md#search-admin): indexes and their
 * statistics. Changes need ADMIN, reads MONITOR (docs/reference/http.md#authorization: monitors read search stats).
 */
export function searchAdminRoutes(): RouteSpec[] {
  const base = '/rest/v2/caches/:cache/search';
  const indexes = `${base}/indexes`;
  const done = { 204: 'Done' };
  return [
    { method: 'POST', path: indexes, action: 'reindex', scope: 'cache', permission: 'ADMIN', handle: (ctx, s) => reindex(ctx, s),
      doc: { summary: 'Rebuild the index from the entries', query: REINDEX_PARAMS, responses: { ...done, 400: text('The cache is not indexed (ISPN012045)') } } },
    { method: 'POST', path: indexes, action: 'mass-index', scope: 'cache', permission: 'ADMIN', handle: (ctx, s) => reindex(ctx, s),
      doc: { summary: 'Rebuild the index from the entries', query: REINDEX_PARAMS, responses: { ...done, 400: text('The cache is not indexed (ISPN012045)') }, deprecated: true } },
    { method: 'POST', path: indexes, action: 'clear', scope: 'cache', permission: 'ADMIN', handle: (ctx, s) => clearIndex(ctx, s),
      doc: { summary: 'Empty the index (the entries stay)', responses: { ...done, 400: text('The cache is not indexed, or its indexed entities cannot be used') } } },
    { method: 'POST', path: indexes, action: 'updateSchema', scope: 'cache', permission: 'ADMIN', handle: (ctx, s) => updateSchema(ctx, s),
      doc: { summary: 'Take fields added to the schema (changed ones need a reindex)', responses: { ...done, 400: text('The cache is not indexed, or its indexed entities cannot be used') } } },
    { method: 'GET', path: `${indexes}/metamodel`, scope: 'cache', permission: 'MONITOR', handle: (ctx, s) => sendJson(ctx, presentMetamodel(s.searchAdmin.entities(ctx.state.cache))),
      doc: { summary: 'The indexed entities and their fields', responses: { 200: json('One object per indexed entity'), 400: text('The cache is not indexed (ISPN012045)') } } },
    { method: 'GET', path: `${base}/stats`, scope: 'cache', permission: 'MONITOR', handle: (ctx, s) => stats(ctx, s),
      doc: { summary: 'Query timings per execution kind (ns) and indexed documents per type', query: [{ name: 'scope', description: '`cluster`: combined over the live nodes (counts and times summed, the largest time kept); without it, this node\'s own' }], responses: { 200: json('`{query, index}`') } } },
    { method: 'POST', path: `${base}/stats`, action: 'clear', scope: 'cache', permission: 'ADMIN', handle: (ctx, s) => clearStats(ctx, s),
      doc: { summary: 'Reset the query statistics', responses: { 200: 'Done (empty body)', 404: 'The cache has no statistics', 501: text('`scope=cluster`') } } },
    { method: 'GET', path: `${indexes}/stats`, scope: 'cache', permission: 'MONITOR', handle: (ctx, s) => legacyIndexStats(ctx, s),
      doc: { summary: 'Indexed documents and sizes per type', responses: { 200: json('`{indexed_class_names, indexed_entities_count, index_sizes, reindexing}`'), 400: text('Not indexed (ISPN012045) or no statistics (ISPN012046)') }, deprecated: true } },
    { method: 'GET', path: `${base}/query/stats`, scope: 'cache', permission: 'MONITOR', handle: (ctx, s) => legacyQueryStats(ctx, s),
      doc: { summary: 'Query and entity-loading timings', responses: { 200: json('`search_query_*` and `object_loading_*` figures'), 400: text('Not indexed (ISPN012045) or no statistics (ISPN012046)') }, deprecated: true } },
    { method: 'POST', path: `${base}/query/stats`, action: 'clear', scope: 'cache', permission: 'ADMIN', handle: (ctx, s) => legacyClearQueryStats(ctx, s),
      doc: { summary: 'Reset the query statistics', responses: { 204: 'Done', 400: text('Not indexed (ISPN012045) or no statistics (ISPN012046)') }, deprecated: true } },
  ];
}

const REINDEX_PARAMS: ParamDoc[] = [
  { name: 'mode', description: '`async`: answer at once and rebuild in the background', enum: ['sync', 'async'] },
  { name: 'local', description: 'Accepted: the server is one node', type: 'boolean' },
];

/** 204 once rebuilt; `mode=async` answers at once (`local` is accepted: this is one node). */
async function reindex(ctx: GridContext, s: Services): Promise<void> {
  await s.searchAdmin.reindex(ctx.state.cache, query(ctx, 'mode')?.toLowerCase() === 'async');
  sendStatus(ctx, 204);
}

async function clearIndex(ctx: GridContext, s: Services): Promise<void> {
  await s.searchAdmin.clear(ctx.state.cache);
  sendStatus(ctx, 204);
}

function updateSchema(ctx: GridContext, s: Services): void {
  s.searchAdmin.updateSchema(ctx.state.cache);
  sendStatus(ctx, 204);
}

/** This node's statistics; with `scope=cluster` combined with every other live node's, as the original's (docs/scale-out.md, "Cluster-wide statistics"). */
async function stats(ctx: GridContext, s: Services): Promise<void> {
  const cache = ctx.state.cache;
  const cluster = query(ctx, 'scope')?.toLowerCase() === 'cluster';
  const [own, others] = await Promise.all([s.searchAdmin.statistics(cache), cluster ? s.cluster.othersFigures('search-statistics', s.container.name, cache.name) : []]);
  sendJson(ctx, presentSearchStats(others.length ? combineSearchStatistics([own, ...others]) : own));
}

/** 200 with an empty body (docs/reference/query.md#search-admin), 404 when the cache has no statistics. */
function clearStats(ctx: GridContext, s: Services): void {
  if (query(ctx, 'scope') === 'cluster') throw new NotImplementedError('Clearing search statistics with scope=cluster (this server is one node)');
  sendStatus(ctx, s.searchAdmin.clearStatistics(ctx.state.cache) ? 200 : 404);
}

async function legacyIndexStats(ctx: GridContext, s: Services): Promise<void> {
  s.searchAdmin.checkLegacyStatistics(ctx.state.cache);
  sendJson(ctx, presentLegacyIndexStats(await s.searchAdmin.indexStatistics(ctx.state.cache)));
}

function legacyQueryStats(ctx: GridContext, s: Services): void {
  s.searchAdmin.checkLegacyStatistics(ctx.state.cache);
  sendJson(ctx, presentLegacyQueryStats(s.searchAdmin.queryStatistics(ctx.state.cache)));
}

function legacyClearQueryStats(ctx: GridContext, s: Services): void {
  s.searchAdmin.checkLegacyStatistics(ctx.state.cache);
  s.searchAdmin.clearStatistics(ctx.state.cache);
  sendStatus(ctx, 204);
}

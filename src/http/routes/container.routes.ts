import { ResourceNotFoundError } from '../../errors';
import type { Services } from '../../services';
import { negotiateAmong } from '../negotiate';
import { headerText } from '../request-headers';
import { isTrue, query } from '../params';
import {
  containerConfigJson, containerConfigXml, presentContainerInfo, presentContainerStats, presentHealth,
} from '../presenters/container.presenter';
import { sendJson, sendJsonArray, sendStatus, sendText } from '../respond';
import { DONE, json, MEDIA, param, QUERY_PARAMS, type RouteDoc, typed, underCacheManager } from '../route-doc';
import type { GridContext, RouteSpec } from '../route-spec';
import { listDetailed } from './caches.routes';
import { containerXSiteRoutes } from './xsite.routes';
import { listenConfig } from '../config-events';

const CONFIG_TYPES = { 'application/json': 'json', 'application/xml': 'xml' } as const;

const CONFIGS = { 200: json('JSON array of {name, configuration}') };

const RESUME = 'Resume after this event id: first the events missed (or a `reset` event and the current state, when they are no longer all kept)';
const CONFIG_EVENTS_DOC: Omit<RouteDoc, 'summary'> = {
  query: [QUERY_PARAMS.includeCurrentState, QUERY_PARAMS.pretty, param('lastEventId', `${RESUME}; the Last-Event-ID header wins`)],
  headers: [param('Last-Event-ID', RESUME)],
  responses: { 200: typed('Event stream', MEDIA.events), 400: 'Last-Event-ID is not an event id' },
};

/**
 * The container, under `/rest/v2/container` and `/rest/v2/cache-managers/{name}` (docs/reference/management-plane.md#container).
 * The anonymous `health/status` probe lives in health.routes.ts.
 */
export function containerRoutes(): RouteSpec[] {
  const routes: RouteSpec[] = [
    { method: 'GET', path: '/rest/v2/cache-configs/templates', permission: 'AUTHENTICATED', handle: (ctx, s) => cacheConfigs(ctx, s, true),
      doc: { summary: 'The templates the caller may see, with their configuration', query: [QUERY_PARAMS.pretty], responses: CONFIGS } },
  ];
  for (const base of ['/rest/v2/container', '/rest/v2/cache-managers/:manager']) {
    const rows: RouteSpec[] = [
      { method: 'GET', path: base, permission: 'AUTHENTICATED', handle: async (ctx, s) => sendJson(ctx, presentContainerInfo(s.container, s.node, await s.cluster.view(), s.version, ctx.state.subject)),
        doc: { summary: 'The container: version, status, caches, features', responses: { 200: json('Container info') } } },
      { method: 'GET', path: base, action: 'listen', permission: 'ADMIN', handle: (ctx, s) => listenConfig(ctx, s),
        doc: { summary: 'Configuration changes as server-sent events, in the format Accept names (YAML by default)', ...CONFIG_EVENTS_DOC } },
      { method: 'GET', path: `${base}/config`, action: 'listen', permission: 'ADMIN', handle: (ctx, s) => listenConfig(ctx, s),
        doc: { summary: 'Configuration changes as server-sent events (as `?action=listen` on the container)', ...CONFIG_EVENTS_DOC } },
      { method: 'POST', path: base, action: 'shutdown', permission: 'LIFECYCLE', handle: async (ctx, s) => { await s.container.shutdown(); sendStatus(ctx, 204); },
        doc: { summary: 'Shut the container down on every node: its caches and counters answer 503 until restart', responses: DONE } },
      { method: 'POST', path: base, action: 'enable-rebalancing', permission: 'ADMIN', handle: (ctx, s) => rebalancing(ctx, s, true),
        doc: { summary: 'Enable rebalancing of every cache', responses: DONE } },
      { method: 'POST', path: base, action: 'disable-rebalancing', permission: 'ADMIN', handle: (ctx, s) => rebalancing(ctx, s, false),
        doc: { summary: 'Disable rebalancing of every cache', responses: DONE } },
      { method: 'GET', path: `${base}/health`, permission: 'AUTHENTICATED', handle: async (ctx, s) => sendJson(ctx, presentHealth(s.container, await s.cluster.view(), ctx.state.subject)),
        doc: { summary: 'Health of the cluster and of the caches the caller may see', responses: { 200: json('{cluster_health, cache_health}') } } },
      // authenticated, as in the original (only health/status is anonymous, health.routes.ts)
      { method: 'HEAD', path: `${base}/health`, permission: 'AUTHENTICATED', requiresContainer: false, handle: (ctx) => sendStatus(ctx, 200),
        doc: { summary: 'Whether the server answers', responses: { 200: 'It does' } } },
      { method: 'GET', path: `${base}/config`, permission: 'ADMIN', handle: (ctx, s) => config(ctx, s),
        doc: { summary: 'The container configuration, in the format Accept names', query: [QUERY_PARAMS.pretty], responses: { 200: typed('The configuration', MEDIA.json, MEDIA.xml) } } },
      { method: 'GET', path: `${base}/cache-configs`, permission: 'AUTHENTICATED', handle: (ctx, s) => cacheConfigs(ctx, s, false),
        doc: { summary: 'The caches and templates the caller may see, with their configuration', query: [QUERY_PARAMS.pretty], responses: CONFIGS } },
      { method: 'GET', path: `${base}/cache-configs/templates`, permission: 'AUTHENTICATED', handle: (ctx, s) => cacheConfigs(ctx, s, true),
        doc: { summary: 'The templates, with their configuration', query: [QUERY_PARAMS.pretty], responses: CONFIGS } },
      { method: 'GET', path: `${base}/caches`, permission: 'AUTHENTICATED', handle: (ctx, s) => listDetailed(ctx, s),
        doc: { summary: 'The caches the caller may see, with details (as `/caches?action=detailed`)', responses: { 200: json('JSON array of caches') } } },
      { method: 'GET', path: `${base}/stats`, permission: 'MONITOR', handle: (ctx, s) => stats(ctx, s),
        doc: { summary: 'Container statistics: this node\'s counters, as the original\'s', responses: { 200: json('The statistics') } } },
      ...containerXSiteRoutes(base),
      { method: 'POST', path: `${base}/stats`, action: 'reset', permission: 'ADMIN', handle: (ctx, s) => { s.container.resetStats(); sendStatus(ctx, 204); },
        doc: { summary: 'Reset the container statistics', responses: DONE } },
    ];
    const deprecated = base !== '/rest/v2/container';
    routes.push(...rows.map((r) => ({ ...r, doc: deprecated ? underCacheManager(r.doc) : r.doc, handle: (ctx: GridContext, s: Services) => { checkManager(ctx, s); return r.handle(ctx, s); } })));
  }
  return routes;
}

/** The container's own name is its only cache manager name; another name is a 404. */
function checkManager(ctx: GridContext, s: Services): void {
  const name = ctx.params.manager;
  if (name !== undefined && name !== s.container.name) throw new ResourceNotFoundError();
}

async function rebalancing(ctx: GridContext, s: Services, enabled: boolean): Promise<void> {
  await s.container.setRebalancing(enabled);
  sendStatus(ctx, 204);
}

function config(ctx: GridContext, s: Services): void {
  const format = negotiateAmong(headerText(ctx, 'accept'), CONFIG_TYPES);
  const pretty = isTrue(query(ctx, 'pretty'));
  if (format === 'xml') return sendText(ctx, containerConfigXml(s.container.name, s.dataDir), 'application/xml');
  sendText(ctx, JSON.stringify(containerConfigJson(s.container.name, s.dataDir), null, pretty ? 2 : undefined), 'application/json');
}

function cacheConfigs(ctx: GridContext, s: Services, templatesOnly: boolean): void {
  sendJsonArray(ctx, s.container.cacheConfigs(ctx.state.subject, templatesOnly), isTrue(query(ctx, 'pretty')));
}

async function stats(ctx: GridContext, s: Services): Promise<void> {
  sendJson(ctx, presentContainerStats(await s.container.statistics(), s.clock.now()));
}

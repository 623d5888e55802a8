import { InvalidContentError, InvalidStateTransferModeError, MissingArgumentError, MissingArgumentsError, ResourceNotFoundError } from '../../errors';
import type { CacheView, Services } from '../../services';
import type { XSiteService } from '../../services/xsite.service';
import { canAdminister } from '../../services/auth/authorization';
import { query } from '../params';
import { readJsonText } from '../json-body';
import { sendJson, sendStatus } from '../respond';
import { json, MEDIA, OK_EMPTY, param } from '../route-doc';
import type { GridContext, RouteSpec } from '../route-spec';

const NO_SITE = 'The cache does not back up to that site';
const MODE = param('mode', 'The mode (any case)', { required: true, enum: ['MANUAL', 'AUTO'] });

/** Cache-level cross-site operations (docs/reference/management-plane.md#cross-site), all ADMIN. */
export function xsiteRoutes(): RouteSpec[] {
  const backups = '/rest/v2/caches/:cache/x-site/backups';
  const site = `${backups}/:site`;
  const row = (r: Omit<RouteSpec, 'permission' | 'scope'>): RouteSpec => ({ ...r, scope: 'cache', permission: 'ADMIN' });
  const siteAction = (action: string, summary: string, run: (ctx: GridContext, x: XSiteService) => Promise<void> | void) =>
    row({ method: 'POST', path: site, action, handle: async (ctx, s) => { await run(ctx, s.xsite); sendStatus(ctx, 200); }, doc: { summary, responses: { ...OK_EMPTY, 404: NO_SITE } } });
  return [
    row({ method: 'GET', path: backups, handle: (ctx, s) => sendJson(ctx, Object.fromEntries(s.xsite.sites(ctx.params.cache).map((b) => [b.site, { status: b.status }]))),
      doc: { summary: 'The backup sites of the cache and their status', responses: { 200: json('Object by site: {status}'), 404: 'The cache has no backup sites' } } }),
    row({ method: 'GET', path: backups, action: 'push-state-status', handle: (ctx, s) => sendJson(ctx, Object.fromEntries(s.xsite.sites(ctx.params.cache).map((b) => [b.site, 'IDLE']))),
      doc: { summary: 'State transfer status per site', responses: { 200: json('Object by site: IDLE, SENDING, OK, ERROR or CANCELED') } } }),
    row({ method: 'GET', path: site, handle: (ctx, s) => siteStatus(ctx, s),
      doc: { summary: 'Status of one backup site', responses: { 200: json('Object by node: online or offline'), 404: NO_SITE } } }),
    siteAction('take-offline', 'Stop backing up to the site', (ctx, x) => x.setStatus(ctx.params.cache, ctx.params.site, 'offline')),
    siteAction('bring-online', 'Resume backing up to the site', (ctx, x) => x.setStatus(ctx.params.cache, ctx.params.site, 'online')),
    siteAction('start-push-state', 'Send the cache\'s state to the site', (ctx, x) => x.pushState(ctx.params.cache, ctx.params.site)),
    siteAction('cancel-push-state', 'Cancel sending state to the site', (ctx, x) => { x.site(ctx.params.cache, ctx.params.site); }),
    siteAction('cancel-receive-state', 'Cancel receiving state from the site', (ctx, x) => { x.site(ctx.params.cache, ctx.params.site); }),
    row({ method: 'POST', path: '/rest/v2/caches/:cache/x-site/local', action: 'clear-push-state-status', handle: (ctx, s) => { s.xsite.sites(ctx.params.cache); sendJson(ctx, 'ok'); },
      doc: { summary: 'Clear the state transfer status', responses: { 200: json('"ok"') } } }),
    row({ method: 'GET', path: `${site}/take-offline-config`, handle: (ctx, s) => takeOfflineConfig(ctx, s),
      doc: { summary: 'When the site is taken offline automatically', responses: { 200: json('{after_failures, min_wait}'), 404: NO_SITE } } }),
    row({ method: 'PUT', path: `${site}/take-offline-config`, handle: (ctx, s) => setTakeOfflineConfig(ctx, s),
      doc: { summary: 'Change when the site is taken offline automatically', body: [MEDIA.json], responses: { 204: 'Changed', 304: 'Unchanged', 400: 'Not JSON, or after_failures or min_wait missing', 404: NO_SITE } } }),
    row({ method: 'GET', path: `${site}/state-transfer-mode`, handle: (ctx, s) => sendJson(ctx, s.xsite.site(ctx.params.cache, ctx.params.site).mode),
      doc: { summary: 'State transfer mode', responses: { 200: json('"MANUAL" or "AUTO"'), 404: NO_SITE } } }),
    row({ method: 'POST', path: `${site}/state-transfer-mode`, action: 'set', handle: (ctx, s) => setMode(ctx, s),
      doc: { summary: 'Set the state transfer mode', query: [MODE], responses: { 200: 'Changed', 304: 'Unchanged', 400: 'Missing or unknown mode', 404: NO_SITE } } }),
  ];
}

/**
 * Container-level rows for `base` (`/rest/v2/container` or the cache-managers form): they cover
 * only the caches the caller administers (a secured cache's own roles decide).
 */
export function containerXSiteRoutes(base: string): RouteSpec[] {
  const backups = `${base}/x-site/backups`;
  const mine = (ctx: GridContext) => (cache: CacheView) => canAdminister(ctx.state.subject, cache);
  const statusOf = (v: { online: string[]; offline: string[] }) =>
    v.online.length && v.offline.length ? { status: 'mixed', online: v.online, offline: v.offline, mixed: [] }
      : { status: v.offline.length ? 'offline' : 'online' };
  const bulk = (action: string, summary: string, run: (ctx: GridContext, s: Services, site: string) => Promise<Record<string, string>>): RouteSpec => ({
    method: 'POST', path: `${backups}/:site`, action, permission: 'ADMIN', handle: async (ctx, s) => sendJson(ctx, await run(ctx, s, ctx.params.site)),
    doc: { summary, responses: { 200: json('Object by cache name: the outcome') } },
  });
  const online = (ctx: GridContext, s: Services, site: string) => s.xsite.containerView(mine(ctx)).get(site)?.online ?? [];
  return [
    { method: 'GET', path: backups, permission: 'ADMIN', handle: (ctx, s) => sendJson(ctx, Object.fromEntries([...s.xsite.containerView(mine(ctx))].map(([site, v]) => [site, statusOf(v)]))),
      doc: { summary: 'Status of each site, over the caches the caller administers', responses: { 200: json('Object by site: {status[, online, offline, mixed]}') } } },
    {
      method: 'GET', path: `${backups}/:site`, permission: 'ADMIN', handle: (ctx, s) => {
        const v = s.xsite.containerView(mine(ctx)).get(ctx.params.site);
        if (!v) throw new ResourceNotFoundError();
        sendJson(ctx, statusOf(v));
      },
      doc: { summary: 'Status of one site, over the caches the caller administers', responses: { 200: json('{status[, online, offline, mixed]}'), 404: 'No cache the caller administers backs up there' } },
    },
    bulk('take-offline', 'Stop backing up to the site, for every cache the caller administers', (ctx, s, site) => s.xsite.setContainerStatus(site, 'offline', mine(ctx))),
    bulk('bring-online', 'Resume backing up to the site, for every cache the caller administers', (ctx, s, site) => s.xsite.setContainerStatus(site, 'online', mine(ctx))),
    bulk('start-push-state', 'Send state to the site, for every cache the caller administers', async (ctx, s, site) => Object.fromEntries(online(ctx, s, site).map((c) => [c, 'remote site unreachable']))),
    bulk('cancel-push-state', 'Cancel sending state to the site, for every cache the caller administers', async (ctx, s, site) => Object.fromEntries(online(ctx, s, site).map((c) => [c, 'ok']))),
  ];
}

function takeOfflineConfig(ctx: GridContext, s: Services): void {
  const b = s.xsite.site(ctx.params.cache, ctx.params.site);
  sendJson(ctx, { after_failures: b.afterFailures, min_wait: b.minWait });
}

async function setTakeOfflineConfig(ctx: GridContext, s: Services): Promise<void> {
  s.xsite.site(ctx.params.cache, ctx.params.site);
  const text = await readJsonText(ctx, s, (reason) => new InvalidContentError(reason));
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new InvalidContentError('ISPN012043: Invalid request content');
  }
  const o = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  if (typeof o.after_failures !== 'number' || typeof o.min_wait !== 'number') throw new MissingArgumentsError(['after_failures', 'min_wait']);
  const changed = await s.xsite.setTakeOffline(ctx.params.cache, ctx.params.site, o.after_failures, o.min_wait);
  sendStatus(ctx, changed ? 204 : 304);
}

async function setMode(ctx: GridContext, s: Services): Promise<void> {
  const mode = query(ctx, 'mode');
  if (mode === undefined) throw new MissingArgumentError('mode');
  const upper = mode.toUpperCase();
  if (upper !== 'MANUAL' && upper !== 'AUTO') throw new InvalidStateTransferModeError(upper);
  const changed = await s.xsite.setMode(ctx.params.cache, ctx.params.site, upper);
  sendStatus(ctx, changed ? 200 : 304);
}

/** The site's status as each live node of the cluster reports it (the state is the cluster's: the same on every node). */
async function siteStatus(ctx: GridContext, s: Services): Promise<void> {
  const { status } = s.xsite.site(ctx.params.cache, ctx.params.site);
  const { members } = await s.cluster.view();
  sendJson(ctx, Object.fromEntries(members.map((m) => [m.name, status])));
}

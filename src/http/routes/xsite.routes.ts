import { BadRequestError, MissingArgumentError, MissingArgumentsError, ResourceNotFoundError } from '../../errors';
import type { CacheHandle, Services } from '../../services';
import type { XSiteService } from '../../services/xsite.service';
import { canAdminister } from '../../services/authorization';
import { query } from '../params';
import { readText } from '../request-body';
import { sendJson, sendStatus } from '../respond';
import type { GridContext, RouteSpec } from '../route-spec';

/** Cache-level cross-site operations (behavior-notes §16), all ADMIN. */
export function xsiteRoutes(): RouteSpec[] {
  const backups = '/rest/v2/caches/:cache/x-site/backups';
  const site = `${backups}/:site`;
  const row = (r: Omit<RouteSpec, 'permission' | 'scope'>): RouteSpec => ({ ...r, scope: 'cache', permission: 'ADMIN' });
  const siteAction = (action: string, run: (ctx: GridContext, x: XSiteService) => Promise<void> | void) =>
    row({ method: 'POST', path: site, action, handle: async (ctx, s) => { await run(ctx, s.xsite); sendStatus(ctx, 200); } });
  return [
    row({ method: 'GET', path: backups, handle: (ctx, s) => sendJson(ctx, Object.fromEntries(s.xsite.sites(ctx.params.cache).map((b) => [b.site, { status: b.status }]))) }),
    row({ method: 'GET', path: backups, action: 'push-state-status', handle: (ctx, s) => sendJson(ctx, Object.fromEntries(s.xsite.sites(ctx.params.cache).map((b) => [b.site, 'IDLE']))) }),
    row({ method: 'GET', path: site, handle: (ctx, s) => sendJson(ctx, { [s.node.name]: s.xsite.site(ctx.params.cache, ctx.params.site).status }) }),
    siteAction('take-offline', (ctx, x) => x.setStatus(ctx.params.cache, ctx.params.site, 'offline')),
    siteAction('bring-online', (ctx, x) => x.setStatus(ctx.params.cache, ctx.params.site, 'online')),
    siteAction('start-push-state', (ctx, x) => x.pushState(ctx.params.cache, ctx.params.site)),
    siteAction('cancel-push-state', (ctx, x) => { x.site(ctx.params.cache, ctx.params.site); }),
    siteAction('cancel-receive-state', (ctx, x) => { x.site(ctx.params.cache, ctx.params.site); }),
    row({ method: 'POST', path: '/rest/v2/caches/:cache/x-site/local', action: 'clear-push-state-status', handle: (ctx, s) => { s.xsite.sites(ctx.params.cache); sendJson(ctx, 'ok'); } }),
    row({ method: 'GET', path: `${site}/take-offline-config`, handle: (ctx, s) => takeOfflineConfig(ctx, s) }),
    row({ method: 'PUT', path: `${site}/take-offline-config`, handle: (ctx, s) => setTakeOfflineConfig(ctx, s) }),
    row({ method: 'GET', path: `${site}/state-transfer-mode`, handle: (ctx, s) => sendJson(ctx, s.xsite.site(ctx.params.cache, ctx.params.site).mode) }),
    row({ method: 'POST', path: `${site}/state-transfer-mode`, action: 'set', handle: (ctx, s) => setMode(ctx, s) }),
  ];
}

/**
 * Container-level rows for `base` (`/rest/v2/container` or the cache-managers form): they cover
 * only the caches the caller administers (a secured cache's own roles decide).
 */
export function containerXSiteRoutes(base: string): RouteSpec[] {
  const backups = `${base}/x-site/backups`;
  const mine = (ctx: GridContext) => (h: CacheHandle) => canAdminister(ctx.state.subject, h);
  const statusOf = (v: { online: string[]; offline: string[] }) =>
    v.online.length && v.offline.length ? { status: 'mixed', online: v.online, offline: v.offline, mixed: [] }
      : { status: v.offline.length ? 'offline' : 'online' };
  const bulk = (action: string, run: (ctx: GridContext, s: Services, site: string) => Promise<Record<string, string>>): RouteSpec => ({
    method: 'POST', path: `${backups}/:site`, action, permission: 'ADMIN', handle: async (ctx, s) => sendJson(ctx, await run(ctx, s, ctx.params.site)),
  });
  const online = (ctx: GridContext, s: Services, site: string) => s.xsite.containerView(mine(ctx)).get(site)?.online ?? [];
  return [
    { method: 'GET', path: backups, permission: 'ADMIN', handle: (ctx, s) => sendJson(ctx, Object.fromEntries([...s.xsite.containerView(mine(ctx))].map(([site, v]) => [site, statusOf(v)]))) },
    {
      method: 'GET', path: `${backups}/:site`, permission: 'ADMIN', handle: (ctx, s) => {
        const v = s.xsite.containerView(mine(ctx)).get(ctx.params.site);
        if (!v) throw new ResourceNotFoundError();
        sendJson(ctx, statusOf(v));
      },
    },
    bulk('take-offline', (ctx, s, site) => s.xsite.setContainerStatus(site, 'offline', mine(ctx))),
    bulk('bring-online', (ctx, s, site) => s.xsite.setContainerStatus(site, 'online', mine(ctx))),
    bulk('start-push-state', async (ctx, s, site) => Object.fromEntries(online(ctx, s, site).map((c) => [c, 'remote site unreachable']))),
    bulk('cancel-push-state', async (ctx, s, site) => Object.fromEntries(online(ctx, s, site).map((c) => [c, 'ok']))),
  ];
}

function takeOfflineConfig(ctx: GridContext, s: Services): void {
  const b = s.xsite.site(ctx.params.cache, ctx.params.site);
  sendJson(ctx, { after_failures: b.afterFailures, min_wait: b.minWait });
}

async function setTakeOfflineConfig(ctx: GridContext, s: Services): Promise<void> {
  s.xsite.site(ctx.params.cache, ctx.params.site);
  const text = await readText(ctx, s.bodyLimit);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new BadRequestError('ISPN012043: Invalid request content', 'INVALID_CONTENT');
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
  if (upper !== 'MANUAL' && upper !== 'AUTO') throw new BadRequestError(`No enum constant org.infinispan.configuration.cache.XSiteStateTransferMode.${upper}`, 'INVALID_MODE');
  const changed = await s.xsite.setMode(ctx.params.cache, ctx.params.site, upper);
  sendStatus(ctx, changed ? 200 : 304);
}

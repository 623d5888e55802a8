import Koa from 'koa';
import { CacheIgnoredError, GridError, isGridError, ResourceNotFoundError, ServiceUnavailableError } from '../errors';
import type { CacheHandle, Services } from '../services';
import { ANONYMOUS, ANONYMOUS_ADMIN } from '../services/auth.service';
import { authorize } from '../services/authorization';
import type { Logger } from '../util/logger';
import { browserHeaders } from './browser-headers';
import { compressResponse } from './compression';
import { corsMiddleware, type CorsSettings } from './cors.middleware';
import { hostCheckMiddleware } from './host-check.middleware';
import { discardUnreadBody } from './request-body';
import { answerHeadOverHttp2 } from './respond';
import { isClientGone } from './client-errors';
import { type Connection, ConnectionGuards } from './connection-guards';
import { Router } from './router';
import { resolveTenant } from './tenancy';
import type { GridContext, RouteSpec } from './route-spec';
import { backupRoutes } from './routes/backups.routes';
import { cacheAdminRoutes } from './routes/cache-admin.routes';
import { cacheRoutes } from './routes/caches.routes';
import { clusterRoutes } from './routes/cluster.routes';
import { consoleRoutes } from './routes/console.routes';
import { containerRoutes } from './routes/container.routes';
import { counterRoutes } from './routes/counters.routes';
import { entryRoutes } from './routes/entries.routes';
import { healthRoutes } from './routes/health.routes';
import { legacyRoutes } from './routes/legacy.routes';
import { loggingRoutes } from './routes/logging.routes';
import { openApiRoutes } from './routes/openapi.routes';
import { schemaRoutes } from './routes/schemas.routes';
import { searchRoutes } from './routes/search.routes';
import { searchAdminRoutes } from './routes/search-admin.routes';
import { securityRoutes } from './routes/security.routes';
import { serverRoutes } from './routes/server.routes';
import { taskRoutes } from './routes/tasks.routes';
import { xsiteRoutes } from './routes/xsite.routes';

/**
 * Every route table of the server; the router takes literal segments before parameters. Rows of
 * the process (console, server, cluster, logging, probes, metrics) are reached without a tenant
 * prefix only; a container's rows also under `/rest/<tenant>/…`, for that tenant's container
 * (docs/configuration.md, Tenants). The OpenAPI document describes this very list.
 */
export function allRoutes(): RouteSpec[] {
  const routes: RouteSpec[] = [
    ...consoleRoutes(),
    ...openApiRoutes(() => routes),
    ...serverRoutes(),
    ...clusterRoutes(),
    ...loggingRoutes(),
    ...perContainer(
      healthRoutes(), securityRoutes(),
      needContainer(containerRoutes(), cacheRoutes(), cacheAdminRoutes(), xsiteRoutes(), entryRoutes(), legacyRoutes(), searchRoutes(), searchAdminRoutes(), counterRoutes(), schemaRoutes(), taskRoutes(), backupRoutes()),
    ),
  ];
  return routes;
}

/** Resources of one container: `/rest/<tenant>/…` reaches them in the tenant's container. */
function perContainer(...tables: RouteSpec[][]): RouteSpec[] {
  return tables.flat().map((r) => ({ ...r, perContainer: r.perContainer ?? true }));
}

/** Resources that touch caches or counters answer 503 after `POST /container?action=shutdown` (behavior-notes §1.3). */
function needContainer(...tables: RouteSpec[][]): RouteSpec[] {
  return tables.flat().map((r) => ({ ...r, requiresContainer: r.requiresContainer ?? true }));
}

/** What browsers may do (docs/security.md#browsers); built from the configuration in main.ts. */
export interface BrowserSettings {
  cors?: CorsSettings;
  /** Host names accepted beside localhost and IP addresses; undefined: no Host check. */
  allowedHosts?: readonly string[];
}

/**
 * The whole request pipeline, in order:
 *   access log → compression → error responses → Host check (403) → CORS (preflight 200, foreign Origin 403) →
 *   tenancy (`/rest/<tenant>/…` → that tenant's container) → route match (404/405/400/403) → authentication →
 *   cache resolution (404) → authorization against the named cache or globally (403) → ignore list (503) → handler.
 * `defaults` are the default container's (and the process's) services, `tenants` each tenant's.
 */
export function createApp(
  defaults: Services, log: Logger, tenants: ReadonlyMap<string, Services> = new Map(), browsers: BrowserSettings = {},
  guards = new ConnectionGuards(defaults.limits, log),
): Koa {
  const app = new Koa();
  app.proxy = false;
  app.silent = true;
  const router = new Router(allRoutes());
  let requestId = 0;

  app.use(async (ctx, next) => {
    const started = performance.now();
    const id = ++requestId;
    ctx.state.log = log;
    ctx.state.guards = guards;
    if (ctx.get('user-agent').startsWith('Mozilla')) ctx.set(browserHeaders(ctx.path, ctx.secure));
    try {
      await next();
      await discardUnreadBody(ctx, defaults.bodyLimit);
      answerHeadOverHttp2(ctx);
    } finally {
      const ms = performance.now() - started;
      defaults.metrics.observeRequest(ctx.method, ctx.status, ms / 1000);
      log.info({ req: id, method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(ms * 100) / 100 }, 'request');
    }
  });

  app.use(async (ctx, next) => {
    await next();
    await compressResponse(ctx);
  });

  app.use(async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      writeError(ctx, err, log);
    }
  });

  if (browsers.allowedHosts) app.use(hostCheckMiddleware(browsers.allowedHosts));
  app.use(corsMiddleware(browsers.cors));

  app.use(async (ctx) => {
    const gctx = ctx as GridContext;
    const { services: s, path, tenant } = resolveTenant(ctx.path, defaults, tenants);
    const { route, params } = router.match(ctx.method, path, firstValue(ctx.query.action));
    // the process's own resources are not a tenant's: /rest/t1/v2/server is as unknown as /rest/v2/nothing
    if (tenant !== undefined && !route.perContainer) throw new ResourceNotFoundError();
    gctx.params = params;
    gctx.state.subject = !s.authEnabled ? ANONYMOUS_ADMIN
      : route.anonymous ? ANONYMOUS
      : await s.auth.authenticate(ctx.get('authorization') || undefined, ctx.method, ctx.originalUrl, ctx.req.socket.remoteAddress);
    gctx.state.tenant = tenant;
    if (!route.anonymous && s.authEnabled) guards.claim(connectionOf(ctx.req), { tenant, user: gctx.state.subject.name });
    if (route.requiresContainer && s.container.stopped) throw new ServiceUnavailableError('Unable to process REST request when Server is STOPPING');
    // the one place a cache path is resolved: names and aliases alike (behavior-notes §5.1)
    const named = params[route.cacheParam ?? 'cache'];
    const h: CacheHandle | undefined = route.scope === 'cache' ? s.manager.require(named) : named === undefined ? undefined : s.manager.find(named);
    authorize(gctx.state.subject, route.permission, h);
    if (route.scope === 'cache') {
      if (s.container.isIgnored(h!.cache.name)) throw new CacheIgnoredError(named);
      gctx.state.cache = h!;
    }
    await route.handle(gctx, s);
  });

  return app;
}

/** The connection a request came on: its socket, or over HTTP/2 its session (`req.socket` is a proxy per stream there). */
function connectionOf(req: Koa.Context['req']): Connection {
  const stream = (req as { stream?: { session?: Connection } }).stream;
  return stream?.session ?? req.socket;
}

/** The first value of `action`, as the original reads it; '' for `?action` and `?action=`. */
function firstValue(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

function writeError(ctx: Koa.Context, err: unknown, log: Logger): void {
  if (isClientGone(err)) {
    log.debug({ method: ctx.method, path: ctx.path, code: (err as { code?: string }).code }, 'client went away');
    return;
  }
  const e: GridError = isGridError(err) ? err : new GridError(500, 'INTERNAL', 'Internal server error');
  if (!isGridError(err)) log.error({ err, method: ctx.method, path: ctx.path }, 'unexpected error');
  ctx.status = e.status;
  for (const [name, value] of Object.entries(e.headers)) ctx.set(name, value);
  const text = e.message || reasonOf(e);
  if (text === '' || ctx.method === 'HEAD' || e.status === 304) {
    ctx.body = e.status === 304 ? null : '';
    if (e.status !== 304) ctx.remove('Content-Type');
    return;
  }
  ctx.type = 'text/plain; charset=utf-8';
  ctx.body = text;
}

/**
 * Where the original answers a 4xx with no body (404 for a missing entry, 409, 415…), a short
 * reason from the error's code (`ENTRY_NOT_FOUND` → "Entry not found"), so that every refusal
 * says why. 401 keeps its empty body with the challenges (the original's and browsers' habit).
 */
function reasonOf(e: GridError): string {
  if (e.status < 400 || e.status >= 500 || e.status === 401) return '';
  const words = e.code.toLowerCase().replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

import Koa from 'koa';
import { CacheIgnoredError, type GridError, InternalServerError, isGridError, ResourceNotFoundError, ServiceUnavailableError } from '../errors';
import type { CacheView, Services } from '../services';
import { ANONYMOUS, ANONYMOUS_ADMIN, type Subject } from '../services/auth/auth.service';
import { authorize } from '../services/auth/authorization';
import type { Logger } from '../util/logger';
import { AccessLog } from './access-log';
import { BodyBudget } from './body-budget';
import { browserHeaders } from './browser-headers';
import { compressResponse } from './compression';
import { corsRules, type CorsSettings } from './cors.middleware';
import { hostCheck } from './host-check.middleware';
import { discardUnreadBody } from './request-body';
import { answerHeadOverHttp2 } from './respond';
import { isClientGone } from './client-errors';
import { type Connection, ConnectionGuards } from './connection-guards';
import { Router } from './router';
import { routeToContainer } from './tenancy';
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

/** Resources that touch caches or counters answer 503 after `POST /container?action=shutdown` (docs/reference/http.md#service-unavailable). */
function needContainer(...tables: RouteSpec[][]): RouteSpec[] {
  return tables.flat().map((r) => ({ ...r, requiresContainer: r.requiresContainer ?? true }));
}

/** What browsers may do (docs/security.md#browsers); built from the configuration in main.ts. */
export interface BrowserSettings {
  cors?: CorsSettings;
  /** Host names accepted beside localhost and IP addresses; undefined: no Host check. */
  allowedHosts?: readonly string[];
}

/** The loggers of the HTTP layer: `grid.http` for what goes wrong, the access log for every request. */
export interface HttpLogs {
  http: Logger;
  /** `org.infinispan.REST_ACCESS_LOG` (src/http/access-log.ts), off unless set to TRACE. */
  access: Logger;
}

/**
 * The whole request pipeline, in order (the one place that says it; docs/architecture.md links here):
 *   headers for browsers (browser-headers.ts) → Host check on a loopback address (403) → CORS
 *   (preflight 200, foreign Origin 403) → tenancy (`/rest/<tenant>/…` → that tenant's container) →
 *   route match (404/405/400/403) → authentication (skipped for anonymous rows) → 503 after a
 *   container shutdown (rows marked requiresContainer) → cache resolution (404 for scope 'cache') →
 *   authorization against the named cache or globally (403) → ignore list (503) → handler;
 *   then error responses → compression → (HTTP/2) the unread body and HEAD → metrics and access log.
 * It is one Koa middleware, and each step returns a promise only when it has to wait (a password
 * verification, a commit, a request body): a GET of a cached entry with a remembered login is
 * answered in the turn that read it, without a chain of closures and a promise per layer.
 * `defaults` are the default container's (and the process's) services, `tenants` each tenant's.
 */
export function createApp(
  defaults: Services, logs: HttpLogs, tenants: ReadonlyMap<string, Services> = new Map(), browsers: BrowserSettings = {},
  guards = new ConnectionGuards(defaults.limits, logs.http), bodies = new BodyBudget(defaults.limits.requestBodyMemory),
): Koa {
  const app = new Koa();
  app.proxy = false;
  app.silent = true;
  const log = logs.http;
  const access = new AccessLog(logs.access);
  const router = new Router(allRoutes());
  const checkHost = browsers.allowedHosts ? hostCheck(browsers.allowedHosts) : undefined;
  const cors = corsRules(browsers.cors);

  const serve = (ctx: GridContext): Promise<void> | void => {
    checkHost?.(ctx);
    return cors(ctx, () => dispatch(ctx));
  };

  const dispatch = (ctx: GridContext): Promise<void> | void => {
    const target = routeToContainer(router, ctx.method, ctx.path, actionOf(ctx), defaults, tenants);
    const { services: s, route, tenant } = target;
    ctx.params = target.params;
    ctx.state.tenant = tenant;
    if (!s.authEnabled) {
      if (target.unknownTenant) throw new ResourceNotFoundError();
      return handle(ctx, s, route, ANONYMOUS_ADMIN);
    }
    // under a tenant segment every row asks for credentials: an anonymous answer would tell which names are tenants
    if (route.anonymous && tenant === undefined && !target.unknownTenant) return handle(ctx, s, route, ANONYMOUS);
    const connection = connectionOf(ctx.req);
    const subject = s.auth.authenticate(ctx.req.headers.authorization || undefined, ctx.method, ctx.originalUrl, ctx.req.socket?.remoteAddress, connection);
    // no such tenant: the credentials were checked as a tenant's would be (same answer, same time), and were the default container's
    if (target.unknownTenant) return Promise.resolve(subject).then(() => { throw new ResourceNotFoundError(); });
    if (subject instanceof Promise) return subject.then((who) => handle(ctx, s, route, who, connection));
    return handle(ctx, s, route, subject, connection);
  };

  const handle = (ctx: GridContext, s: Services, route: RouteSpec, subject: Subject, connection?: Connection): Promise<void> | void => {
    ctx.state.subject = subject;
    if (connection) guards.claim(connection, { tenant: ctx.state.tenant, user: subject.name });
    if (route.requiresContainer && s.container.stopped) throw new ServiceUnavailableError('Unable to process REST request when Server is STOPPING');
    // the one place a cache path is resolved: names and aliases alike (docs/reference/data-plane.md#cache-lookup)
    const named = ctx.params[route.cacheParam ?? 'cache'];
    if (route.scope === 'cache') {
      const found = s.caches.resolve(named);
      if (found instanceof Promise) return found.then((cache) => handleOn(ctx, s, route, subject, named, cache));
      return handleOn(ctx, s, route, subject, named, found);
    }
    return handleOn(ctx, s, route, subject, named, named === undefined ? undefined : s.caches.find(named));
  };

  const handleOn = (ctx: GridContext, s: Services, route: RouteSpec, subject: Subject, named: string, cache: CacheView | undefined): Promise<void> | void => {
    authorize(subject, route.permission, cache);
    if (route.scope === 'cache') {
      if (s.container.isIgnored(cache!.name)) throw new CacheIgnoredError(named);
      ctx.state.cache = cache!;
    }
    const mark = s.container.recordsMark();
    return mark === undefined ? route.handle(ctx, s) : handleSpreading(ctx, s, route, mark);
  };

  /**
   * On the redis engine: a request that wrote to the container's records (a definition, a schema,
   * a user, a setting…) is answered once every live node has applied what it wrote
   * (docs/scale-out.md, "Records"), as the original answers once its replicated state is
   * everywhere: a client that reads through another node next reads what it wrote.
   */
  const handleSpreading = async (ctx: GridContext, s: Services, route: RouteSpec, mark: number): Promise<void> => {
    await route.handle(ctx, s);
    if (s.container.recordsMark() === mark) return;
    await s.container.recordsWritten();
    await s.cluster.spread(s.container.name);
  };

  app.use(async (koaCtx) => {
    const ctx = koaCtx as GridContext;
    const started = performance.now();
    ctx.state.log = log;
    ctx.state.guards = guards;
    ctx.state.bodies = bodies;
    if (ctx.req.headers['user-agent']?.startsWith('Mozilla')) ctx.set(browserHeaders(ctx.path, ctx.secure));
    try {
      try {
        const waiting = serve(ctx);
        if (waiting) await waiting;
      } catch (err) {
        writeError(ctx, err, log);
      }
      if (ctx.req.headers['accept-encoding']) await compressResponse(ctx);
      if (ctx.req.httpVersionMajor >= 2) {
        await discardUnreadBody(ctx, defaults.bodyLimit);
        answerHeadOverHttp2(ctx);
      }
    } finally {
      const ms = performance.now() - started;
      defaults.metrics.observeRequest(ctx.method, ctx.status, ms / 1000);
      if (access.enabled) access.write(ctx, ctx.state.subject?.name, ms);
    }
  });

  return app;
}

/** The connection a request came on: its socket, or over HTTP/2 its session (`req.socket` is a proxy per stream there). */
function connectionOf(req: Koa.Context['req']): Connection {
  const stream = (req as { stream?: { session?: Connection } }).stream;
  return stream?.session ?? req.socket;
}

/** The first value of `action`, as the original reads it; '' for `?action` and `?action=`. */
function actionOf(ctx: GridContext): string | undefined {
  if (ctx.querystring === '') return undefined;
  const v = ctx.query.action;
  return Array.isArray(v) ? v[0] : v;
}

function writeError(ctx: GridContext, err: unknown, log: Logger): void {
  if (isClientGone(err)) {
    log.debug({ method: ctx.method, path: ctx.path, code: (err as { code?: string }).code }, 'client went away');
    return;
  }
  const e: GridError = isGridError(err) ? err : new InternalServerError();
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
 * says why (a 401 carries its own, next to the unchanged challenges).
 */
export function reasonOf(e: GridError): string {
  if (e.status < 400 || e.status >= 500) return '';
  const words = e.code.toLowerCase().replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

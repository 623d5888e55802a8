import { lazy } from '../../util/lazy';
import { NodeNotFoundError, ResourceNotFoundError } from '../../errors';
import type { Services } from '../../services';
import { CONTAINER_NAME } from '../../services/container.service';
import { negotiateAmong } from '../negotiate';
import { isTrue, query } from '../params';
import { sendJson, sendStatus, sendText } from '../respond';
import type { GridContext, RouteSpec } from '../route-spec';
import { escapeXml } from '../xml-escape';

const yaml = lazy(() => require('yaml') as typeof import('yaml'));
const CONFIG_TYPES = { 'application/json': 'json', 'application/xml': 'xml', 'application/yaml': 'yaml' } as const;

/** `/rest/v2/server…` (spec 2 "Cluster and server", behavior-notes §11). */
export function serverRoutes(): RouteSpec[] {
  const ignored: RouteSpec[] = [];
  for (const prefix of ['/rest/v2/server/ignored-caches', '/v2/server/ignored-caches']) {
    ignored.push(
      { method: 'GET', path: prefix, permission: 'ADMIN', handle: (ctx, s) => sendJson(ctx, s.container.ignoredCaches(ctx.state.subject)) },
      // deprecated `/{cache-manager}` form of the listing; POST and DELETE name a cache there
      { method: 'GET', path: `${prefix}/:name`, permission: 'ADMIN', handle: (ctx, s) => { manager(ctx.params.name, s); sendJson(ctx, s.container.ignoredCaches(ctx.state.subject)); } },
      { method: 'POST', path: `${prefix}/:name`, cacheParam: 'name', permission: 'ADMIN', handle: (ctx, s) => ignore(ctx, s, ctx.params.name, true) },
      { method: 'DELETE', path: `${prefix}/:name`, cacheParam: 'name', permission: 'ADMIN', handle: (ctx, s) => ignore(ctx, s, ctx.params.name, false) },
      { method: 'POST', path: `${prefix}/:name/:cache`, permission: 'ADMIN', handle: (ctx, s) => { manager(ctx.params.name, s); return ignore(ctx, s, ctx.params.cache, true); } },
      { method: 'DELETE', path: `${prefix}/:name/:cache`, permission: 'ADMIN', handle: (ctx, s) => { manager(ctx.params.name, s); return ignore(ctx, s, ctx.params.cache, false); } },
    );
  }
  return [
    { method: 'GET', path: '/rest/v2/server', permission: 'AUTHENTICATED', handle: (ctx, s) => sendJson(ctx, { version: s.server.versionString() }) },
    { method: 'POST', path: '/rest/v2/server', action: 'stop', permission: 'LIFECYCLE', handle: (ctx, s) => stop(ctx, s) },
    { method: 'GET', path: '/rest/v2/server/cache-managers', permission: 'AUTHENTICATED', handle: (ctx) => sendJson(ctx, [CONTAINER_NAME]) },
    { method: 'GET', path: '/rest/v2/server/config', permission: 'ADMIN', handle: (ctx, s) => config(ctx, s) },
    { method: 'GET', path: '/rest/v2/server/env', permission: 'ADMIN', handle: (ctx, s) => sendJson(ctx, s.server.runtime.properties()) },
    { method: 'GET', path: '/rest/v2/server/memory', permission: 'ADMIN', handle: (ctx, s) => sendJson(ctx, s.server.runtime.memory()) },
    { method: 'GET', path: '/rest/v2/server/threads', permission: 'ADMIN', handle: (ctx, s) => sendText(ctx, s.server.runtime.threadDump()) },
    { method: 'GET', path: '/rest/v2/server/report', permission: 'ADMIN', handle: (ctx, s) => report(ctx, s) },
    { method: 'GET', path: '/rest/v2/server/report/:node', permission: 'ADMIN', handle: (ctx, s) => nodeReport(ctx, s) },
    { method: 'GET', path: '/rest/v2/server/overview-report', permission: 'ADMIN', handle: (ctx, s) => sendJson(ctx, s.server.overview(s.container.handles().filter((h) => !h.internal).length)) },
    { method: 'GET', path: '/rest/v2/server/connectors', permission: 'ADMIN', handle: (ctx, s) => sendJson(ctx, s.server.connectors()) },
    { method: 'GET', path: '/rest/v2/server/connectors/:connector', permission: 'ADMIN', handle: (ctx, s) => connector(ctx, s) },
    { method: 'GET', path: '/rest/v2/server/connections', permission: 'ADMIN', handle: (ctx) => sendJson(ctx, []) },
    // the ignore list belongs to a container: a tenant's is reached under /rest/<tenant>/v2/server/…
    ...ignored.map((r) => ({ ...r, perContainer: true })),
  ];
}

function manager(name: string, s: Services): void {
  if (name !== s.container.name) throw new ResourceNotFoundError();
}

function ignore(ctx: GridContext, s: Services, cache: string, on: boolean): void {
  if (on) s.container.ignore(cache);
  else s.container.unignore(cache);
  sendStatus(ctx, 204);
}

/** 204 first, then a clean stop once the answer is on its way. */
function stop(ctx: GridContext, s: Services): void {
  sendStatus(ctx, 204);
  ctx.res.once('finish', () => s.server.requestStop());
}

function config(ctx: GridContext, s: Services): void {
  const format = negotiateAmong(ctx.get('accept') || undefined, CONFIG_TYPES);
  const doc = s.server.configuration();
  if (format === 'yaml') return sendText(ctx, yaml().stringify(doc), 'application/yaml');
  if (format === 'xml') return sendText(ctx, toXml('server', (doc as { server: unknown }).server), 'application/xml');
  sendText(ctx, JSON.stringify(doc, null, isTrue(query(ctx, 'pretty')) ? 2 : undefined), 'application/json');
}

async function report(ctx: GridContext, s: Services): Promise<void> {
  const { filename, stream } = await s.server.report(new Date(s.clock.now()));
  ctx.status = 200;
  ctx.set('Content-Type', 'application/gzip');
  ctx.set('Content-Disposition', `attachment; filename="${filename}"`);
  ctx.body = stream;
}

/** One node is the whole cluster: its own name gets its report, any other name 404 (behavior-notes §11). */
function nodeReport(ctx: GridContext, s: Services): Promise<void> {
  if (ctx.params.node !== s.node.name) throw new NodeNotFoundError();
  return report(ctx, s);
}

function connector(ctx: GridContext, s: Services): void {
  if (!s.server.connectors().includes(ctx.params.connector)) throw new ResourceNotFoundError();
  sendJson(ctx, s.server.connector());
}

/** Objects become elements, scalars attributes, arrays repeated elements. */
function toXml(name: string, value: unknown): string {
  if (Array.isArray(value)) return value.map((v) => toXml(name, v)).join('');
  if (typeof value !== 'object' || value === null) return `<${name}>${escapeXml(String(value))}</${name}>`;
  const entries = Object.entries(value as Record<string, unknown>);
  const attrs = entries.filter(([, v]) => typeof v !== 'object' || v === null).map(([k, v]) => ` ${k}="${escapeXml(String(v))}"`).join('');
  const children = entries.filter(([, v]) => typeof v === 'object' && v !== null).map(([k, v]) => toXml(k, v)).join('');
  return children ? `<${name}${attrs}>${children}</${name}>` : `<${name}${attrs}/>`;
}

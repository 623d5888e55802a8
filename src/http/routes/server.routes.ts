import { lazy } from '../../util/lazy';
import { defaultCacheAttributes } from '../../model/cache-config';
import { NodeNotFoundError, NotImplementedError, ResourceNotFoundError } from '../../errors';
import type { Services } from '../../services';
import { CONTAINER_NAME } from '../../services/container.service';
import { negotiateAmong } from '../negotiate';
import { headerText } from '../request-headers';
import { isTrue, query } from '../params';
import { redirectToNode } from '../redirect';
import { sendJson, sendStatus, sendText } from '../respond';
import { DONE, json, MEDIA, PATH_PARAMS, QUERY_PARAMS, text, typed } from '../route-doc';
import type { GridContext, RouteSpec } from '../route-spec';
import { escapeXml } from '../xml-escape';

const yaml = lazy(() => require('yaml') as typeof import('yaml'));
const CONFIG_TYPES = { 'application/json': 'json', 'application/xml': 'xml', 'application/yaml': 'yaml' } as const;

/** `/rest/v2/server…` (docs/reference/management-plane.md#server). */
export function serverRoutes(): RouteSpec[] {
  const ignored: RouteSpec[] = [];
  for (const prefix of ['/rest/v2/server/ignored-caches', '/v2/server/ignored-caches']) {
    ignored.push(
      { method: 'GET', path: prefix, permission: 'ADMIN', handle: (ctx, s) => sendJson(ctx, s.container.ignoredCaches(ctx.state.subject)),
        doc: { summary: 'The ignored caches the caller may see', responses: { 200: json('JSON array of names') } } },
      // deprecated `/{cache-manager}` form of the listing; POST and DELETE name a cache there
      { method: 'GET', path: `${prefix}/:name`, permission: 'ADMIN', handle: (ctx, s) => { manager(ctx.params.name, s); sendJson(ctx, s.container.ignoredCaches(ctx.state.subject)); },
        doc: { summary: 'The ignored caches (deprecated form naming the cache manager)', params: { name: PATH_PARAMS.manager }, responses: { 200: json('JSON array of names'), 404: 'No such cache manager' }, deprecated: true } },
      { method: 'POST', path: `${prefix}/:name`, cacheParam: 'name', permission: 'ADMIN', handle: (ctx, s) => ignore(ctx, s, ctx.params.name, true),
        doc: { summary: 'Ignore a cache: its requests answer 503', params: { name: PATH_PARAMS.cache }, responses: DONE } },
      { method: 'DELETE', path: `${prefix}/:name`, cacheParam: 'name', permission: 'ADMIN', handle: (ctx, s) => ignore(ctx, s, ctx.params.name, false),
        doc: { summary: 'Stop ignoring a cache', params: { name: PATH_PARAMS.cache }, responses: DONE } },
      { method: 'POST', path: `${prefix}/:name/:cache`, permission: 'ADMIN', handle: (ctx, s) => { manager(ctx.params.name, s); return ignore(ctx, s, ctx.params.cache, true); },
        doc: { summary: 'Ignore a cache (deprecated form naming the cache manager)', params: { name: PATH_PARAMS.manager }, responses: { ...DONE, 404: 'No such cache manager' }, deprecated: true } },
      { method: 'DELETE', path: `${prefix}/:name/:cache`, permission: 'ADMIN', handle: (ctx, s) => { manager(ctx.params.name, s); return ignore(ctx, s, ctx.params.cache, false); },
        doc: { summary: 'Stop ignoring a cache (deprecated form naming the cache manager)', params: { name: PATH_PARAMS.manager }, responses: { ...DONE, 404: 'No such cache manager' }, deprecated: true } },
    );
  }
  return [
    { method: 'GET', path: '/rest/v2/server', permission: 'AUTHENTICATED', handle: (ctx, s) => sendJson(ctx, { version: s.server.versionString() }),
      doc: { summary: 'The server version', responses: { 200: json('{version}') } } },
    { method: 'POST', path: '/rest/v2/server', action: 'stop', permission: 'LIFECYCLE', handle: (ctx, s) => stop(ctx, s),
      doc: { summary: 'Stop this server', responses: { 204: 'Stopping' } } },
    { method: 'GET', path: '/rest/v2/server/cache-managers', permission: 'AUTHENTICATED', handle: (ctx) => sendJson(ctx, [CONTAINER_NAME]),
      doc: { summary: 'Names of the cache managers', responses: { 200: json('["default"]') } } },
    { method: 'GET', path: '/rest/v2/server/config', permission: 'ADMIN', handle: (ctx, s) => config(ctx, s),
      doc: { summary: 'The server configuration, in the format Accept names', query: [QUERY_PARAMS.pretty], responses: { 200: typed('The configuration', MEDIA.json, MEDIA.xml, MEDIA.yaml) } } },
    { method: 'GET', path: '/rest/v2/server/env', permission: 'ADMIN', handle: (ctx, s) => sendJson(ctx, s.server.runtime.properties()),
      doc: { summary: 'The runtime\'s properties', responses: { 200: json('Object of properties') } } },
    { method: 'GET', path: '/rest/v2/server/memory', permission: 'ADMIN', handle: (ctx, s) => sendJson(ctx, s.server.runtime.memory()),
      doc: { summary: 'Memory use', responses: { 200: json('Heap and non-heap use') } } },
    { method: 'GET', path: '/rest/v2/server/threads', permission: 'ADMIN', handle: (ctx, s) => sendText(ctx, s.server.runtime.threadDump()),
      doc: { summary: 'A thread dump', responses: { 200: text('The dump') } } },
    { method: 'GET', path: '/rest/v2/server/report', permission: 'ADMIN', handle: (ctx, s) => report(ctx, s),
      doc: { summary: 'A diagnostic report of this node', responses: { 200: typed('tar.gz archive', MEDIA.gzip) } } },
    { method: 'GET', path: '/rest/v2/server/report/:node', permission: 'ADMIN', handle: (ctx, s) => nodeReport(ctx, s),
      doc: { summary: 'The diagnostic report of a node', responses: { 200: typed('tar.gz archive', MEDIA.gzip), 307: 'Another live node\'s: the same path on that node', 404: 'No such node' } } },
    { method: 'GET', path: '/rest/v2/server/overview-report', permission: 'ADMIN', handle: async (ctx, s) => sendJson(ctx, s.server.overview(s.caches.userCacheNames().length, await s.cluster.view())),
      doc: { summary: 'An overview of the server', responses: { 200: json('The overview') } } },
    { method: 'GET', path: '/rest/v2/server/connectors', permission: 'ADMIN', handle: (ctx, s) => sendJson(ctx, s.server.connectors()),
      doc: { summary: 'Names of the connectors', responses: { 200: json('JSON array of names') } } },
    { method: 'GET', path: '/rest/v2/server/connectors/:connector', permission: 'ADMIN', handle: (ctx, s) => connector(ctx, s),
      doc: { summary: 'A connector', responses: { 200: json('The connector'), 404: 'No such connector' } } },
    { method: 'GET', path: '/rest/v2/server/connections', permission: 'ADMIN', handle: (ctx) => sendJson(ctx, []),
      doc: { summary: 'Open client connections (none are tracked)', responses: { 200: json('[]') } } },
    { method: 'GET', path: '/rest/v2/server/datasources', permission: 'ADMIN', handle: (ctx) => sendJson(ctx, []),
      doc: { summary: 'Names of the JDBC data sources (this server has none)', responses: { 200: json('[]') } } },
    { method: 'POST', path: '/rest/v2/server/datasources/:datasource', action: 'test', permission: 'ADMIN', handle: () => { throw new ResourceNotFoundError(); },
      doc: { summary: 'Test a data source (this server has none)', responses: { 404: 'No such data source' } } },
    // the original declares no permission for it: any authenticated caller
    { method: 'GET', path: '/rest/v2/server/caches/defaults', permission: 'AUTHENTICATED', handle: (ctx) => sendJson(ctx, defaultCacheAttributes()),
      doc: { summary: 'The default attribute values of a cache', responses: { 200: json('{"local-cache":{…}}: values as strings or null, elements nested') } } },
    // known to the original, not built here: a clear 501 instead of a 404 or 405 (docs/compatibility.md)
    notBuilt('POST', '/rest/v2/server/memory', 'heap-dump', 'Writing a heap dump (it would stop the server while written; node --heapsnapshot-signal=SIGUSR2 writes one)'),
    notBuilt('POST', '/rest/v2/server/connectors/:connector', 'start', 'Starting and stopping connectors'),
    notBuilt('POST', '/rest/v2/server/connectors/:connector', 'stop', 'Starting and stopping connectors'),
    ...(['GET', 'POST', 'DELETE'] as const).map((m) => notBuilt(m, '/rest/v2/server/connectors/:connector/ip-filter', undefined, 'IP filter rules on connectors')),
    // the ignore list belongs to a container: a tenant's is reached under /rest/<tenant>/v2/server/…
    ...ignored.map((r) => ({ ...r, perContainer: true })),
  ];
}

/** A route the original serves and this server does not: 501 with a sentence that says what. */
function notBuilt(method: RouteSpec['method'], path: string, action: string | undefined, what: string): RouteSpec {
  return { method, path, action, permission: 'ADMIN', handle: () => { throw new NotImplementedError(what); },
    doc: { summary: `${what}: not built (501)`, responses: { 501: 'Not implemented by this server' } } };
}

function manager(name: string, s: Services): void {
  if (name !== s.container.name) throw new ResourceNotFoundError();
}

async function ignore(ctx: GridContext, s: Services, cache: string, on: boolean): Promise<void> {
  await s.container.setIgnored(cache, on);
  sendStatus(ctx, 204);
}

/** 204 first, then a clean stop once the answer is on its way. */
function stop(ctx: GridContext, s: Services): void {
  sendStatus(ctx, 204);
  ctx.res.once('finish', () => s.server.requestStop());
}

function config(ctx: GridContext, s: Services): void {
  const format = negotiateAmong(headerText(ctx, 'accept'), CONFIG_TYPES);
  const doc = s.server.configuration();
  if (format === 'yaml') return sendText(ctx, yaml().stringify(doc, { aliasDuplicateObjects: false }), 'application/yaml');
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

/**
 * This node's own name gets its report, a name no live node has 404 (docs/reference/management-plane.md#server-runtime);
 * another live node's report is that node's to give: 307 there (docs/scale-out.md, "Membership").
 */
async function nodeReport(ctx: GridContext, s: Services): Promise<void> {
  if (ctx.params.node === s.node.name) return report(ctx, s);
  const other = (await s.cluster.view()).members.find((m) => m.name === ctx.params.node);
  if (!other) throw new NodeNotFoundError();
  redirectToNode(ctx, { ...other, live: true });
}

function connector(ctx: GridContext, s: Services): void {
  const connector = s.server.connector(ctx.params.connector);
  if (!connector) throw new ResourceNotFoundError();
  sendJson(ctx, connector);
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

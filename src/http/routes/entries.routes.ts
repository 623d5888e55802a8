import type { Context } from 'koa';
import { DEFAULT_KEY_TYPE, LEGACY_KEY_TYPE } from '../../model/key-codec';
import type { MediaType } from '../../model/media-type';
import { parseEntryFlags } from '../../model/flags';
import type { CacheEntry, Services } from '../../services';
import { storageTypes } from '../../services/storage-types';
import { negotiateValueType, requestMediaType } from '../negotiate';
import { readBody } from '../request-body';
import { presentKeyDistribution } from '../presenters/cache.presenter';
import { noContent, sendJson, sendStatus } from '../respond';
import type { GridContext, RouteSpec } from '../route-spec';

/** Entry operations: `/rest/v2/caches/{cache}/{key}` and the legacy `/rest/{cache}/{key}`. */
export function entryRoutes(): RouteSpec[] {
  const routes: RouteSpec[] = [];
  // the legacy API reads keys as Java Strings unless told otherwise (behavior-notes §18)
  const bases = [['/rest/v2/caches/:cache/:key', DEFAULT_KEY_TYPE], ['/rest/:cache/:key', LEGACY_KEY_TYPE]] as const;
  for (const [base, keyType] of bases) {
    const k: KeyReader = (ctx, s) => keyOf(ctx, s, keyType);
    routes.push(
      { method: 'GET', path: base, scope: 'cache', permission: 'READ', handle: (ctx, s) => read(ctx, s, k) },
      { method: 'HEAD', path: base, scope: 'cache', permission: 'READ', handle: (ctx, s) => read(ctx, s, k) },
      { method: 'PUT', path: base, scope: 'cache', permission: 'WRITE', handle: (ctx, s) => write(ctx, s, k, 'put') },
      { method: 'POST', path: base, scope: 'cache', permission: 'WRITE', handle: (ctx, s) => write(ctx, s, k, 'putIfAbsent') },
      { method: 'DELETE', path: base, scope: 'cache', permission: 'WRITE', handle: (ctx, s) => remove(ctx, s, k) },
    );
  }
  routes.push({
    method: 'GET', path: '/rest/v2/caches/:cache/:key', action: 'distribution', scope: 'cache', permission: 'MONITOR',
    handle: async (ctx, s) => sendJson(ctx, presentKeyDistribution(s.node, await s.entries.containsKey(ctx.state.cache, keyOf(ctx, s, DEFAULT_KEY_TYPE)))),
  });
  return routes;
}

type KeyReader = (ctx: GridContext, s: Services) => Buffer;

/** The path key in Key-Content-Type, converted to the cache's key storage type (behavior-notes §4.4). */
function keyOf(ctx: GridContext, s: Services, defaultType: MediaType): Buffer {
  const keyType = requestMediaType(header(ctx, 'key-content-type')) ?? defaultType;
  return s.entries.storedKey(ctx.state.cache, ctx.params.key, keyType);
}

function header(ctx: Context, name: string): string | undefined {
  const v = ctx.get(name);
  return v === '' ? undefined : v;
}

/** GET and HEAD (Koa leaves the body out of HEAD responses). */
async function read(ctx: GridContext, s: Services, readKey: KeyReader): Promise<void> {
  const h = ctx.state.cache;
  parseEntryFlags(header(ctx, 'flags'));
  const key = readKey(ctx, s);
  const { contentType, target } = negotiateValueType(header(ctx, 'accept'), storageTypes(h).value, h.cache.settings.valueMediaType);
  const minFresh = /min-fresh=(\d+)/.exec(ctx.get('cache-control'))?.[1];
  const { entry, lastModified, body, etag } = await s.entries.read(h, key, {
    ifNoneMatch: header(ctx, 'if-none-match'), ifMatch: header(ctx, 'if-match'),
    ifModifiedSince: header(ctx, 'if-modified-since'), ifUnmodifiedSince: header(ctx, 'if-unmodified-since'),
  }, minFresh === undefined ? undefined : Number(minFresh), target);
  writeEntryHeaders(ctx, s, entry, etag, lastModified);
  if ('extended' in ctx.query) writeExtendedHeaders(ctx, s);
  ctx.status = 200;
  ctx.set('Content-Type', contentType);
  ctx.body = body;
}

function writeEntryHeaders(ctx: Context, s: Services, e: CacheEntry, etag: string, lastModified: number | undefined): void {
  ctx.set('Etag', etag);
  if (lastModified !== undefined) ctx.set('Last-Modified', new Date(lastModified).toUTCString());
  const expires = s.entries.expiresAt(e);
  if (expires !== null) {
    ctx.set('Expires', new Date(expires).toUTCString());
    const left = Math.floor((expires - s.clock.now()) / 1000);
    ctx.set('Cache-Control', left > 0 ? `max-age=${left}` : 'no-cache');
  }
  if (e.lifespan >= 0) ctx.set('timeToLiveSeconds', String(Math.floor(e.lifespan / 1000)));
  if (e.maxIdle >= 0) ctx.set('maxIdleTimeSeconds', String(Math.floor(e.maxIdle / 1000)));
  if (lastModified !== undefined) {
    ctx.set('created', String(e.created));
    ctx.set('lastUsed', String(e.lastUsed));
  }
}

/** `?extended`: both the spec's header names and the original's (behavior-notes §5.3). */
function writeExtendedHeaders(ctx: Context, s: Services): void {
  ctx.set('Cluster-Primary-Owner', s.node.name);
  ctx.set('Cluster-Backup-Owners', '');
  ctx.set('Cluster-Node-Name', s.node.name);
  ctx.set('Cluster-Server-Address', `[${s.node.address}]`);
  ctx.set('Cluster-Physical-Address', s.node.address);
}

async function write(ctx: GridContext, s: Services, readKey: KeyReader, op: 'put' | 'putIfAbsent'): Promise<void> {
  const h = ctx.state.cache;
  parseEntryFlags(header(ctx, 'flags'));
  const key = readKey(ctx, s);
  const contentType = requestMediaType(header(ctx, 'content-type'));
  const value = await readBody(ctx, s.bodyLimit);
  const entry = await s.entries[op](h, {
    key, value, contentType,
    ttlHeader: header(ctx, 'timeToLiveSeconds'), idleHeader: header(ctx, 'maxIdleTimeSeconds'),
    ifNoneMatch: header(ctx, 'if-none-match'),
  });
  ctx.set('Etag', entry.etag);
  noContent(ctx);
}

async function remove(ctx: GridContext, s: Services, readKey: KeyReader): Promise<void> {
  parseEntryFlags(header(ctx, 'flags'));
  await s.entries.remove(ctx.state.cache, readKey(ctx, s), header(ctx, 'if-none-match'));
  sendStatus(ctx, 204);
}

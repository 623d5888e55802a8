import type { KeyOwners } from '../../services';
import type { Context } from 'koa';
import { DEFAULT_KEY_TYPE, LEGACY_KEY_TYPE } from '../../model/media/key-codec';
import type { MediaType } from '../../model/media/media-type';
import type { CacheEntry, Services } from '../../services';
import type { ReadResult } from '../../services/entry.service';
import { storageTypes } from '../../services/storage-types';
import { negotiateValueType } from '../negotiate';
import { readBody } from '../request-body';
import { contentType, entryFlags, headerText, keyContentType, minFreshSeconds, readPreconditions, requestedExpiry } from '../request-headers';
import { presentKeyDistribution } from '../presenters/cache.presenter';
import { noContent, sendJson, sendStatus } from '../respond';
import { HEADERS, json, MEDIA, param, type RouteDoc, typed } from '../route-doc';
import type { GridContext, RouteSpec } from '../route-spec';

const NO_ENTRY = 'No such key';
const EXTENDED = param('extended', 'Add the Cluster-* headers naming the owners', { type: 'boolean' });
const READ_HEADERS = [HEADERS.keyContentType, HEADERS.flags, HEADERS.ifNoneMatch, HEADERS.ifMatch, HEADERS.ifModifiedSince, HEADERS.ifUnmodifiedSince, HEADERS.cacheControl];
const WRITE_HEADERS = [HEADERS.keyContentType, HEADERS.flags, HEADERS.ttl, HEADERS.maxIdle, HEADERS.ifNoneMatch];
const READ = {
  200: typed('The value, with Etag, Last-Modified, Expires and lifespan headers', MEDIA.any), 304: 'Not modified (If-None-Match, If-Modified-Since)',
  404: NO_ENTRY, 406: 'The value cannot be converted to the type Accept names', 412: 'If-Match or If-Unmodified-Since does not hold',
};
const WRITTEN = {
  204: 'Stored; the new Etag in the header', 400: 'Invalid flags, expiration or content type', 412: 'If-None-Match does not hold',
  500: 'The cache is full and refuses writes (ISPN000514)',
};

/** Entry operations: `/rest/v2/caches/{cache}/{key}` and the legacy `/rest/{cache}/{key}`. */
export function entryRoutes(): RouteSpec[] {
  const routes: RouteSpec[] = [];
  // the legacy API reads keys as Java Strings unless told otherwise (docs/reference/data-plane.md#legacy-v1)
  const bases = [['/rest/v2/caches/:cache/:key', DEFAULT_KEY_TYPE], ['/rest/:cache/:key', LEGACY_KEY_TYPE]] as const;
  for (const [base, keyType] of bases) {
    const k: KeyReader = (ctx, s) => keyOf(ctx, s, keyType);
    const legacy = base.startsWith('/rest/:cache');
    const doc = (d: RouteDoc): RouteDoc => (legacy ? { ...d, deprecated: true, params: { key: 'Entry key, read in the `Key-Content-Type` (default: a Java String)' } } : d);
    routes.push(
      { method: 'GET', path: base, scope: 'cache', permission: 'READ', handle: (ctx, s) => read(ctx, s, k),
        doc: doc({ summary: 'Read an entry, in the type Accept names', query: [EXTENDED], headers: READ_HEADERS, responses: READ }) },
      { method: 'HEAD', path: base, scope: 'cache', permission: 'READ', handle: (ctx, s) => read(ctx, s, k),
        doc: doc({ summary: 'Headers of an entry', query: [EXTENDED], headers: READ_HEADERS, responses: READ }) },
      { method: 'PUT', path: base, scope: 'cache', permission: 'WRITE', handle: (ctx, s) => write(ctx, s, k, 'put'),
        doc: doc({ summary: 'Store an entry, replacing any', headers: WRITE_HEADERS, body: [MEDIA.any], responses: WRITTEN }) },
      { method: 'POST', path: base, scope: 'cache', permission: 'WRITE', handle: (ctx, s) => write(ctx, s, k, 'putIfAbsent'),
        doc: doc({ summary: 'Store an entry unless the key exists', headers: WRITE_HEADERS, body: [MEDIA.any], responses: { ...WRITTEN, 409: 'The key exists; its value is unchanged' } }) },
      { method: 'DELETE', path: base, scope: 'cache', permission: 'WRITE', handle: (ctx, s) => remove(ctx, s, k),
        doc: doc({ summary: 'Remove an entry', headers: [HEADERS.keyContentType, HEADERS.flags, HEADERS.ifNoneMatch], responses: { 204: 'Removed', 404: NO_ENTRY, 412: 'If-None-Match does not hold' } }) },
    );
  }
  routes.push({
    method: 'GET', path: '/rest/v2/caches/:cache/:key', action: 'distribution', scope: 'cache', permission: 'MONITOR',
    doc: { summary: 'Which nodes own the key', headers: [HEADERS.keyContentType], responses: { 200: json('{contains_key, owners: [{node_name, node_addresses, primary}]}') } },
    handle: async (ctx, s) => {
      const key = keyOf(ctx, s, DEFAULT_KEY_TYPE);
      const [held, owners] = await Promise.all([s.entries.containsKey(ctx.state.cache, key), s.entries.owners(ctx.state.cache, key)]);
      sendJson(ctx, presentKeyDistribution(s.node, held, owners));
    },
  });
  return routes;
}

type KeyReader = (ctx: GridContext, s: Services) => Buffer;

/** The path key in Key-Content-Type, converted to the cache's key storage type (docs/reference/media-types.md#keys). */
function keyOf(ctx: GridContext, s: Services, defaultType: MediaType): Buffer {
  const keyType = keyContentType(ctx) ?? defaultType;
  return s.entries.storedKey(ctx.state.cache, ctx.params.key, keyType);
}

/** GET and HEAD (Koa leaves the body out of HEAD responses); answered at once unless the key's last write is still being committed. */
function read(ctx: GridContext, s: Services, readKey: KeyReader): Promise<void> | void {
  const cache = ctx.state.cache;
  const flags = entryFlags(ctx);
  const key = readKey(ctx, s);
  const { contentType: type, target } = negotiateValueType(headerText(ctx, 'accept'), storageTypes(cache).value, cache.settings.valueMediaType);
  const found = s.entries.read(cache, key, flags, readPreconditions(ctx), minFreshSeconds(ctx), target);
  const extended = ctx.querystring !== '' && 'extended' in ctx.query;
  const owners = extended ? s.entries.owners(cache, key) : undefined;
  if (found instanceof Promise || owners) return Promise.all([found, owners]).then(([r, o]) => answerRead(ctx, s, r, type, extended, o));
  answerRead(ctx, s, found, type, extended, undefined);
}

/** `extended`: with the Cluster-* headers, naming `owners` (undefined: this node holds every entry). */
function answerRead(ctx: GridContext, s: Services, { entry, lastModified, body, etag }: ReadResult, contentType: string, extended: boolean, owners: KeyOwners | undefined): void {
  writeEntryHeaders(ctx, s, entry, etag, lastModified);
  if (extended) writeExtendedHeaders(ctx, s, owners);
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

/**
 * `?extended`: both the spec's header names and the original's (docs/reference/data-plane.md#extended-headers);
 * the owners are this node, or the engine nodes that hold the key (docs/scale-out.md, "Owners and health").
 */
function writeExtendedHeaders(ctx: Context, s: Services, owners: KeyOwners | undefined): void {
  ctx.set('Cluster-Primary-Owner', owners?.primary.address ?? s.node.name);
  ctx.set('Cluster-Backup-Owners', owners?.backups.map((b) => b.address).join(' ') ?? '');
  ctx.set('Cluster-Node-Name', s.node.name);
  ctx.set('Cluster-Server-Address', `[${s.node.address}]`);
  ctx.set('Cluster-Physical-Address', s.node.address);
}

/** PUT and POST: answered once the body is read and, for a persistent cache, once the write is committed. */
function write(ctx: GridContext, s: Services, readKey: KeyReader, op: 'put' | 'putIfAbsent'): Promise<void> {
  const cache = ctx.state.cache;
  const flags = entryFlags(ctx);
  const key = readKey(ctx, s);
  const type = contentType(ctx);
  return readBody(ctx, s.bodyLimit).then((value) => {
    const entry = s.entries[op](cache, { key, value, contentType: type, ...requestedExpiry(ctx), ifNoneMatch: headerText(ctx, 'if-none-match'), flags });
    if (entry instanceof Promise) return entry.then((e) => written(ctx, e));
    written(ctx, entry);
  });
}

function written(ctx: GridContext, entry: CacheEntry): void {
  ctx.set('Etag', entry.etag);
  noContent(ctx);
}

async function remove(ctx: GridContext, s: Services, readKey: KeyReader): Promise<void> {
  const flags = entryFlags(ctx);
  await s.entries.remove(ctx.state.cache, readKey(ctx, s), headerText(ctx, 'if-none-match'), flags);
  sendStatus(ctx, 204);
}

import { Readable } from 'node:stream';
import {
  MethodRequiresContentError, MissingArgumentError, UnknownAvailabilityError, WrongCompareContentError, WrongMediaTypeError, WrongMethodError,
} from '../../errors';
import { type ConfigFormat, parseConfigType } from '../../model/cache-config';
import { JSON_TYPE, XML_TYPE, YAML_TYPE } from '../../model/media/media-type';
import { hasPermission } from '../../model/security/permissions';
import type { Services } from '../../services';
import { cacheMask } from '../../services/auth/authorization';
import { cacheHealthOf } from '../../services/container.service';
import { negotiateAmong } from '../negotiate';
import { intParam, isTrue, query } from '../params';
import { presentCacheDetails, presentCacheListItem, presentCacheStats } from '../presenters/cache.presenter';
import { readFormParts } from '../form-parts';
import { readText, refuseBody } from '../request-body';
import { adminFlags, configContentType, entryFlags, headerText } from '../request-headers';
import { sendJson, sendJsonArray, sendStatus, sendText, setJsonType } from '../respond';
import { BAD_CONFIG, CONFIG_BODY, DONE, HEADERS, json, MEDIA, OK_EMPTY, param, QUERY_PARAMS, text, typed } from '../route-doc';
import type { GridContext, RouteSpec } from '../route-spec';
import { listenEntries } from '../event-streams';

const CONFIG_FORMATS: Record<string, ConfigFormat> = { [JSON_TYPE]: 'json', [XML_TYPE]: 'xml', [YAML_TYPE]: 'yaml' };
const CONFIG_TYPES: Record<ConfigFormat, string> = { json: JSON_TYPE, xml: XML_TYPE, yaml: YAML_TYPE };
/** A cache configuration is a few KiB; a compare part may hold this much (CVE-2024-6875). */
const MAX_CONFIG_PART = 1024 * 1024;

const METADATA = param('metadata', 'Add each entry\'s metadata (lifespan, timestamps, version)', { type: 'boolean' });
const CONTENT_NEGOTIATION = param('content-negotiation', 'Render keys and values in a readable type (JSON, text, or 0x hex)', { type: 'boolean' });
const IGNORE_MUTABLE = param('ignoreMutable', 'Ignore the attributes that may change at run time', { type: 'boolean' });
const AVAILABILITY = param('availability', 'The mode', { required: true, enum: ['AVAILABLE', 'DEGRADED_MODE'] });

/** Cache management: `/rest/v2/caches…` (docs/reference/management-plane.md#caches). */
export function cacheRoutes(): RouteSpec[] {
  const c = '/rest/v2/caches/:cache';
  return [
    { method: 'GET', path: '/rest/v2/caches', permission: 'AUTHENTICATED', handle: (ctx, s) => listNames(ctx, s),
      doc: { summary: 'Names of the caches the caller may see', responses: { 200: json('JSON array of names') } } },
    { method: 'GET', path: '/rest/v2/caches', action: 'detailed', permission: 'AUTHENTICATED', handle: (ctx, s) => listDetailed(ctx, s),
      doc: { summary: 'The caches the caller may see, with status, type and features', responses: { 200: json('JSON array of caches') } } },
    { method: 'POST', path: '/rest/v2/caches', action: 'convert', permission: 'AUTHENTICATED', handle: (ctx, s) => convert(ctx, s, false),
      doc: { summary: 'Convert a configuration to the format Accept names', body: CONFIG_BODY, responses: { 200: typed('The configuration', ...CONFIG_BODY), ...BAD_CONFIG } } },
    { method: 'POST', path: '/rest/v2/caches', action: 'toJSON', permission: 'AUTHENTICATED', handle: (ctx, s) => convert(ctx, s, true),
      doc: { summary: 'Convert a configuration to JSON', body: CONFIG_BODY, responses: { 200: json('The configuration'), ...BAD_CONFIG } } },
    { method: 'POST', path: '/rest/v2/caches', action: 'compare', permission: 'AUTHENTICATED', handle: (ctx, s) => compare(ctx, s),
      doc: { summary: 'Compare two configurations, the two parts of a multipart body', query: [IGNORE_MUTABLE], body: [MEDIA.multipart], responses: { 204: 'They are equal', 400: 'Not multipart/form-data, not exactly two parts, or a part is not a configuration', 409: 'They differ' } } },
    { method: 'POST', path: c, permission: 'CREATE', handle: (ctx, s) => create(ctx, s),
      doc: { summary: 'Create a cache or template from a configuration, a template or the defaults', query: [QUERY_PARAMS.template], headers: [HEADERS.configFlags], body: CONFIG_BODY, responses: { ...OK_EMPTY, 400: 'Invalid configuration, name or template, or the cache exists' } } },
    { method: 'PUT', path: c, permission: 'CREATE', handle: (ctx, s) => createOrUpdate(ctx, s),
      doc: { summary: 'Create a cache, or update it with compatible changes', headers: [HEADERS.configFlags], body: CONFIG_BODY, responses: { ...OK_EMPTY, 400: 'Invalid or incompatible configuration' } } },
    { method: 'DELETE', path: c, permission: 'CREATE', handle: (ctx, s) => remove(ctx, s),
      doc: { summary: 'Remove a cache, or else the template of that name', responses: { ...OK_EMPTY, 404: 'No such cache or template' } } },
    { method: 'HEAD', path: c, permission: 'AUTHENTICATED', handle: (ctx, s) => sendStatus(ctx, s.caches.exists(ctx.params.cache) ? 204 : 404),
      doc: { summary: 'Whether a cache or alias exists', responses: { 204: 'It exists', 404: 'It does not' } } },
    { method: 'GET', path: c, scope: 'cache', permission: 'MONITOR', handle: (ctx, s) => details(ctx, s),
      doc: { summary: 'Cache details: statistics, size, features, configuration (with ADMIN)', responses: { 200: json('The details') } } },
    { method: 'GET', path: c, action: 'config', scope: 'cache', permission: 'ADMIN', handle: (ctx, s) => config(ctx, s),
      doc: { summary: 'The configuration, in the format Accept names', query: [QUERY_PARAMS.pretty], responses: { 200: typed('The configuration', ...CONFIG_BODY) } } },
    { method: 'HEAD', path: c, action: 'config', scope: 'cache', permission: 'ADMIN', handle: (ctx, s) => config(ctx, s),
      doc: { summary: 'Headers of the configuration', responses: { 200: 'Headers only' } } },
    { method: 'GET', path: c, action: 'keys', scope: 'cache', permission: 'BULK_READ', handle: (ctx, s) => keys(ctx, s),
      doc: { summary: 'The keys, streamed', query: [QUERY_PARAMS.limit, QUERY_PARAMS.batch], responses: { 200: json('JSON array of keys'), 400: 'A non-numeric limit or batch' } } },
    { method: 'GET', path: c, action: 'entries', scope: 'cache', permission: 'BULK_READ', handle: (ctx, s) => entries(ctx, s),
      doc: { summary: 'The entries, streamed', query: [QUERY_PARAMS.limit, QUERY_PARAMS.batch, METADATA, CONTENT_NEGOTIATION], responses: { 200: json('JSON array of {key, value[, metadata]}'), 400: 'A non-numeric limit or batch' } } },
    { method: 'POST', path: c, action: 'clear', scope: 'cache', permission: 'BULK_WRITE', handle: (ctx, s) => clear(ctx, s),
      doc: { summary: 'Remove every entry', responses: DONE } },
    { method: 'GET', path: c, action: 'size', scope: 'cache', permission: 'BULK_READ',
      handle: async (ctx, s) => sendJson(ctx, await s.caches.size(ctx.state.cache, entryFlags(ctx))),
      doc: { summary: 'Number of entries (with SKIP_CACHE_LOAD, those in memory)', headers: [HEADERS.flags], responses: { 200: json('A number'), 400: 'An unknown flag' } } },
    { method: 'GET', path: c, action: 'stats', scope: 'cache', permission: 'MONITOR', handle: (ctx, s) => stats(ctx, s),
      doc: { summary: 'Statistics', responses: { 200: json('The statistics') } } },
    { method: 'POST', path: c, action: 'stats-reset', scope: 'cache', permission: 'ADMIN', handle: (ctx, s) => statsReset(ctx, s),
      doc: { summary: 'Reset the statistics', responses: DONE } },
    { method: 'GET', path: c, action: 'listen', scope: 'cache', permission: 'LISTEN', handle: (ctx, s) => listenEntries(ctx, s),
      doc: { summary: 'Entry events as server-sent events, keys in the type Accept names (JSON or text)', query: [QUERY_PARAMS.includeCurrentState], responses: { 200: typed('Event stream', MEDIA.events) } } },
    { method: 'GET', path: c, action: 'health', scope: 'cache', permission: 'MONITOR', handle: (ctx) => sendText(ctx, cacheHealthOf(ctx.state.cache)),
      doc: { summary: 'Health of the cache', responses: { 200: text('HEALTHY, DEGRADED, …') } } },
    { method: 'GET', path: c, action: 'get-availability', scope: 'cache', permission: 'ADMIN', handle: (ctx) => sendText(ctx, ctx.state.cache.availability),
      doc: { summary: 'Availability mode', responses: { 200: text('AVAILABLE or DEGRADED_MODE') } } },
    { method: 'POST', path: c, action: 'set-availability', scope: 'cache', permission: 'ADMIN', handle: (ctx, s) => setAvailability(ctx, s),
      doc: { summary: 'Set the availability mode', query: [AVAILABILITY], responses: { ...DONE, 400: 'Missing or unknown availability' } } },
  ];
}

function listNames(ctx: GridContext, s: Services): void {
  sendJson(ctx, s.caches.visibleTo(ctx.state.subject, { internal: true }).map((c) => c.name));
}

/** Streamed: each item carries the cache's aliases, which a configuration may list by the thousand. */
export function listDetailed(ctx: GridContext, s: Services): void {
  const visible = s.caches.visibleTo(ctx.state.subject, { internal: false });
  sendJsonArray(ctx, lazyMap(visible, (c) => presentCacheListItem(c, s.container.isIgnored(c.name), s.container.rebalancingEnabled)));
}

function* lazyMap<T, U>(items: Iterable<T>, f: (item: T) => U): Generator<U> {
  for (const item of items) yield f(item);
}

/** Configuration bodies are refused past `config-bytes` (413) before they are read in full. */
function configLimit(s: Services): number {
  return Math.min(s.bodyLimit, s.limits.configBytes);
}

function bodyOf(ctx: GridContext, text: string) {
  return { text, contentType: configContentType(ctx) };
}

async function create(ctx: GridContext, s: Services): Promise<void> {
  const text = await readText(ctx, configLimit(s));
  await s.caches.create(ctx.params.cache, bodyOf(ctx, text), query(ctx, 'template'), adminFlags(ctx), ctx.state.subject);
  sendStatus(ctx, 200);
}

/** PUT takes a configuration body and no template (ISPN012034 otherwise, before its flags are read). */
async function createOrUpdate(ctx: GridContext, s: Services): Promise<void> {
  const text = await readText(ctx, configLimit(s));
  if (text.trim() === '' || query(ctx, 'template') !== undefined) throw new WrongMethodError('PUT');
  await s.caches.createOrUpdate(ctx.params.cache, bodyOf(ctx, text), adminFlags(ctx), ctx.state.subject);
  sendStatus(ctx, 200);
}

async function remove(ctx: GridContext, s: Services): Promise<void> {
  await s.caches.remove(ctx.params.cache);
  sendStatus(ctx, 200);
}

async function details(ctx: GridContext, s: Services): Promise<void> {
  const cache = ctx.state.cache;
  const size = await s.caches.size(cache);
  const admin = hasPermission(cacheMask(ctx.state.subject, cache), 'ADMIN');
  const configuration = admin ? JSON.parse(s.caches.configOf(cache, 'json', false)) : undefined;
  const inMemory = await s.caches.memoryEntries(cache);
  // the other nodes' counters are asked for at the moment this node reads its own: stats are cluster-wide here (docs/scale-out.md, "Cluster-wide statistics")
  const others = cache.settings.statistics ? await s.cluster.othersFigures('cache-statistics', s.container.name, cache.name) : [];
  const figures = { size, inMemory, statistics: s.caches.statistics(cache) };
  sendJson(ctx, presentCacheDetails(cache, figures, others, s.clock.now(), admin, configuration, s.container.rebalancingEnabled));
}

function config(ctx: GridContext, s: Services): void {
  const format = negotiateAmong(headerText(ctx, 'accept'), CONFIG_FORMATS);
  sendText(ctx, s.caches.configOf(ctx.state.cache, format, isTrue(query(ctx, 'pretty'))), CONFIG_TYPES[format]);
}

async function convert(ctx: GridContext, s: Services, jsonOnly: boolean): Promise<void> {
  const text = await readText(ctx, configLimit(s));
  if (text.trim() === '') throw new MethodRequiresContentError();
  const format = jsonOnly ? 'json' : negotiateAmong(headerText(ctx, 'accept'), CONFIG_FORMATS);
  sendText(ctx, await s.caches.convert(bodyOf(ctx, text), format, isTrue(query(ctx, 'pretty'))), CONFIG_TYPES[format]);
}

/**
 * Two configurations, one per part of a multipart/form-data body (docs/reference/management-plane.md#config-compare): 204 when
 * equal, 409 when not. Parts are small and few; anything more is refused before it is held.
 */
async function compare(ctx: GridContext, s: Services): Promise<void> {
  const type = headerText(ctx, 'content-type');
  if (type !== undefined && type.split(';')[0].trim().toLowerCase() !== 'multipart/form-data') {
    refuseBody(ctx);
    throw new WrongMediaTypeError('multipart/form-data', type.trim());
  }
  const parts = await readFormParts(ctx, {
    maxParts: 2,
    tooMany: () => new WrongCompareContentError(),
    maxPartBytes: Math.min(s.bodyLimit, MAX_CONFIG_PART, s.limits.configBytes),
    maxBodyBytes: s.bodyLimit,
    malformed: () => new WrongCompareContentError(),
  });
  if (parts.length !== 2) throw new WrongCompareContentError();
  const [first, second] = parts.map((p) => ({ text: p.text, contentType: parseConfigType(p.contentType) }));
  await s.caches.compare(first, second, isTrue(query(ctx, 'ignoreMutable')));
  sendStatus(ctx, 204);
}

function keys(ctx: GridContext, s: Services): void {
  const limit = intParam(ctx, 'limit', -1);
  intParam(ctx, 'batch', 1000);
  ctx.status = 200;
  setJsonType(ctx);
  ctx.body = Readable.from(s.bulk.keysJson(ctx.state.cache, limit));
}

function entries(ctx: GridContext, s: Services): void {
  const cache = ctx.state.cache;
  const contentNegotiation = isTrue(query(ctx, 'content-negotiation'));
  const opts = { limit: intParam(ctx, 'limit', -1), metadata: isTrue(query(ctx, 'metadata')), contentNegotiation };
  intParam(ctx, 'batch', 1000);
  const types = s.bulk.entriesMediaTypes(cache, contentNegotiation);
  ctx.status = 200;
  setJsonType(ctx);
  ctx.set('key-content-type', types.key);
  ctx.set('value-content-type', types.value);
  ctx.body = Readable.from(s.bulk.entriesJson(cache, opts));
}

async function clear(ctx: GridContext, s: Services): Promise<void> {
  await s.caches.clear(ctx.state.cache);
  sendStatus(ctx, 204);
}

async function stats(ctx: GridContext, s: Services): Promise<void> {
  const cache = ctx.state.cache;
  const size = await s.caches.size(cache);
  const inMemory = await s.caches.memoryEntries(cache);
  sendJson(ctx, presentCacheStats(cache, { size, inMemory, statistics: s.caches.statistics(cache) }, s.clock.now()));
}

/** `?availability=AVAILABLE|DEGRADED_MODE` (case-insensitive); reported by health as DEGRADED. */
async function setAvailability(ctx: GridContext, s: Services): Promise<void> {
  const raw = query(ctx, 'availability');
  if (raw === undefined) throw new MissingArgumentError('availability');
  const mode = raw.toUpperCase();
  if (mode !== 'AVAILABLE' && mode !== 'DEGRADED_MODE') throw new UnknownAvailabilityError(raw);
  await s.caches.setAvailability(ctx.state.cache, mode);
  sendStatus(ctx, 204);
}

function statsReset(ctx: GridContext, s: Services): void {
  s.caches.resetStats(ctx.state.cache);
  sendStatus(ctx, 204);
}

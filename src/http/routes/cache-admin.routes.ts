import { MissingArgumentError, RoleNotFoundError } from '../../errors';
import type { Services } from '../../services';
import { isTrue, query, queryAll } from '../params';
import { presentCacheDistribution, presentMutableAttributes } from '../presenters/cache.presenter';
import { sendJson, sendStatus } from '../respond';
import { DONE, json, OK_EMPTY, param } from '../route-doc';
import type { GridContext, RouteSpec } from '../route-spec';

const FULL = param('full', 'Give each attribute\'s value and type', { type: 'boolean' });
const ATTRIBUTE = param('attribute-name', 'Dotted attribute name, e.g. expiration.lifespan', { required: true });
const VALUE = param('attribute-value', 'The new value; repeat it for a set (none clears one)', { repeated: true });
const ALIAS = param('alias', 'The alias', { required: true });
const ROLE = param('role', 'Role name', { required: true });

/**
 * Running-cache administration under `/rest/v2/caches` (docs/reference/management-plane.md#mutable-attributes, docs/reference/management-plane.md#cache-stats): mutable
 * attributes, aliases, per-cache rebalancing, distribution, and which caches a role reaches.
 */
export function cacheAdminRoutes(): RouteSpec[] {
  const c = '/rest/v2/caches/:cache';
  return [
    { method: 'GET', path: '/rest/v2/caches', action: 'role-accessible', permission: 'ADMIN', handle: (ctx, s) => roleAccessible(ctx, s),
      doc: { summary: 'The caches a role reaches, secured and not', query: [ROLE], responses: { 200: json('{"secured": [names], "non-secured": [names]}'), 400: 'No role given', 404: 'No such role (always, with authorization off)' } } },
    { method: 'GET', path: c, action: 'get-mutable-attributes', scope: 'cache', permission: 'ADMIN', handle: (ctx, s) => mutableAttributes(ctx, s),
      doc: { summary: 'The configuration attributes that may change at run time', query: [FULL], responses: { 200: json('Object by dotted name: the value, or {value, type} with full=true') } } },
    { method: 'GET', path: c, action: 'get-mutable-attribute', scope: 'cache', permission: 'ADMIN', handle: (ctx, s) => sendJson(ctx, s.caches.mutableAttribute(ctx.state.cache, attributeName(ctx))),
      doc: { summary: 'One mutable attribute', query: [ATTRIBUTE], responses: { 200: json('Its value'), 400: 'No attribute-name, or the attribute is not mutable' } } },
    { method: 'POST', path: c, action: 'set-mutable-attribute', scope: 'cache', permission: 'ADMIN', handle: (ctx, s) => setMutableAttribute(ctx, s),
      doc: { summary: 'Change a mutable attribute (persisted)', query: [ATTRIBUTE, VALUE], responses: { ...OK_EMPTY, 400: 'Missing name, immutable attribute (ISPN012035) or invalid value' } } },
    { method: 'POST', path: c, action: 'assign-alias', scope: 'cache', permission: 'ADMIN', handle: (ctx, s) => assignAlias(ctx, s),
      doc: { summary: 'Point an alias at the cache', query: [ALIAS], responses: { ...OK_EMPTY, 400: 'No alias given, or another cache holds it' } } },
    { method: 'POST', path: c, action: 'enable-rebalancing', scope: 'cache', permission: 'ADMIN', handle: (ctx, s) => rebalancing(ctx, s, true),
      doc: { summary: 'Enable rebalancing of the cache', responses: DONE } },
    { method: 'POST', path: c, action: 'disable-rebalancing', scope: 'cache', permission: 'ADMIN', handle: (ctx, s) => rebalancing(ctx, s, false),
      doc: { summary: 'Disable rebalancing of the cache', responses: DONE } },
    { method: 'GET', path: c, action: 'distribution', scope: 'cache', permission: 'MONITOR', handle: (ctx, s) => distribution(ctx, s),
      doc: { summary: 'Entries and memory per node', responses: { 200: json('[{node_name, node_addresses, memory_entries, total_entries, memory_used}]') } } },
  ];
}

function required(ctx: GridContext, name: string): string {
  const value = query(ctx, name);
  if (value === undefined || value === '') throw new MissingArgumentError(name);
  return value;
}

function attributeName(ctx: GridContext): string {
  return required(ctx, 'attribute-name');
}

function mutableAttributes(ctx: GridContext, s: Services): void {
  sendJson(ctx, presentMutableAttributes(s.caches.mutableAttributes(ctx.state.cache), isTrue(query(ctx, 'full'))));
}

/** Every `attribute-value` counts (joined by a space); none at all clears a set. */
async function setMutableAttribute(ctx: GridContext, s: Services): Promise<void> {
  await s.caches.setMutableAttribute(ctx.state.cache, attributeName(ctx), queryAll(ctx, 'attribute-value'), ctx.state.subject);
  sendStatus(ctx, 200);
}

async function assignAlias(ctx: GridContext, s: Services): Promise<void> {
  await s.caches.assignAlias(ctx.state.cache, required(ctx, 'alias'), ctx.state.subject);
  sendStatus(ctx, 200);
}

async function rebalancing(ctx: GridContext, s: Services, enabled: boolean): Promise<void> {
  await s.caches.setRebalancing(ctx.state.cache, enabled);
  sendStatus(ctx, 204);
}

async function distribution(ctx: GridContext, s: Services): Promise<void> {
  sendJson(ctx, presentCacheDistribution(s.node, await s.caches.distribution(ctx.state.cache)));
}

/** 404 for a role the server does not know, which is every role when authorization is off (docs/reference/management-plane.md#role-accessible). */
function roleAccessible(ctx: GridContext, s: Services): void {
  const role = required(ctx, 'role');
  if (!s.authEnabled || !s.roles.exists(role)) throw new RoleNotFoundError();
  sendJson(ctx, s.caches.cachesForRole(ctx.state.subject, role));
}

import { MissingArgumentError, RoleNotFoundError } from '../../errors';
import type { Services } from '../../services';
import { isTrue, query, queryAll } from '../params';
import { presentCacheDistribution, presentMutableAttributes } from '../presenters/cache.presenter';
import { sendJson, sendStatus } from '../respond';
import type { GridContext, RouteSpec } from '../route-spec';

/**
 * Running-cache administration under `/rest/v2/caches` (behavior-notes §6.8, §6.9): mutable
 * attributes, aliases, per-cache rebalancing, distribution, and which caches a role reaches.
 */
export function cacheAdminRoutes(): RouteSpec[] {
  const c = '/rest/v2/caches/:cache';
  return [
    { method: 'GET', path: '/rest/v2/caches', action: 'role-accessible', permission: 'ADMIN', handle: (ctx, s) => roleAccessible(ctx, s) },
    { method: 'GET', path: c, action: 'get-mutable-attributes', scope: 'cache', permission: 'ADMIN', handle: (ctx, s) => mutableAttributes(ctx, s) },
    { method: 'GET', path: c, action: 'get-mutable-attribute', scope: 'cache', permission: 'ADMIN', handle: (ctx, s) => sendJson(ctx, s.caches.mutableAttribute(ctx.state.cache, attributeName(ctx))) },
    { method: 'POST', path: c, action: 'set-mutable-attribute', scope: 'cache', permission: 'ADMIN', handle: (ctx, s) => setMutableAttribute(ctx, s) },
    { method: 'POST', path: c, action: 'assign-alias', scope: 'cache', permission: 'ADMIN', handle: (ctx, s) => assignAlias(ctx, s) },
    { method: 'POST', path: c, action: 'enable-rebalancing', scope: 'cache', permission: 'ADMIN', handle: (ctx, s) => rebalancing(ctx, s, true) },
    { method: 'POST', path: c, action: 'disable-rebalancing', scope: 'cache', permission: 'ADMIN', handle: (ctx, s) => rebalancing(ctx, s, false) },
    { method: 'GET', path: c, action: 'distribution', scope: 'cache', permission: 'MONITOR', handle: (ctx, s) => distribution(ctx, s) },
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
  await s.caches.setMutableAttribute(ctx.state.cache, attributeName(ctx), queryAll(ctx, 'attribute-value'));
  sendStatus(ctx, 200);
}

async function assignAlias(ctx: GridContext, s: Services): Promise<void> {
  await s.caches.assignAlias(ctx.state.cache, required(ctx, 'alias'));
  sendStatus(ctx, 200);
}

function rebalancing(ctx: GridContext, s: Services, enabled: boolean): void {
  s.caches.setRebalancing(ctx.state.cache, enabled);
  sendStatus(ctx, 204);
}

async function distribution(ctx: GridContext, s: Services): Promise<void> {
  sendJson(ctx, presentCacheDistribution(s.node, await s.caches.distribution(ctx.state.cache)));
}

/** 404 for a role the server does not know, which is every role when authorization is off (behavior-notes §6.8). */
function roleAccessible(ctx: GridContext, s: Services): void {
  const role = required(ctx, 'role');
  if (!s.authEnabled || !s.roles.exists(role)) throw new RoleNotFoundError();
  sendJson(ctx, s.caches.cachesForRole(ctx.state.subject, role));
}

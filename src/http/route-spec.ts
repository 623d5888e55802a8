import type { Context } from 'koa';
import type { CacheView, Services } from '../services';
import type { Subject } from '../services/auth/auth.service';
import type { RoutePermission } from '../services/auth/authorization';
import type { Logger } from '../util/logger';
import type { RouteDoc } from './route-doc';
import type { BodyBudget } from './body-budget';
import type { ConnectionGuards } from './connection-guards';

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE' | 'OPTIONS';

export interface GridState {
  subject: Subject;
  /** The cache named by `:cache`, resolved and authorized before the handler runs: a read-only view, acted on through the services. */
  cache: CacheView;
  log: Logger;
  /** Per-user and server-wide caps on connections and event streams. */
  guards: ConnectionGuards;
  /** The server's budget for request bodies being received (src/http/body-budget.ts). */
  bodies: BodyBudget;
  /** The tenant whose container the request reaches; undefined for the default container. */
  tenant?: string;
}

export type GridContext = Context & { state: GridState; params: Record<string, string> };

/**
 * One row of a resource's route table: method, path (`:name` segments), optional `?action=`,
 * the permission the caller needs and the handler. This table is the authorization matrix: the
 * pipeline checks `permission` against the cache the row names (`cacheParam`, default `:cache`)
 * when that cache exists — its own roles when secured — and against the global permissions
 * otherwise. `scope: 'cache'` answers 404 first when that cache is missing.
 */
export interface RouteSpec {
  method: HttpMethod;
  path: string;
  action?: string;
  permission: RoutePermission;
  anonymous?: boolean;
  scope?: 'cache';
  /** The path parameter naming a cache, when it is not `cache` (e.g. the ignore list's `:name`). */
  cacheParam?: string;
  /** Acts on one container, so `/rest/<tenant>/…` reaches it for that tenant (set per resource table in app.ts). */
  perContainer?: boolean;
  /** Answers 503 once the container was shut down (set per resource table in app.ts). */
  requiresContainer?: boolean;
  /** What the generated OpenAPI document says about the row (src/http/route-doc.ts). */
  doc?: RouteDoc;
  /** Called with the services of the container the request reached (the default one or a tenant's). */
  handle: (ctx: GridContext, s: Services) => Promise<void> | void;
}

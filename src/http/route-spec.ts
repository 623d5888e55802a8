import type { Context } from 'koa';
import type { CacheHandle } from '../grid/cache-manager';
import type { Permission } from '../model/permissions';
import type { Subject } from '../services/auth.service';
import type { Logger } from '../util/logger';

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE' | 'OPTIONS';

export interface GridState {
  subject: Subject;
  /** The cache named by `:cache`, resolved and authorized before the handler runs. */
  cache: CacheHandle;
  log: Logger;
}

export type GridContext = Context & { state: GridState; params: Record<string, string> };

/**
 * One row of a resource's route table: method, path (`:name` segments), optional `?action=`,
 * the permission the caller needs and the handler. `scope: 'cache'` checks the permission against
 * the cache named by `:cache` (its own roles when secured) after answering 404 if it is missing.
 */
export interface RouteSpec {
  method: HttpMethod;
  path: string;
  action?: string;
  permission: Permission | 'AUTHENTICATED';
  anonymous?: boolean;
  scope?: 'cache';
  /** Answers 503 once the container was shut down (set per resource table in app.ts). */
  requiresContainer?: boolean;
  handle: (ctx: GridContext) => Promise<void> | void;
}

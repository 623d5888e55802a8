import { MissingArgumentError } from '../../errors';
import type { CacheHandle, CacheManager } from '../../grid/cache-manager';
import { type CacheDefinition, parseCacheConfig, sniffConfigFormat } from '../../model/cache-config';

/** What the caller of an admin task may do to caches: the same per-cache rules as the REST routes. */
export interface CacheAccess {
  /** 403 when the named cache exists and the caller lacks ADMIN on it (its own roles when secured). */
  requireAdmin(name: string): void;
  /** Whether the caller holds any permission on the cache (names of others are not shown). */
  canSee(h: CacheHandle): boolean;
}

/** The server's loggers, as `@@logging@set` and `@@logging@remove` change them (the logging service). */
export interface AdminLogging {
  set(name: string, level: string | undefined, appenders: string[] | undefined): Promise<void>;
  remove(name: string): Promise<void>;
}

/** What an admin task acts on: the container's caches, as the caller may, and the server's loggers. */
export interface AdminTaskContext {
  manager: CacheManager;
  access: CacheAccess;
  /** Only where the server's loggers belong (the default container, not a tenant's). */
  logging?: AdminLogging;
}

/** A built-in admin task: `@@<context>@<operation>`, type `AdminServerTask` (docs/reference/management-plane.md#tasks). */
export interface AdminTask {
  name: string;
  /** In the original's order (its `getParameters()` set). */
  parameters: string[];
  executionMode: 'ONE_NODE' | 'ALL_NODES';
  /** Needs the server's loggers: listed and run only where they are. */
  needsLogging?: boolean;
  /** Runs with the `param.*` values; a Buffer is answered as `text/plain` bytes (the original's byte[]), anything else as JSON. */
  run(params: Record<string, string>, ctx: AdminTaskContext): Promise<unknown>;
}

function required(params: Record<string, string>, name: string): string {
  const v = params[name];
  if (v === undefined) throw new MissingArgumentError(name);
  return v;
}

/** A configuration given as a task parameter: JSON, XML or YAML, told apart as a text/plain body is. */
function parseConfiguration(text: string): CacheDefinition {
  return parseCacheConfig(text, sniffConfigFormat(text));
}

/** `flags=VOLATILE` keeps the definition out of the store, as the REST cache creation does. */
function isVolatile(params: Record<string, string>): boolean {
  return (params.flags ?? '').split(',').some((f) => f.trim().toUpperCase() === 'VOLATILE');
}

async function createCache(params: Record<string, string>, { manager, access }: AdminTaskContext): Promise<null> {
  const name = required(params, 'name');
  access.requireAdmin(name);
  const opts = { volatile: isVolatile(params) };
  if (params.configuration !== undefined) await manager.create(name, parseConfiguration(params.configuration), opts);
  else if (params.template !== undefined) await manager.createFromTemplate(name, params.template, opts);
  else await manager.create(name, parseCacheConfig('{"local-cache":{}}', 'json'), opts);
  return null;
}

/** `@@cache@names`: the original answers the names as the bytes of a JSON array, so `text/plain`. */
async function cacheNames(_params: Record<string, string>, { manager, access }: AdminTaskContext): Promise<Buffer> {
  const names = manager.handles().filter((h) => access.canSee(h)).map((h) => h.cache.name).sort();
  return Buffer.from(JSON.stringify(names), 'utf8');
}

/** `appenders` is one value here (`param.appenders=A`), or several separated by commas. */
function appenderList(text: string | undefined): string[] | undefined {
  if (text === undefined) return undefined;
  return text.split(',').map((a) => a.trim()).filter((a) => a !== '');
}

function logging(ctx: AdminTaskContext): AdminLogging {
  if (!ctx.logging) throw new Error('admin task run without the server\'s loggers');
  return ctx.logging;
}

const task = (name: string, parameters: string[], run: AdminTask['run'], more: Partial<AdminTask> = {}): AdminTask =>
  ({ name, parameters, executionMode: 'ONE_NODE', run, ...more });

/**
 * The original's admin tasks that mean something on one grid node: cache and template creation
 * and removal, cache names, loggers. Those about clustering, indexing and schemas have their own
 * REST resources.
 */
export const ADMIN_TASKS: readonly AdminTask[] = [
  task('@@cache@create', ['name', 'template', 'configuration'], createCache),
  task('@@cache@getorcreate', ['name', 'template', 'configuration'], async (p, ctx) => {
    ctx.access.requireAdmin(required(p, 'name'));
    return ctx.manager.find(p.name) ? null : createCache(p, ctx);
  }),
  task('@@cache@names', [], cacheNames),
  task('@@cache@remove', ['name'], async (p, { manager, access }) => { access.requireAdmin(required(p, 'name')); await manager.remove(p.name); return null; }),
  task('@@template@create', ['name', 'configuration'],
    async (p, { manager }) => { await manager.defineTemplate(required(p, 'name'), parseConfiguration(required(p, 'configuration'))); return null; }),
  task('@@template@remove', ['name'], async (p, { manager }) => { await manager.removeTemplate(required(p, 'name')); return null; }),
  // the original's parameter order is that of its HashSet
  task('@@logging@set', ['level', 'create', 'loggerName', 'appenders'],
    async (p, ctx) => { await logging(ctx).set(p.loggerName ?? '', p.level, appenderList(p.appenders)); return null; },
    { executionMode: 'ALL_NODES', needsLogging: true }),
  task('@@logging@remove', ['loggerName'],
    async (p, ctx) => { await logging(ctx).remove(required(p, 'loggerName')); return null; },
    { executionMode: 'ALL_NODES', needsLogging: true }),
];

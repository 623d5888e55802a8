import { MissingArgumentError } from '../errors';
import type { CacheHandle, CacheManager } from '../grid/cache-manager';
import { type CacheDefinition, detectConfigFormat, parseCacheConfig } from '../model/cache-config';

/** What the caller of an admin task may do to caches: the same per-cache rules as the REST routes. */
export interface CacheAccess {
  /** 403 when the named cache exists and the caller lacks ADMIN on it (its own roles when secured). */
  requireAdmin(name: string): void;
  /** Whether the caller holds any permission on the cache (names of others are not shown). */
  canSee(h: CacheHandle): boolean;
}

/** A built-in admin task: `@@<context>@<operation>`, type `AdminServerTask` (behavior-notes §14). */
export interface AdminTask {
  name: string;
  parameters: string[];
  /** Runs with the `param.*` values; the result is answered as JSON. */
  run(manager: CacheManager, params: Record<string, string>, access: CacheAccess): Promise<unknown>;
}

function required(params: Record<string, string>, name: string): string {
  const v = params[name];
  if (v === undefined) throw new MissingArgumentError(name);
  return v;
}

/** A configuration given as a task parameter: JSON, XML or YAML, told apart as a text/plain body is. */
function parseConfiguration(text: string): CacheDefinition {
  return parseCacheConfig(text, detectConfigFormat('text/plain', text) ?? 'json');
}

/** `flags=VOLATILE` keeps the definition out of the store, as the REST cache creation does. */
function isVolatile(params: Record<string, string>): boolean {
  return (params.flags ?? '').split(',').some((f) => f.trim().toUpperCase() === 'VOLATILE');
}

async function createCache(manager: CacheManager, params: Record<string, string>, access: CacheAccess): Promise<null> {
  const name = required(params, 'name');
  access.requireAdmin(name);
  const opts = { volatile: isVolatile(params) };
  if (params.configuration !== undefined) await manager.create(name, parseConfiguration(params.configuration), opts);
  else if (params.template !== undefined) await manager.createFromTemplate(name, params.template, opts);
  else await manager.create(name, parseCacheConfig('{"local-cache":{}}', 'json'), opts);
  return null;
}

/**
 * The original's admin tasks that mean something on one grid node: cache and template creation,
 * removal and names. Those about clustering, indexing and schemas have their own REST resources.
 */
export const ADMIN_TASKS: readonly AdminTask[] = [
  { name: '@@cache@create', parameters: ['name', 'template', 'configuration'], run: createCache },
  {
    name: '@@cache@getorcreate', parameters: ['name', 'template', 'configuration'],
    run: async (m, p, a) => {
      a.requireAdmin(required(p, 'name'));
      return m.find(p.name) ? null : createCache(m, p, a);
    },
  },
  { name: '@@cache@names', parameters: [], run: async (m, _p, a) => m.handles().filter((h) => !h.internal && a.canSee(h)).map((h) => h.cache.name) },
  {
    name: '@@cache@remove', parameters: ['name'],
    run: async (m, p, a) => { a.requireAdmin(required(p, 'name')); await m.remove(p.name); return null; },
  },
  {
    name: '@@template@create', parameters: ['name', 'configuration'],
    run: async (m, p) => { await m.defineTemplate(required(p, 'name'), parseConfiguration(required(p, 'configuration'))); return null; },
  },
  { name: '@@template@names', parameters: [], run: async (m) => m.templateNames() },
  { name: '@@template@remove', parameters: ['name'], run: async (m, p) => { await m.removeTemplate(required(p, 'name')); return null; } },
];

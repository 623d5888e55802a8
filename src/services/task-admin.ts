import { MissingArgumentError } from '../errors';
import type { CacheManager } from '../grid/cache-manager';
import { type CacheDefinition, detectConfigFormat, parseCacheConfig } from '../model/cache-config';

/** A built-in admin task: `@@<context>@<operation>`, type `AdminServerTask` (behavior-notes §14). */
export interface AdminTask {
  name: string;
  parameters: string[];
  /** Runs with the `param.*` values; the result is answered as JSON. */
  run(manager: CacheManager, params: Record<string, string>): Promise<unknown>;
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

async function createCache(manager: CacheManager, params: Record<string, string>): Promise<null> {
  const name = required(params, 'name');
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
    run: async (m, p) => (m.find(required(p, 'name')) ? null : createCache(m, p)),
  },
  { name: '@@cache@names', parameters: [], run: async (m) => m.handles().filter((h) => !h.internal).map((h) => h.cache.name) },
  { name: '@@cache@remove', parameters: ['name'], run: async (m, p) => { await m.remove(required(p, 'name')); return null; } },
  {
    name: '@@template@create', parameters: ['name', 'configuration'],
    run: async (m, p) => { await m.defineTemplate(required(p, 'name'), parseConfiguration(required(p, 'configuration'))); return null; },
  },
  { name: '@@template@names', parameters: [], run: async (m) => m.templateNames() },
  { name: '@@template@remove', parameters: ['name'], run: async (m, p) => { await m.removeTemplate(required(p, 'name')); return null; } },
];

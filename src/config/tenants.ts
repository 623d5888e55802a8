import { join } from 'node:path';
import { ConfigError } from './server-config-error';

/** One tenant: a container of its own, reached at `/rest/<name>/…` (docs/configuration.md, Tenants). */
export interface TenantConfig {
  name: string;
}

/** Letters, digits, `_` and `-` (not first), at most 64: a path segment and a directory name as they are. */
const NAME = /^[A-Za-z0-9_][A-Za-z0-9_-]{0,63}$/;

/**
 * Names a tenant may not take, compared without case: the REST API's own segments after `/rest/`
 * (`v1`, `v2`, `v3`, … any `v<digits>`), the default container's name, and the root paths, so a
 * tenant path never reads like one of them.
 */
const RESERVED = new Set(['default', 'rest', 'metrics', 'health', 'console', 'static', 'swagger-ui', 'schemas', 'login', 'tenants']);

/** Where a tenant's store lives: `<data dir>/tenants/<name>/`. */
export function tenantDataDir(dataDir: string, name: string): string {
  return join(dataDir, 'tenants', name);
}

/** Why a tenant name is refused, or undefined when it is a valid one. */
export function tenantNameProblem(name: string): string | undefined {
  if (!NAME.test(name)) return `tenant name '${name}' must be 1 to 64 letters, digits, '_' or '-' (not first)`;
  if (/^v\d+$/i.test(name) || RESERVED.has(name.toLowerCase())) return `tenant name '${name}' is reserved (v1, v2, v3…, ${[...RESERVED].join(', ')})`;
  return undefined;
}

/**
 * `tenants` of the server configuration: a list of mappings with a `name` (YAML/JSON), or
 * `<tenants><tenant name="t1"/>…</tenants>` (XML, one or several `tenant` elements). Names must be
 * valid, not reserved and distinct without case (they are directory names too).
 */
export function parseTenants(value: unknown, where: string): TenantConfig[] {
  const fail = (why: string): never => { throw new ConfigError(`${where}: tenants: ${why}`); };
  // XML gives { tenant: {…} } for one element, { tenant: [{…}, …] } for several and {} for none
  const list = isMapping(value) && Object.keys(value).every((k) => k === 'tenant') ? (value.tenant === undefined ? [] : [value.tenant].flat()) : value;
  if (!Array.isArray(list)) return fail('expected a list of tenants, each with a name (e.g. "tenants: [{name: t1}]")');
  const seen = new Map<string, string>();
  return list.map((item): TenantConfig => {
    if (!isMapping(item)) return fail(`expected a mapping with a name, got ${JSON.stringify(item)}`);
    const unknown = Object.keys(item).find((k) => k !== 'name');
    if (unknown !== undefined) return fail(`unknown setting '${unknown}' of a tenant (only 'name')`);
    if (typeof item.name !== 'string') return fail('every tenant needs a name');
    const problem = tenantNameProblem(item.name);
    if (problem) return fail(problem);
    const other = seen.get(item.name.toLowerCase());
    if (other !== undefined) return fail(`tenant '${item.name}' is declared twice (names are compared without case: '${other}')`);
    seen.set(item.name.toLowerCase(), item.name);
    return { name: item.name };
  });
}

function isMapping(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

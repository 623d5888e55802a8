import { DeclarationError, DeclaredResourceDiffersError, isGridError } from '../../errors';
import type { CacheManager } from '../../grid/cache-manager';
import { counterDifferences } from '../../model/counter-config';
import type { Declarations } from '../../model/declarations/declarations';
import { DEFAULT_ROLES } from '../../model/security/permissions';
import type { CounterService } from '../counter.service';
import { declareCache, declaredDiffers, type DeclareOutcome, UPDATE_HINT } from './declared-caches';
import type { RoleRegistry } from '../auth/role-registry';
import { schemaName, type SchemaService } from '../schema.service';

/** The services of the container the declarations go to (the default one). */
export interface DeclarationTargets {
  manager: CacheManager;
  counters: CounterService;
  schemas: SchemaService;
  roles: RoleRegistry;
}

export type DeclarationReport = Record<DeclareOutcome, string[]>;

/**
 * Brings the container in line with what the configuration files declare, at start, before the
 * server listens (docs/configuration.md, Declared resources): roles, then schemas, then caches and
 * templates in file order (a template before the caches that name it), then counters. Each one is
 * created when missing, left alone when equal; one that differs stops the start with a message
 * naming the file, the resource and the attribute, unless `update` allows the change and the REST
 * API could make it on the existing resource. Nothing declared is ever removed.
 */
export async function applyDeclarations(t: DeclarationTargets, d: Declarations, update: boolean): Promise<DeclarationReport> {
  const report: DeclarationReport = { created: [], unchanged: [], updated: [] };
  const run = async (source: string, what: string, declare: () => Promise<DeclareOutcome>): Promise<void> => {
    try {
      report[await declare()].push(what);
    } catch (err) {
      if (err instanceof DeclaredResourceDiffersError) throw new DeclarationError(`${source}: ${err.message}`);
      if (isGridError(err)) throw new DeclarationError(`${source}: ${what}: ${err.message}`);
      throw err;
    }
  };
  for (const r of d.roles) await run(r.source, `role '${r.name}'`, () => declareRole(t.roles, r.name, r.permissions, update));
  for (const s of d.schemas) await run(s.source, `schema '${schemaName(s.name)}'`, () => declareSchema(t.schemas, s.name, s.content, update));
  for (const s of d.schemas) {
    const error = t.schemas.list().find((status) => status.name === schemaName(s.name))?.error;
    if (error) throw new DeclarationError(`${s.source}: schema '${schemaName(s.name)}' does not compile: ${error.message}`);
  }
  for (const c of d.caches) await run(c.source, `${c.template ? 'template' : 'cache'} '${c.name}'`, () => declareCache(t.manager, c.name, c.definition, update));
  for (const c of d.counters) {
    await run(c.source, `counter '${c.name}'`, async () => {
      const existing = t.counters.find(c.name);
      if (!existing) return t.counters.defineAs(c.name, c.config).then(() => 'created' as const);
      const differences = counterDifferences(existing, c.config);
      if (differences.length === 0) return 'unchanged';
      throw declaredDiffers('counter', c.name, differences, 'a counter\'s definition cannot change: change the file, or remove the counter first');
    });
  }
  return report;
}

/** A schema's text: replaced (as `PUT /schemas/{name}` would) only when updates are allowed. */
async function declareSchema(schemas: SchemaService, name: string, content: string, update: boolean): Promise<DeclareOutcome> {
  if (!schemas.has(schemaName(name))) {
    await schemas.save(name, content);
    return 'created';
  }
  const stored = schemas.content(name);
  if (stored === content) return 'unchanged';
  if (!update) throw declaredDiffers('schema', schemaName(name), [{ attribute: 'text', ...firstDifferentLine(stored, content) }], UPDATE_HINT);
  await schemas.save(name, content);
  return 'updated';
}

function firstDifferentLine(a: string, b: string): { existing: string; updated: string } {
  const [left, right] = [a.split('\n'), b.split('\n')];
  const i = left.findIndex((line, n) => line !== right[n]);
  const line = i === -1 ? left.length : i;
  const show = (lines: string[]) => (line < lines.length ? `line ${line + 1}: ${lines[line].trim()}` : `${lines.length} lines`);
  return { existing: show(left), updated: show(right) };
}

/** A role's permissions, compared as a set: a built-in role cannot change; a custom one as `PUT /security/permissions/{role}` would. */
async function declareRole(roles: RoleRegistry, name: string, permissions: string[], update: boolean): Promise<DeclareOutcome> {
  const wanted = [...new Set(permissions.map((p) => p.toUpperCase()))].sort();
  if (!roles.exists(name)) {
    await roles.createRole(name, wanted, '');
    return 'created';
  }
  const current = roles.role(name);
  const have = [...current.permissions].sort();
  if (have.join(' ') === wanted.join(' ')) return 'unchanged';
  const difference = [{ attribute: 'permissions', existing: have.join(' '), updated: wanted.join(' ') }];
  if (DEFAULT_ROLES.has(name)) throw declaredDiffers('role', name, difference, 'a built-in role cannot change: declare a role of another name');
  if (!update) throw declaredDiffers('role', name, difference, UPDATE_HINT);
  await roles.updateRole(name, wanted, current.description);
  return 'updated';
}

import { InvalidQueryError, MultipleTypesError, QueryFeatureNotSupportedError } from '../../errors';
import type { AnalyzedQuery, FieldRef, Projection, SortKey } from './analyzed-query';
import type { Expr, SelectStatement, Statement } from './ast';
import { toCondition, type ConditionContext } from './analyze-condition';
import { analyzeGrouping, isGroupingQuery } from './analyze-grouping';
import type { EntityModel } from './entity-model';
import { QueryPatterns } from './pattern-limits';
import { Scope } from './resolve-path';

export interface AnalyzeOptions {
  /** The entity named in FROM; throws the cache's "unknown entity" error. */
  findEntity(name: string): EntityModel;
  /** Whether full-text can run on this entity in this cache (indexed cache, indexed entity). */
  fullTextAvailable(entity: EntityModel): boolean;
}

/** Resolves and checks a parsed statement against its entity (docs/reference/query.md#grammar-statements, docs/reference/query.md#literal-conversion, docs/reference/query.md#semantic-checks). */
export function analyzeStatement(statement: Statement, text: string, opts: AnalyzeOptions): AnalyzedQuery {
  if (statement.from.length > 1) throw new MultipleTypesError(statement.from.map((f) => f.entity));
  const from = statement.from[0];
  const entity = opts.findEntity(from.entity);
  const scope = new Scope(entity, from.alias);
  for (const j of statement.joins) scope.addJoin(j.path, j.alias);
  const ctx: ConditionContext = { scope, clause: 'WHERE', fullTextAvailable: opts.fullTextAvailable(entity), patterns: new QueryPatterns() };
  const where = statement.where ? toCondition(statement.where, ctx) : { kind: 'true' as const };
  const base = { text, entity, where, fullText: false };
  if (statement.kind === 'delete') return { ...base, kind: 'delete', projections: undefined, grouping: undefined, orderBy: [], fullText: ctx.usedFullText === true };
  const rest = isGroupingQuery(statement) ? analyzeGrouping(statement, scope, ctx) : analyzePlain(statement, scope);
  return { ...base, kind: 'select', ...rest, fullText: ctx.usedFullText === true };
}

function analyzePlain(s: SelectStatement, scope: Scope): Pick<AnalyzedQuery, 'projections' | 'grouping' | 'orderBy'> {
  const projections = s.select?.map((item) => projectionOf(item.expr, scope));
  const orderBy: SortKey[] = (s.orderBy ?? []).map((k) => ({ target: sortField(k.expr, scope), descending: k.descending }));
  return { projections, grouping: undefined, orderBy };
}

function projectionOf(e: Expr, scope: Scope): Projection {
  if (e.kind === 'path') {
    if (scope.isAlias(e)) return { kind: 'entity', key: '*' };
    const ref = scope.resolve(e)!;
    checkProjectable(ref, scope);
    return { kind: 'field', key: ref.key, ref };
  }
  if (e.kind === 'function' && (e.name === 'score' || e.name === 'version')) {
    const arg = e.args[0];
    if (e.args.length !== 1 || arg.kind !== 'path' || !scope.isAlias(arg)) {
      throw new InvalidQueryError(`ISPN028502: Unknown alias: ${arg && arg.kind === 'path' ? arg.segments.join('.') : ''}.`);
    }
    return e.name === 'score' ? { kind: 'score', key: 'score()' } : { kind: 'version', key: 'version()' };
  }
  if (e.kind === 'function') throw new QueryFeatureNotSupportedError(`The function ${e.name}()`);
  throw new QueryFeatureNotSupportedError('Selecting a constant');
}

/** SELECT items must be single-valued scalar properties (ISPN014027, ISPN028503). */
export function checkProjectable(ref: FieldRef, scope: Scope): void {
  if (ref.leaf.kind === 'message') {
    throw new InvalidQueryError(`ISPN028503: Property ${ref.key} can not be selected from type ${scope.entity.name} since it is an embedded entity.`);
  }
  if (ref.multiValued) throw new InvalidQueryError(`ISPN014027: The property path '${ref.key}' cannot be projected because it is multi-valued`);
}

function sortField(e: Expr, scope: Scope): FieldRef {
  if (e.kind !== 'path' || scope.isAlias(e)) throw new QueryFeatureNotSupportedError('Ordering by an expression that is not a property');
  const ref = scope.resolve(e)!;
  if (ref.multiValued) throw new InvalidQueryError(`ISPN014024: The property path '${ref.key}' cannot be used in the ORDER BY clause because it is multi-valued`);
  if (ref.leaf.flags.analyzed) {
    throw new InvalidQueryError(`ISPN028522: No relational queries can be applied to property '${ref.key}' in type ${scope.entity.name} since the property is analyzed.`);
  }
  if (ref.leaf.kind === 'message') throw new QueryFeatureNotSupportedError(`Ordering by the embedded entity ${ref.key}`);
  return ref;
}

import { InvalidQueryError, QueryFeatureNotSupportedError } from '../../errors';
import type { Aggregate, AnalyzedQuery, ColumnRef, FieldRef, Projection } from './analyzed-query';
import type { AggregateExpr, Expr, SelectStatement } from './ast';
import { toCondition, type ConditionContext } from './analyze-condition';
import type { LiteralTarget } from './literals';
import type { Scope } from './resolve-path';

const NUMERIC = new Set(['int', 'long', 'float', 'double', 'enum']);

/** GROUP BY, or an aggregate anywhere, makes a grouping query (docs/reference/query.md#aggregation). */
export function isGroupingQuery(s: SelectStatement): boolean {
  const aggregate = (e: Expr): boolean => e.kind === 'aggregate';
  return s.groupBy !== undefined || (s.select ?? []).some((i) => aggregate(i.expr)) || (s.orderBy ?? []).some((k) => aggregate(k.expr));
}

/**
 * A grouping query's rows are the grouped fields then the aggregates; SELECT, HAVING and ORDER BY
 * refer to those columns. Checks ISPN014021, ISPN014023, ISPN014026, ISPN028512–ISPN028516.
 */
export function analyzeGrouping(s: SelectStatement, scope: Scope, where: ConditionContext): Pick<AnalyzedQuery, 'projections' | 'grouping' | 'orderBy'> {
  if (!s.select) throw new InvalidQueryError('ISPN014021: Queries containing grouping and aggregation functions must use projections.');
  const columns = new Columns(scope, groupFields(s.groupBy ?? [], scope));
  const projections: Projection[] = s.select.map((item) => {
    const { target } = columns.of(item.expr);
    return { kind: 'column', key: columns.keyOf(target), column: target.column };
  });
  const having = s.having ? toCondition(s.having, { ...where, clause: 'HAVING', column: (e) => columns.of(e) }) : undefined;
  const orderBy = (s.orderBy ?? []).map((k) => ({ target: columns.of(k.expr).target, descending: k.descending }));
  return { projections, grouping: { groupBy: columns.groupBy, aggregates: columns.aggregates, having }, orderBy };
}

function groupFields(exprs: Expr[], scope: Scope): FieldRef[] {
  const fields: FieldRef[] = [];
  for (const e of exprs) {
    if (e.kind === 'aggregate') throw new InvalidQueryError(`ISPN028516: Cannot have aggregate functions in the GROUP BY clause : ${e.name}.`);
    if (e.kind !== 'path' || scope.isAlias(e)) throw new QueryFeatureNotSupportedError('Grouping by an expression that is not a property');
    const ref = scope.resolve(e)!;
    if (ref.multiValued) throw new InvalidQueryError(`ISPN014023: Using the multi-valued property path '${ref.key}' in the GROUP BY clause is not currently supported`);
    if (ref.leaf.kind === 'message') throw new QueryFeatureNotSupportedError(`Grouping by the embedded entity ${ref.key}`);
    if (!fields.some((f) => f.key === ref.key)) fields.push(ref); // duplicates are ignored (docs/reference/query.md#aggregation)
  }
  return fields;
}

class Columns {
  readonly aggregates: Aggregate[] = [];

  constructor(private readonly scope: Scope, readonly groupBy: FieldRef[]) {}

  keyOf(c: ColumnRef): string {
    return c.column < this.groupBy.length ? this.groupBy[c.column].key : this.aggregates[c.column - this.groupBy.length].key;
  }

  /** A grouped field or an aggregate as a column, with the type its values have. */
  of(e: Expr): { target: ColumnRef; type: LiteralTarget } {
    if (e.kind === 'aggregate') return this.aggregate(e);
    if (e.kind === 'path' && !this.scope.isAlias(e)) {
      const ref = this.scope.resolve(e)!;
      const i = this.groupBy.findIndex((f) => f.key === ref.key);
      if (i < 0) throw notGrouped(ref.key);
      return { target: { column: i }, type: ref.leaf };
    }
    throw notGrouped(e.kind === 'path' ? e.segments.join('.') : e.kind === 'function' ? `${e.name}()` : String(e.kind));
  }

  private aggregate(e: AggregateExpr): { target: ColumnRef; type: LiteralTarget } {
    if (e.distinct) throw new InvalidQueryError('ISPN028512: Aggregation COUNT_DISTINCT is not supported');
    let ref: FieldRef | undefined;
    if (e.arg && !this.scope.isAlias(e.arg)) ref = this.scope.resolve(e.arg);
    else if (e.arg && e.name !== 'COUNT') throw new InvalidQueryError(`ISPN028514: ${e.name} aggregation can only be applied to property references.`);
    if (ref && (e.name === 'SUM' || e.name === 'AVG') && !NUMERIC.has(ref.leaf.kind)) {
      const id = e.name === 'AVG' ? 'ISPN028513: ' : '';
      throw new InvalidQueryError(`${id}Aggregation ${e.name} cannot be applied to property of type ${ref.leaf.javaType}`);
    }
    if (ref && ref.leaf.kind === 'message') throw new QueryFeatureNotSupportedError(`Aggregating the embedded entity ${ref.key}`);
    const key = `${e.name}(${ref ? ref.key : '*'})`;
    let i = this.aggregates.findIndex((a) => a.key === key);
    if (i < 0) i = this.aggregates.push({ name: e.name, ref, key }) - 1;
    return { target: { column: this.groupBy.length + i }, type: aggregateType(e.name, ref) };
  }
}

/** COUNT is a long, AVG a double, SUM a long or double, MIN and MAX the field's type (docs/reference/query.md#projection-values). */
function aggregateType(name: Aggregate['name'], ref: FieldRef | undefined): LiteralTarget {
  if (name === 'COUNT') return { kind: 'long' };
  if (name === 'AVG') return { kind: 'double' };
  const leaf = ref!.leaf;
  if (name === 'SUM') return { kind: leaf.kind === 'float' || leaf.kind === 'double' ? 'double' : 'long' };
  return leaf;
}

function notGrouped(expression: string): InvalidQueryError {
  return new InvalidQueryError(`ISPN014026: The expression '${expression}' must be part of an aggregate function or it should be included in the GROUP BY clause`);
}

import { FullTextNeedsIndexError, InvalidQueryError, QueryFeatureNotSupportedError, QueryParameterNotSetError } from '../../errors';
import type { Condition, FieldRef, Scalar, Target, TextMatch } from './analyzed-query';
import type { Expr, FullTextQuery, LiteralExpr, Predicate } from './ast';
import { convertLiteral, literalText, type LiteralTarget } from './literals';
import { compileTermRegExp } from './lucene-regexp';
import type { QueryPatterns } from './pattern-limits';
import { compileWildcard } from './wildcard';
import type { Scope } from './resolve-path';
import { analyzeText } from './text-analyzers';

/** Where a condition appears; HAVING operands are the grouping query's row columns. */
export interface ConditionContext {
  scope: Scope;
  clause: 'WHERE' | 'HAVING';
  /** HAVING: a grouped field or an aggregate, as a column and the type its values have. */
  column?: (e: Expr) => { target: Target; type: LiteralTarget };
  /** Whether full-text can run here (an indexed cache and entity); else the original's error. */
  fullTextAvailable: boolean;
  /** Set when a full-text leaf is met. */
  usedFullText?: boolean;
  /** The query's LIKE, wildcard and regexp patterns, counted against their caps. */
  patterns: QueryPatterns;
}

/** A WHERE or HAVING predicate as a normalized condition, with the checks of docs/reference/query.md#semantic-checks. */
export function toCondition(p: Predicate, ctx: ConditionContext): Condition {
  switch (p.kind) {
    case 'and': case 'or': return { kind: p.kind, items: p.operands.map((o) => toCondition(o, ctx)) };
    case 'not': return { kind: 'not', item: toCondition(p.operand, ctx) };
    case 'occur': return p.occur === 'mustNot' ? { kind: 'not', item: toCondition(p.operand, ctx) } : toCondition(p.operand, ctx);
    case 'compare': {
      const { target, type } = operand(p.left, ctx, p.op === '=' || p.op === '!=' ? 'equality' : 'relational');
      const value = valueOf(p.right, type, ctx);
      if (value === undefined) return p.op === '!=' ? { kind: 'not', item: { kind: 'isNull', target } } : { kind: 'isNull', target };
      if (p.op === '!=') return { kind: 'not', item: { kind: 'compare', target, op: '=', value } };
      return { kind: 'compare', target, op: p.op, value };
    }
    case 'between': {
      const { target, type } = operand(p.operand, ctx, 'relational');
      const lower = required(valueOf(p.lower, type, ctx), p.lower);
      const upper = required(valueOf(p.upper, type, ctx), p.upper);
      return { kind: 'and', items: [{ kind: 'compare', target, op: '>=', value: lower }, { kind: 'compare', target, op: '<=', value: upper }] };
    }
    case 'in': {
      const { target, type } = operand(p.operand, ctx, 'in');
      return { kind: 'in', target, values: p.values.map((v) => required(valueOf(v, type, ctx), v)) };
    }
    case 'like': {
      const { target } = operand(p.operand, ctx, 'relational');
      const pattern = String(required(valueOf(p.pattern, { kind: 'string' }, ctx), p.pattern));
      const matches = ctx.patterns.add(pattern, 'LIKE', ['%', '_'], () => compileWildcard(pattern, '%', '_'));
      return { kind: 'like', target, pattern, matches };
    }
    case 'isNull': return { kind: 'isNull', target: operand(p.operand, ctx, 'null').target };
    case 'value': return constant(p.operand);
    case 'fullText': return fullText(p, ctx);
    case 'knn': throw new QueryFeatureNotSupportedError('Vector search (knn)');
    case 'geo': throw new QueryFeatureNotSupportedError('Spatial (geo) search');
    case 'unsupported': throw new QueryFeatureNotSupportedError(p.what);
  }
}

type Use = 'equality' | 'relational' | 'in' | 'null';

/** The left side: a property path (or, in HAVING, a group column); checks of docs/reference/query.md#semantic-checks. */
function operand(e: Expr, ctx: ConditionContext, use: Use): { target: Target; type: LiteralTarget } {
  if (e.kind === 'aggregate' && ctx.clause === 'WHERE') throw aggregateInWhere(e);
  if (ctx.column && (e.kind === 'aggregate' || e.kind === 'path')) return ctx.column(e);
  if (e.kind !== 'path') throw new InvalidQueryError('ISPN028524: Left side argument must be a property path');
  const ref = ctx.scope.resolve(e);
  if (!ref) throw new InvalidQueryError(`ISPN028519: Cannot apply predicates directly to an entity alias: ${e.segments[0]}`);
  checkRelational(ref, ctx, use);
  return { target: ref, type: ref.leaf };
}

function checkRelational(ref: FieldRef, ctx: ConditionContext, use: Use): void {
  if (ref.leaf.kind === 'message' && use !== 'null') {
    throw new InvalidQueryError(`ISPN028504: The property ${ref.key} is an embedded entity and does not allow comparison predicates`);
  }
  if (ref.leaf.flags.analyzed && use !== 'in') {
    throw new InvalidQueryError(`ISPN028522: No relational queries can be applied to property '${ref.key}' in type ${ctx.scope.entity.name} since the property is analyzed.`);
  }
}

/** The right side: a literal converted to the field's type; undefined for NULL. */
function valueOf(e: Expr, type: LiteralTarget, ctx: ConditionContext): Scalar | undefined {
  if (e.kind === 'aggregate' && ctx.clause === 'WHERE') throw aggregateInWhere(e); // on either side, as the original
  if (e.kind === 'path') throw new QueryFeatureNotSupportedError('Comparing a property with another property');
  if (e.kind === 'aggregate' || e.kind === 'function' || e.kind === 'vector') throw new QueryFeatureNotSupportedError('Expressions on the right side of a comparison');
  const text = literalText(e);
  return text === undefined ? undefined : convertLiteral(text, type);
}

function aggregateInWhere(e: Extract<Expr, { kind: 'aggregate' }>): InvalidQueryError {
  return new InvalidQueryError(`ISPN028515: Cannot have aggregate functions in the WHERE clause : ${e.name}.`);
}

/** BETWEEN bounds, IN values and LIKE patterns cannot be NULL. */
function required(v: Scalar | undefined, e: Expr): Scalar {
  if (v === undefined) throw new InvalidQueryError(`ISPN028505: Invalid numeric literal '${e.kind === 'null' ? 'null' : ''}'`);
  return v;
}

function constant(e: Expr): Condition {
  if (e.kind === 'boolean') return { kind: e.value ? 'true' : 'false' };
  if (e.kind === 'param') throw new QueryParameterNotSetError(e.name);
  throw new QueryFeatureNotSupportedError('A condition that is not a comparison');
}

/** `path : query` (docs/reference/query.md#grammar-full-text): occurrence groups become AND/OR/NOT over single matches. */
function fullText(p: Extract<Predicate, { kind: 'fullText' }>, ctx: ConditionContext): Condition {
  if (ctx.clause === 'HAVING') throw new InvalidQueryError('ISPN028520: Full-text queries are not allowed in the HAVING clause');
  const ref = ctx.scope.resolve(p.path);
  if (!ref) throw new InvalidQueryError(`ISPN028519: Cannot apply predicates directly to an entity alias: ${p.path.segments[0]}`);
  const condition = textCondition(p.query, ref, ctx, 1);
  if (!ctx.fullTextAvailable) throw new FullTextNeedsIndexError();
  ctx.usedFullText = true;
  return condition;
}

function textCondition(q: FullTextQuery, ref: FieldRef, ctx: ConditionContext, boost: number): Condition {
  switch (q.kind) {
    case 'and': case 'or': return { kind: q.kind, items: q.operands.map((o) => textCondition(o, ref, ctx, boost)) };
    case 'occur': {
      const inner = textCondition(q.query, ref, ctx, boost);
      return q.occur === 'mustNot' ? { kind: 'not', item: inner } : inner;
    }
    case 'boost': return textCondition(q.query, ref, ctx, boost * q.boost);
    default: return { kind: 'text', field: ref, match: textMatch(q, ref, ctx), boost };
  }
}

function textMatch(q: Extract<FullTextQuery, { kind: 'term' | 'regexp' | 'range' }>, ref: FieldRef, ctx: ConditionContext): TextMatch {
  const type = ctx.scope.entity.name;
  if (q.kind === 'range') {
    if (!ref.leaf.flags.searchable) {
      throw new InvalidQueryError(`ISPN028527: Full-text queries cannot be applied to property '${ref.key}' in type ${type} unless the property is indexed.`);
    }
    const bound = (lit: LiteralExpr | undefined): Scalar | undefined => {
      const text = lit && literalText(lit);
      return text === undefined ? undefined : ref.leaf.flags.analyzed ? text : convertLiteral(text, ref.leaf);
    };
    return { kind: 'range', lower: bound(q.lower), upper: bound(q.upper), includeLower: q.includeLower, includeUpper: q.includeUpper };
  }
  if (!ref.leaf.flags.analyzed && !ref.leaf.flags.normalized) {
    throw new InvalidQueryError(`ISPN028521: Full-text queries cannot be applied to property '${ref.key}' in type ${type} unless the property is indexed and analyzed.`);
  }
  if (q.kind === 'regexp') {
    const regexp = ctx.patterns.add(q.pattern, 'regexp', undefined, () => compileTermRegExp(q.pattern));
    return { kind: 'regexp', pattern: q.pattern, regexp };
  }
  const text = literalText(q.value) ?? 'null';
  if (/(^|[^\\])[*?]/.test(text)) {
    if (q.tilde) throw new InvalidQueryError(`ISPN014036: Prefix, wildcard or regexp queries cannot be fuzzy: ${text}`);
    // compiled where the field's folding applies (text-match.ts, index-filter.ts); counted here
    ctx.patterns.add(text, 'wildcard', ['*', '?'], () => compileWildcard(text, '*', '?'));
    return { kind: 'wildcard', pattern: text };
  }
  const phrase = ref.leaf.flags.analyzed && analyzeText(ref.leaf.analyzer, text).length > 1;
  if (!q.tilde) return { kind: 'term', text, fuzzy: undefined, slop: undefined };
  if (phrase) return { kind: 'term', text, fuzzy: undefined, slop: q.tilde.value ?? 0 };
  const edits = q.tilde.value ?? 2;
  if (!Number.isInteger(edits) || edits < 0 || edits > 2) throw new InvalidQueryError(`maxEdits must be between 0 and 2: ${edits}`);
  return { kind: 'term', text, fuzzy: edits, slop: undefined };
}

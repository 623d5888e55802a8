/**
 * The Ickle syntax tree (docs/reference/query.md#grammar) as the parser produces it: names are not resolved yet,
 * literals keep their text (they are converted to the compared field's type later, docs/reference/query.md#literal-conversion).
 */

/** Line is 1-based, column 0-based, as the original's parser reports them. */
export interface Pos { line: number; column: number }

/** `a.b.c` as written: the first segment may be an alias, resolved by the analyzer. */
export interface PathExpr { kind: 'path'; segments: string[]; pos: Pos }

export type LiteralExpr =
  | { kind: 'string'; value: string; pos: Pos }
  | { kind: 'number'; text: string; pos: Pos }
  | { kind: 'boolean'; value: boolean; pos: Pos }
  | { kind: 'null'; pos: Pos }
  | { kind: 'param'; name: string; pos: Pos }
  | { kind: 'positionalParam'; pos: Pos };

export type AggregateName = 'COUNT' | 'SUM' | 'AVG' | 'MIN' | 'MAX';

/** `count(*)` has no argument; `count(p)` names the alias (both give key `COUNT(*)`). */
export interface AggregateExpr { kind: 'aggregate'; name: AggregateName; arg: PathExpr | undefined; distinct: boolean; pos: Pos }

/** `score(p)`, `version(p)`, and functions that parse but are not supported (size, index, distance, …). */
export interface FunctionExpr { kind: 'function'; name: string; args: Expr[]; pos: Pos }

/** `[1.0, 2.0]`: a knn vector. */
export interface VectorExpr { kind: 'vector'; items: Expr[]; pos: Pos }

export type Expr = PathExpr | LiteralExpr | AggregateExpr | FunctionExpr | VectorExpr;

export type CompareOp = '=' | '!=' | '<' | '<=' | '>' | '>=';

export type Predicate =
  | { kind: 'and' | 'or'; operands: Predicate[]; pos: Pos }
  | { kind: 'not'; operand: Predicate; pos: Pos }
  | { kind: 'compare'; op: CompareOp; left: Expr; right: Expr; pos: Pos }
  | { kind: 'between'; operand: Expr; lower: Expr; upper: Expr; pos: Pos }
  | { kind: 'in'; operand: Expr; values: Expr[]; pos: Pos }
  | { kind: 'like'; operand: Expr; pattern: Expr; escape: Expr | undefined; pos: Pos }
  | { kind: 'isNull'; operand: Expr; pos: Pos }
  /** `TRUE`, `FALSE` or any other bare operand used as a condition. */
  | { kind: 'value'; operand: Expr; pos: Pos }
  | { kind: 'fullText'; path: PathExpr; query: FullTextQuery; pos: Pos }
  | { kind: 'occur'; occur: Occur; operand: Predicate; pos: Pos }
  | { kind: 'knn'; path: Expr; vector: Expr; k: Expr | undefined; filtering: Predicate | undefined; pos: Pos }
  | { kind: 'geo'; operand: Expr; shape: string; args: Expr[]; pos: Pos }
  /** Forms of the grammar with no implementation: IS EMPTY, MEMBER OF, quantified expressions. */
  | { kind: 'unsupported'; what: string; pos: Pos };

/** `+` must, `-`/`!`/NOT must not, `#` filter (handled as must), none = should. */
export type Occur = 'must' | 'mustNot' | 'filter' | 'should';

/** The right side of `path : …` (docs/reference/query.md#grammar-full-text). */
export type FullTextQuery =
  /**
   * One quoted string, number or parameter. `~N` is fuzziness for a word, slop for a phrase;
   * `tilde.value` is undefined for a bare `~`.
   */
  | { kind: 'term'; value: LiteralExpr; tilde: { value: number | undefined } | undefined; pos: Pos }
  | { kind: 'regexp'; pattern: string; pos: Pos }
  | { kind: 'range'; lower: LiteralExpr | undefined; upper: LiteralExpr | undefined; includeLower: boolean; includeUpper: boolean; pos: Pos }
  | { kind: 'boost'; query: FullTextQuery; boost: number; pos: Pos }
  | { kind: 'and' | 'or'; operands: FullTextQuery[]; pos: Pos }
  | { kind: 'occur'; occur: Occur; query: FullTextQuery; pos: Pos };

export interface SelectItem { expr: Expr; pos: Pos }

export interface OrderKey { expr: Expr; descending: boolean }

export interface FromClause { entity: string; alias: string | undefined; pos: Pos }

export interface JoinClause { path: PathExpr; alias: string | undefined; pos: Pos }

export interface SelectStatement {
  kind: 'select';
  distinct: boolean;
  /** undefined when there is no SELECT clause (whole entities are returned). */
  select: SelectItem[] | undefined;
  from: FromClause[];
  joins: JoinClause[];
  where: Predicate | undefined;
  groupBy: Expr[] | undefined;
  having: Predicate | undefined;
  orderBy: OrderKey[] | undefined;
}

export interface DeleteStatement {
  kind: 'delete';
  from: FromClause[];
  joins: JoinClause[];
  where: Predicate | undefined;
}

export type Statement = SelectStatement | DeleteStatement;

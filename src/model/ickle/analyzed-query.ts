import type { AggregateName } from './ast';
import type { EntityModel, PropertyModel } from './entity-model';
import type { TermRegExp } from './lucene-regexp';

/**
 * A statement checked against its entity (docs/reference/query.md#semantic-checks) and ready to run: paths resolved to
 * properties, literals converted to the field's type, BETWEEN/!=/NOT forms normalized, full-text
 * occurrence groups turned into plain AND/OR/NOT. Both the scan and the index planner read it.
 */

/**
 * A value as the engine compares it: strings, numbers (ints, floats, enums), longs (a number, or a
 * bigint beyond 2^53: java-long.ts), booleans.
 */
export type Scalar = string | number | bigint | boolean;

export interface FieldRef {
  /** Property names from the entity down, the alias removed. */
  path: string[];
  /** The dot-joined path: the projection key and the index field name. */
  key: string;
  /** One property per path segment; the last is the leaf. */
  props: PropertyModel[];
  leaf: PropertyModel;
  /** Some segment is repeated: the path has several values per entity. */
  multiValued: boolean;
}

/** A column of a grouping query's rows: a grouped field or an aggregate. */
export interface ColumnRef { column: number }

export type Target = FieldRef | ColumnRef;

export function isColumn(t: Target): t is ColumnRef {
  return (t as ColumnRef).column !== undefined;
}

/** What a full-text leaf matches, before the field's analyzer runs. */
export type TextMatch =
  /** One word (`fuzzy` edits), or several words making a phrase (`slop`). */
  | { kind: 'term'; text: string; fuzzy: number | undefined; slop: number | undefined }
  | { kind: 'wildcard'; pattern: string }
  /** Compiled once, when the query is analyzed (a refused pattern fails the query there). */
  | { kind: 'regexp'; pattern: string; regexp: TermRegExp }
  | { kind: 'range'; lower: Scalar | undefined; upper: Scalar | undefined; includeLower: boolean; includeUpper: boolean };

export type Condition =
  | { kind: 'true' }
  | { kind: 'false' }
  | { kind: 'and' | 'or'; items: Condition[] }
  | { kind: 'not'; item: Condition }
  | { kind: 'compare'; target: Target; op: '=' | '<' | '<=' | '>' | '>='; value: Scalar }
  | { kind: 'in'; target: Target; values: Scalar[] }
  /** `%` and `_` compiled to a linear-time matcher; the escape character is backslash (docs/reference/query.md#grammar-predicates). */
  | { kind: 'like'; target: Target; pattern: string; matches: (text: string) => boolean }
  | { kind: 'isNull'; target: Target }
  | { kind: 'text'; field: FieldRef; match: TextMatch; boost: number };

export type Projection =
  | { kind: 'field'; key: string; ref: FieldRef }
  | { kind: 'entity'; key: '*' }
  | { kind: 'score'; key: 'score()' }
  | { kind: 'version'; key: 'version()' }
  | { kind: 'column'; key: string; column: number };

export type Aggregate = { name: AggregateName; ref: FieldRef | undefined; key: string };

/** A grouping query's row layout: the grouped fields first, then the aggregates. */
export interface Grouping {
  groupBy: FieldRef[];
  aggregates: Aggregate[];
  having: Condition | undefined;
}

export interface SortKey {
  target: Target;
  descending: boolean;
}

export interface AnalyzedQuery {
  kind: 'select' | 'delete';
  text: string;
  entity: EntityModel;
  where: Condition;
  /** undefined: whole entities. */
  projections: Projection[] | undefined;
  grouping: Grouping | undefined;
  orderBy: SortKey[];
  /** Some condition needs a full-text index (text leaves). */
  fullText: boolean;
}

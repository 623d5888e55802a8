import type { Scalar } from '../../model/ickle/analyzed-query';

/**
 * The engine's order (docs/reference/query.md#scan-semantics): numbers numerically (enums by number; longs exactly, a
 * bigint against a number included), strings by UTF-16 code units as Java compares them, false
 * before true.
 */
export function compareScalars(a: Scalar, b: Scalar): number {
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : a === b ? 0 : Number.isNaN(a) ? (Number.isNaN(b) ? 0 : 1) : -1;
  if (isNumeric(a) && isNumeric(b)) return a < b ? -1 : a > b ? 1 : 0; // a long beyond 2^53: exact, whatever the other's form
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  const sa = String(a);
  const sb = String(b);
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

/** Sorting with nulls first in ascending order (the scan path, docs/reference/query.md#scan-semantics). */
export function compareNullable(a: Scalar | null, b: Scalar | null): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? -1 : 1;
  return compareScalars(a, b);
}

const isNumeric = (v: Scalar): v is number | bigint => typeof v === 'number' || typeof v === 'bigint';

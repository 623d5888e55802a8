/**
 * What the query engine hands the index store: documents to write and filters to answer, in terms
 * of entity type names and field paths. The store maps them to its tables and SQL.
 */

/**
 * An indexed value: booleans are stored as 0/1, bytes as base64 text, 64-bit integers (a bigint
 * beyond 2^53) as exact 64-bit INTEGERs.
 */
export type IndexValue = string | number | bigint | boolean;

/** An entry as the index holds it. */
export interface IndexDocument {
  key: Buffer;
  /** The entity type's full name. */
  type: string;
  /** The entry's absolute expiry (as the entries table has it), null when it cannot expire. */
  expiresAt: number | null;
  /** Searchable, sortable or aggregable values by field path; repeated fields give several pairs. */
  values: Array<[path: string, value: IndexValue]>;
  /** Analyzed fields: the analyzer's tokens of each value. */
  texts: Array<[path: string, tokens: string[][]]>;
  /** Only memory holds the entry (a passivating cache's, not yet passivated): gone after a restart. */
  memoryOnly: boolean;
}

/** A full-text search over one analyzed field, after analysis and any term expansion. */
export type TextSearch =
  /** Any of these terms (one term, or a fuzzy/wildcard/regexp expansion). */
  | { kind: 'terms'; field: string; terms: string[] }
  /** The words in order; `slop` extra positions allowed between them. */
  | { kind: 'phrase'; field: string; terms: string[]; slop: number }
  /** Every term starting with `prefix`. */
  | { kind: 'prefix'; field: string; prefix: string };

export type IndexFilter =
  | { kind: 'all' }
  | { kind: 'none' }
  | { kind: 'and' | 'or'; items: IndexFilter[] }
  | { kind: 'not'; item: IndexFilter }
  | { kind: 'eq'; field: string; value: IndexValue }
  | { kind: 'in'; field: string; values: IndexValue[] }
  | { kind: 'range'; field: string; lower?: IndexValue; upper?: IndexValue; includeLower: boolean; includeUpper: boolean }
  /** `pattern` in LIKE syntax (`%`, `_`, backslash escapes); `prefix` its literal start, for the index range. */
  | { kind: 'like'; field: string; pattern: string; prefix: string }
  | { kind: 'exists'; field: string }
  | { kind: 'text'; search: TextSearch };

/** Which documents: one cache's documents of one type, live at `now`, matching `filter`. */
export interface IndexSelection {
  cacheId: number;
  type: string;
  filter: IndexFilter;
  now: number;
  /**
   * When the query must be done (epoch ms on `performance.timeOrigin + performance.now()`, the
   * clock every thread shares): a statement on the reader thread not done by then is given up.
   */
  deadline?: number;
}

export interface IndexSortKey {
  field: string;
  descending: boolean;
}

/** A page of matching documents; `score` is the full-text relevance, 1 without full-text. */
export interface IndexHit {
  docId: number;
  key: Buffer;
  score: number;
}

/** A hit count as the index reports it: exact up to the hit count accuracy, that accuracy and inexact beyond. */
export interface HitCount {
  count: number;
  exact: boolean;
}

/** `n` matching documents counted up to `limit` (the hit count accuracy). */
export function cappedCount(n: number, limit: number): HitCount {
  return n > limit ? { count: limit, exact: false } : { count: n, exact: true };
}

export interface IndexTypeStats {
  type: string;
  count: number;
  /** An estimate of the bytes the type's documents take in the index. */
  size: number;
}

/** Changes to the index, as the write path carries them (same transaction as the entry). */
export type IndexWriteOp =
  | { kind: 'index.put'; cacheId: number; doc: IndexDocument }
  | { kind: 'index.delete'; cacheId: number; key: Buffer }
  | { kind: 'index.clear'; cacheId: number }
  | { kind: 'index.purgeExpired'; cacheId: number; now: number }
  /** The entry moved between memory and the store (passivation, activation). */
  | { kind: 'index.memoryOnly'; cacheId: number; key: Buffer; memoryOnly: boolean };

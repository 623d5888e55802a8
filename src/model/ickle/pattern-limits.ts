import { InvalidQueryError } from '../../errors';

/**
 * Caps on the patterns a query may hold (docs/query.md, "Limits"): what one pattern costs is
 * linear in the text it is matched against, with a factor that grows with the pattern, and a
 * query pays it once per pattern for every value it looks at. Query constants, as the query
 * length: they bound an algorithm, not a deployment's capacity.
 */
/** Characters of one LIKE, full-text wildcard or regexp pattern. */
export const MAX_PATTERN_LENGTH = 1000;
/** Wildcards (`%` `_`, `*` `?`) of one LIKE or full-text wildcard pattern. */
export const MAX_PATTERN_WILDCARDS = 64;
/** LIKE, wildcard and regexp predicates of one query. */
export const MAX_QUERY_PATTERNS = 100;
/** Characters of the patterns of one query, together. */
export const MAX_QUERY_PATTERN_CHARS = 4000;
/** A regexp's size once its repetitions are written out (`a{3}` is 3). */
export const MAX_REGEXP_SIZE = 1000;
/** Groups and repetitions nested in a regexp. */
export const MAX_REGEXP_DEPTH = 100;

/** A pattern in a message: its start, when it is long. */
export function patternShown(pattern: string): string {
  return pattern.length <= 80 ? pattern : `${pattern.slice(0, 80)}…`;
}

/** The patterns of one query, counted as the query is analyzed. */
export class QueryPatterns {
  private count = 0;
  private chars = 0;

  /** Checks one pattern (`wildcards`: its `%`/`_` or `*`/`?`, for LIKE and full-text wildcards). */
  add(pattern: string, kind: 'LIKE' | 'wildcard' | 'regexp', wildcards?: [string, string]): void {
    if (pattern.length > MAX_PATTERN_LENGTH) refuse(`The ${kind} pattern '${patternShown(pattern)}' is longer than ${MAX_PATTERN_LENGTH} characters (limit: pattern length)`);
    if (wildcards && countWildcards(pattern, wildcards) > MAX_PATTERN_WILDCARDS) {
      refuse(`The ${kind} pattern '${patternShown(pattern)}' has more than ${MAX_PATTERN_WILDCARDS} wildcards (limit: pattern wildcards)`);
    }
    if (++this.count > MAX_QUERY_PATTERNS) refuse(`The query has more than ${MAX_QUERY_PATTERNS} LIKE, wildcard and regexp predicates (limit: patterns per query)`);
    this.chars += pattern.length;
    if (this.chars > MAX_QUERY_PATTERN_CHARS) refuse(`The patterns of the query have more than ${MAX_QUERY_PATTERN_CHARS} characters together (limit: pattern characters per query)`);
  }
}

function countWildcards(pattern: string, [many, one]: [string, string]): number {
  let n = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') i++;
    else if (c === many || c === one) n++;
  }
  return n;
}

function refuse(message: string): never {
  throw new InvalidQueryError(message);
}

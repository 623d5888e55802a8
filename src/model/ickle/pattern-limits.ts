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
/**
 * Steps per character of the values they read, for the patterns of one query together: a LIKE
 * or wildcard costs 2 (a part holding `_` or `?`: 1 more per 32 characters), a regexp 1 more per
 * 16 characters of its written-out size. An entity is matched in one go, so this is what bounds
 * one entity with long values: 16 LIKEs over a 200 KB value held the event loop 67 ms on a
 * loaded 2-core machine (load 8), 32 held it 365 ms (load 10).
 */
export const MAX_QUERY_PATTERN_WORK = 32;
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
  private work = 0;

  /**
   * One pattern, checked against its own caps before `compile` runs (`wildcards`: its `%`/`_` or
   * `*`/`?`, for LIKE and full-text wildcards); its weight then counts toward the query's.
   */
  add<T extends { readonly weight: number }>(pattern: string, kind: 'LIKE' | 'wildcard' | 'regexp', wildcards: [string, string] | undefined, compile: () => T): T {
    if (pattern.length > MAX_PATTERN_LENGTH) refuse(`The ${kind} pattern '${patternShown(pattern)}' is longer than ${MAX_PATTERN_LENGTH} characters (limit: pattern length)`);
    if (wildcards && countWildcards(pattern, wildcards) > MAX_PATTERN_WILDCARDS) {
      refuse(`The ${kind} pattern '${patternShown(pattern)}' has more than ${MAX_PATTERN_WILDCARDS} wildcards (limit: pattern wildcards)`);
    }
    const compiled = compile();
    this.work += compiled.weight;
    if (this.work > MAX_QUERY_PATTERN_WORK) {
      refuse(`The LIKE, wildcard and regexp patterns of the query would take more than ${MAX_QUERY_PATTERN_WORK} steps per character of the values they read (limit: pattern work per query)`);
    }
    return compiled;
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

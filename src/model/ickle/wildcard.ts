import { compileTextPattern } from '../../util/text-pattern';
import { chargePatternWork } from './pattern-work';

/**
 * LIKE (`%`, `_`) and full-text wildcards (`*`, `?`), backslash escaping the next character, in
 * time linear in the text (src/util/text-pattern.ts); each match charges its steps to the
 * pattern work its loop's time slice takes (pattern-work.ts). Built from a few strings and typed
 * arrays, so a remembered query keeps its patterns compactly.
 */
export function compileWildcard(pattern: string, any: string, one: string): PatternTest {
  const compiled = compileTextPattern(pattern, any, one);
  const weight = compiled.weight;
  const test = (text: string): boolean => {
    chargePatternWork(text.length * weight);
    return compiled.test(text);
  };
  return Object.assign(test, { weight });
}

/** A compiled pattern, and its steps per character of text (pattern-limits.ts counts them per query). */
export type PatternTest = ((text: string) => boolean) & { readonly weight: number };

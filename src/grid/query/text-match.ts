import type { FieldRef, Scalar, TextMatch } from '../../model/ickle/analyzed-query';
import { analyzeText, normalizeKeyword } from '../../model/ickle/text-analyzers';
import { compileWildcard } from '../../model/ickle/wildcard';
import { compareScalars } from './compare';

/** Analyzers whose output is lower case: wildcard and range terms are lowercased for them too. */
const LOWERCASING = new Set(['standard', 'simple', 'stemmer', 'ngram', 'filename']);

/**
 * Full-text matching of one value in memory, with the field's analyzer: the scan side of a hybrid
 * plan checks candidates with it, so it agrees with the index (docs/reference/query.md#text-analysis).
 */
export function compileTextMatch(field: FieldRef, match: TextMatch): (value: Scalar) => boolean {
  const leaf = field.leaf;
  const tokensOf = (v: Scalar): string[] => (leaf.flags.analyzed ? analyzeText(leaf.analyzer, String(v)) : [normalizeKeyword(leaf.normalizer, String(v))]);
  const fold = (s: string): string => (leaf.flags.analyzed ? (LOWERCASING.has(leaf.analyzer ?? 'standard') ? s.toLowerCase() : s) : normalizeKeyword(leaf.normalizer, s));
  switch (match.kind) {
    case 'term': {
      const query = leaf.flags.analyzed ? analyzeText(leaf.analyzer, match.text) : [normalizeKeyword(leaf.normalizer, match.text)];
      if (query.length === 0) return () => false;
      if (query.length > 1) return (v) => containsPhrase(tokensOf(v), query, match.slop ?? 0);
      const term = query[0];
      const edits = match.fuzzy;
      if (edits) return (v) => tokensOf(v).some((t) => editDistance(t, term, edits) <= edits);
      return (v) => tokensOf(v).includes(term);
    }
    case 'wildcard': {
      const matches = compileWildcard(fold(match.pattern), '*', '?');
      return (v) => tokensOf(v).some(matches);
    }
    case 'regexp': {
      const re = match.regexp;
      return (v) => tokensOf(v).some((t) => re.test(t));
    }
    case 'range': {
      const norm = (b: Scalar | undefined): Scalar | undefined => (b === undefined || !leaf.flags.analyzed ? b : fold(String(b)));
      const lower = norm(match.lower);
      const upper = norm(match.upper);
      const within = (t: Scalar): boolean => {
        if (lower !== undefined) {
          const c = compareScalars(t, lower);
          if (c < 0 || (c === 0 && !match.includeLower)) return false;
        }
        if (upper !== undefined) {
          const c = compareScalars(t, upper);
          if (c > 0 || (c === 0 && !match.includeUpper)) return false;
        }
        return true;
      };
      return leaf.flags.analyzed ? (v) => tokensOf(v).some(within) : within;
    }
  }
}

/** The words of `query` in order, with at most `slop` extra positions between them. */
function containsPhrase(tokens: string[], query: string[], slop: number): boolean {
  for (let start = 0; start < tokens.length; start++) {
    if (tokens[start] !== query[0]) continue;
    let at = start;
    let gaps = 0;
    let ok = true;
    for (let q = 1; q < query.length && ok; q++) {
      let next = at + 1;
      while (next < tokens.length && tokens[next] !== query[q] && next - at - 1 + gaps < slop) next++;
      if (next >= tokens.length || tokens[next] !== query[q]) ok = false;
      else {
        gaps += next - at - 1;
        at = next;
      }
    }
    if (ok) return true;
  }
  return false;
}

/** Optimal string alignment distance (Lucene's fuzzy edits count transpositions), capped at max + 1. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const prev2 = new Array<number>(b.length + 1).fill(0);
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = new Array<number>(b.length + 1);
    cur[0] = i;
    let best = cur[0];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) cur[j] = Math.min(cur[j], prev2[j - 2] + 1);
      best = Math.min(best, cur[j]);
    }
    if (best > max) return max + 1;
    prev2.splice(0, prev2.length, ...prev);
    prev = cur;
  }
  return prev[b.length];
}

/**
 * The known word nearest to a mistyped one, when it is near enough to be the one meant: at most a
 * third of its letters wrong (one for short words). Only a usage error needs it, so the edit
 * distance (the query engine's, which counts a swap of two letters as one edit) loads then.
 */
export function didYouMean(word: string, known: readonly string[]): string | undefined {
  const { editDistance } = require('../grid/query/text-match') as typeof import('../grid/query/text-match');
  const max = Math.max(1, Math.floor(word.length / 3));
  let best: string | undefined;
  let bestDistance = max + 1;
  for (const candidate of known) {
    const d = editDistance(word.toLowerCase(), candidate.toLowerCase(), max);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

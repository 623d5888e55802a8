/**
 * What pattern matching (LIKE, full-text wildcards and regexps) cost since it was last taken, in
 * steps (characters examined × the pattern's weight). A match is one synchronous call whose cost
 * grows with the text, so the loops that run matches (scans, index candidates, vocabulary
 * expansion) take it after each step and, past `HEAVY_WORK`, check their time slice at once
 * instead of every 64 steps. One counter serves every query: JavaScript runs one call at a time,
 * so a loop reads what its own step added, at worst plus what another left (one clock read more).
 */
let steps = 0;

/** Steps of a few microseconds at most: beyond, a loop looks at the clock. */
export const HEAVY_WORK = 50_000;

export function chargePatternWork(n: number): void {
  steps += n;
}

/** Whether HEAVY_WORK steps were charged since the last call; forgets them when so. */
export function heavyPatternWork(): boolean {
  if (steps < HEAVY_WORK) return false;
  steps = 0;
  return true;
}

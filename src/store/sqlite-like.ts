import type { Database } from 'better-sqlite3';
import { BoundedMap } from '../util/bounded-map';
import { compileTextPattern, type TextPattern } from '../util/text-pattern';

/**
 * `grid_like(pattern, value)`: LIKE over index values (`%`, `_`, backslash escapes), 1 or 0, in
 * time linear in the value (src/util/text-pattern.ts). SQLite's GLOB backtracks: a 20 KB pattern
 * against one 200 KB value held the connection 8.7 s. Registered on every connection that reads
 * the index (the reader thread's too); a few compiled patterns are kept per connection.
 */
export const LIKE_FUNCTION = 'grid_like';

export function registerLike(db: Database): void {
  const compiled = new BoundedMap<string, TextPattern>(64);
  db.function(LIKE_FUNCTION, { deterministic: true, directOnly: true }, (pattern: unknown, value: unknown) => {
    if (typeof pattern !== 'string' || typeof value !== 'string') return 0;
    let p = compiled.get(pattern);
    if (!p) compiled.set(pattern, (p = compileTextPattern(pattern, '%', '_')));
    return p.test(value) ? 1 : 0;
  });
}

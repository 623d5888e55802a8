import { heavyPatternWork } from '../../model/ickle/pattern-work';
import type { ExecutableQuery, MatchRow } from './executable-query';
import { TimeSlice } from './time-slice';
import type { ScannedEntry } from '../cache-entry';

/**
 * The non-indexed plan (docs/reference/query.md#scan-semantics): every live entry is decoded and tested once, a few
 * milliseconds at a time. `entries` streams the cache (a persistent cache page by page from the
 * store), so the cache is never loaded whole; only entries the wire filter lets through are
 * decoded; `visit` sees each match as it is found. A query's slice stops the scan at its deadline;
 * an entity whose patterns (LIKE, wildcards, regexps) took many steps has the clock looked at
 * right after it.
 */
export async function scanMatches(q: ExecutableQuery, entries: Iterable<ScannedEntry>, visit: (row: MatchRow) => void | Promise<void>, slice = new TimeSlice()): Promise<void> {
  for (const e of entries) {
    const row = q.matchScanned(e);
    if (row) {
      const pending = visit(row);
      if (pending) await pending;
    }
    if (slice.due() || (heavyPatternWork() && slice.spent())) await slice.pause();
  }
}

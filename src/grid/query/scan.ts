import { heavyPatternWork } from '../../model/ickle/pattern-work';
import type { ExecutableQuery, MatchRow } from './executable-query';
import { TimeSlice } from './time-slice';
import type { ScannedEntry } from '../cache-entry';
import type { Pages } from '../../util/pages';

/**
 * The non-indexed plan (docs/reference/query.md#scan-semantics): every live entry is decoded and tested once, a few
 * milliseconds at a time. `entries` streams the cache (a persistent cache page by page from the
 * store), so the cache is never loaded whole; only entries the wire filter lets through are
 * decoded; `visit` sees each match as it is found. The entries come through the engine seam as
 * pages (`CacheData.scan`): the local engine's whole walk is one page, Redis's a page per segment read. A query's slice stops the scan at its deadline;
 * an entity whose patterns (LIKE, wildcards, regexps) took many steps has the clock looked at
 * right after it.
 */
export async function scanMatches(q: ExecutableQuery, entries: Pages<ScannedEntry>, visit: (row: MatchRow) => void | Promise<void>, slice = new TimeSlice()): Promise<void> {
  for await (const page of entries) {
    for (const e of page) {
      const row = q.matchScanned(e);
      if (row) {
        const pending = visit(row);
        if (pending) await pending;
      }
      if (slice.due() || (heavyPatternWork() && slice.spent())) await slice.pause();
    }
  }
}

import type { Database } from 'better-sqlite3';
import { sharedNow } from '../util/clock';

/**
 * The term index selections put first in their WHERE: SQLite evaluates it for every candidate
 * document before the costlier correlated checks, so a statement stops at its deadline instead of
 * running to the end (SQLite's interrupt is not reachable from better-sqlite3). A call into
 * JavaScript costs ~1 µs, as much as checking a candidate: one candidate in 64, drawn at random
 * (so no order of documents avoids it), asks the clock.
 */
export const IN_TIME = '((random() & 63) <> 0 OR grid_in_time())';

/** `code` of the error a statement stopped at its deadline fails with. */
export const DEADLINE_PASSED = 'GRID_DEADLINE_PASSED';

/** Defines `grid_in_time()` on a connection: true until `deadline()` (a statement's, epoch ms on util/clock's sharedNow), then an error. */
export function defineInTime(db: Database, deadline: () => number): void {
  db.function('grid_in_time', { deterministic: false }, () => {
    if (sharedNow() >= deadline()) throw deadlinePassed();
    return 1;
  });
}

export function deadlinePassed(): Error {
  return Object.assign(new Error('the statement ran past its deadline'), { code: DEADLINE_PASSED });
}

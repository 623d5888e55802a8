import { QueryTimeoutError } from '../../errors';
import { sharedNow } from '../../util/clock';

/**
 * When one query must be done (the server's `query-timeout`, docs/security.md "Limits"). Its
 * TimeSlice checks it at every pause; statements on the index reader thread get it with them.
 */
export class Deadline {
  /** Epoch milliseconds on util/clock's `sharedNow`, the clock the index reader thread shares. */
  readonly at: number;

  constructor(readonly ms: number) {
    this.at = sharedNow() + ms;
  }

  get passed(): boolean {
    return sharedNow() >= this.at;
  }

  /** Throws the query's time-out once the deadline has passed. */
  check(): void {
    if (this.passed) throw new QueryTimeoutError(this.ms);
  }
}

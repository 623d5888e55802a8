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

/** `work`, or the deadline's time-out if the deadline passes first (the work goes on, unobserved). */
export function byDeadline<T>(work: Promise<T>, deadline: Deadline): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new QueryTimeoutError(deadline.ms)), Math.max(0, deadline.at - sharedNow()));
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

import type { Logger } from './logger';

/** One refusal log line per this long at most, by default. */
export const DEFAULT_LOG_INTERVAL_MS = 10_000;

/**
 * A warning that a flood could repeat thousands of times a second (a refused connection, a
 * dropped client): the first occurrence is logged at once, later ones within `intervalMs` are
 * only counted, and one line at the end of the interval says how many there were
 * (`{ count: n, …fields of the last one }`). A flood of any size writes at most one line per
 * interval, so it cannot fill the disk or rotate the log history away.
 */
export class RateLimitedLog {
  private suppressed = 0;
  private lastFields: Record<string, unknown> = {};
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly log: Logger, private readonly message: string, private readonly intervalMs = DEFAULT_LOG_INTERVAL_MS) {}

  warn(fields: Record<string, unknown>): void {
    if (this.timer) {
      this.suppressed++;
      this.lastFields = fields;
      return;
    }
    this.log.warn({ ...fields, count: 1 }, this.message);
    this.startInterval();
  }

  /** Writes the count of what the current interval held back now, and forgets it. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.summarize();
  }

  private startInterval(): void {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      // a summary starts a new interval: a flood still going on is summarized once per interval
      if (this.summarize()) this.startInterval();
    }, this.intervalMs);
    this.timer.unref();
  }

  private summarize(): boolean {
    if (this.suppressed === 0) return false;
    this.log.warn({ ...this.lastFields, count: this.suppressed, intervalMs: this.intervalMs }, this.message);
    this.suppressed = 0;
    this.lastFields = {};
    return true;
  }
}

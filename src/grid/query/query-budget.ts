import { QueryAnswerTooLargeError, QueryError, QueryExpansionError, QueryTimeoutError } from '../../errors';
import { Deadline } from './deadline';
import { TimeSlice } from './time-slice';

/** What one query may spend (src/config/limits.ts, `query-*`; docs/security.md "Limits"). */
export interface QueryLimits {
  timeoutMs: number;
  rows: number;
  answerBytes: number;
  expansionTerms: number;
}

/** A row the answer holds, with the bytes of its stored value. */
export interface HeldRow {
  bytes: number;
}

/**
 * The budget of one query run. Its TimeSlice carries the deadline, so every loop of the run —
 * scan, candidate stream, index-term expansion, hit building — stops at it; index statements on
 * the reader thread get it too. The answer's rows and bytes are counted as they are kept, and the
 * index terms the full-text expansions look at as they are read.
 */
export class QueryBudget {
  readonly deadline: Deadline;
  readonly slice: TimeSlice;
  private rows = 0;
  private bytes = 0;
  private written = 0;
  private terms = 0;

  constructor(readonly limits: QueryLimits) {
    this.deadline = new Deadline(limits.timeoutMs);
    this.slice = new TimeSlice(this.deadline);
  }

  /** A row the answer keeps: refused past `query-rows` rows or `query-answer-bytes` bytes of stored values. */
  hold(row: HeldRow): void {
    if (++this.rows > this.limits.rows) throw this.tooManyRows();
    this.bytes += row.bytes;
    if (this.bytes > this.limits.answerBytes) throw this.tooManyBytes();
  }

  /** A kept row dropped again (a sorted page found a better one). */
  release(row: HeldRow): void {
    this.rows--;
    this.bytes -= row.bytes;
  }

  /** JSON the answer is made of, as it is written: refused past `query-answer-bytes`. */
  write(chars: number): void {
    this.written += chars;
    if (this.written > this.limits.answerBytes) throw this.tooManyBytes();
  }

  /** Index terms a fuzzy, wildcard, regexp or range term looked at: refused past `query-expansion-terms`. */
  expand(terms: number): void {
    this.terms += terms;
    if (this.terms > this.limits.expansionTerms) throw new QueryExpansionError(this.limits.expansionTerms);
  }

  tooManyRows(): QueryAnswerTooLargeError {
    return new QueryAnswerTooLargeError('rows (offset + max_results)', this.limits.rows, 'query-rows');
  }

  private tooManyBytes(): QueryAnswerTooLargeError {
    return new QueryAnswerTooLargeError('bytes', this.limits.answerBytes, 'query-answer-bytes');
  }

  /**
   * What a failure of the run tells the client: a statement the reader thread gave up at the
   * deadline fails as a store error, which past the deadline is the query's time-out.
   */
  explain(err: unknown): unknown {
    return !(err instanceof QueryError) && this.deadline.passed ? new QueryTimeoutError(this.limits.timeoutMs) : err;
  }
}

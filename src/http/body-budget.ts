import { BodyMemoryFullError } from '../errors';

/**
 * The bytes of request bodies the server holds while they arrive, all requests together
 * (`request-body-memory`). A body is read whole before it is used, and a client may keep many
 * uploads open without finishing them: 100 bodies of 10 MB one byte short held 950 MB, and one user
 * may hold 1,024 connections. A body that would take the total past the budget is refused (503,
 * `Retry-After: 1`) and its connection closed; what a body held is given back once it is read or
 * refused.
 */
export class BodyBudget {
  private held = 0;

  constructor(readonly limit: number) {}

  /** Takes `bytes` more for a body; throws BodyMemoryFullError when that would pass the budget. */
  take(bytes: number): void {
    if (this.held + bytes > this.limit) throw new BodyMemoryFullError(this.limit);
    this.held += bytes;
  }

  give(bytes: number): void {
    this.held -= bytes;
  }

  /** Bytes held now (statistics, tests). */
  get holding(): number {
    return this.held;
  }
}

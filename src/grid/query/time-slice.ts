import type { Deadline } from './deadline';

/**
 * Cooperative time slicing: long loops check `due()` and `await pause()` so no request holds the
 * event loop for more than a few milliseconds (the issue: scans never block > 20 ms). A query's
 * slice also carries its deadline: every pause past it throws the query's time-out.
 */
export class TimeSlice {
  private started = performance.now();
  private count = 0;

  constructor(readonly deadline?: Deadline, private readonly budgetMs = 4, private readonly every = 64) {}

  /** True every `every` calls once the slice's budget is spent; past the deadline, its time-out. */
  due(): boolean {
    if (++this.count % this.every !== 0) return false;
    return this.spent();
  }

  /** True once the budget is spent, checked now (after a long single step such as a statement); past the deadline, its time-out. */
  spent(): boolean {
    this.deadline?.check();
    return performance.now() - this.started >= this.budgetMs;
  }

  async pause(): Promise<void> {
    this.deadline?.check();
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.deadline?.check();
    this.started = performance.now();
  }
}

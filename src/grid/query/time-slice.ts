/**
 * Cooperative time slicing: long loops check `due()` and `await pause()` so no request holds the
 * event loop for more than a few milliseconds (the issue: scans never block > 20 ms).
 */
export class TimeSlice {
  private started = performance.now();
  private count = 0;

  constructor(private readonly budgetMs = 4, private readonly every = 64) {}

  /** True every `every` calls once the slice's budget is spent. */
  due(): boolean {
    if (++this.count % this.every !== 0) return false;
    return performance.now() - this.started >= this.budgetMs;
  }

  /** True once the budget is spent, checked now (after a long single step such as a statement). */
  spent(): boolean {
    return performance.now() - this.started >= this.budgetMs;
  }

  async pause(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.started = performance.now();
  }
}

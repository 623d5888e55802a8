/** Wall-clock time in epoch milliseconds; injected so tests can move time forward. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock tests drive by hand. */
export class ManualClock implements Clock {
  constructor(private current = Date.now()) {}
  now(): number { return this.current; }
  advance(ms: number): void { this.current += ms; }
}

/**
 * Epoch milliseconds, monotonic, on a clock every thread of the process shares (a worker's
 * `performance.now()` starts at its own origin): deadlines handed to worker threads use it.
 */
export function sharedNow(): number {
  return performance.timeOrigin + performance.now();
}

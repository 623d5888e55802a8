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

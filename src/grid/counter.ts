import { CounterOutOfBoundsError } from '../errors';
import { type CounterConfig, LONG_MAX, LONG_MIN } from '../model/counter-config';
import type { Clock } from '../util/clock';

/**
 * One counter's value in memory (the local engine's, src/grid/local-counter-values.ts). Every
 * operation runs to completion within one turn of the event loop, so each is atomic; the bound
 * rules are the original's (counter FunctionHelper): an add past a bound of a bounded strong
 * counter leaves the value AT the bound and fails, unbounded counters saturate at the 64-bit
 * limits, compare-and-set / get-and-set outside the bounds fail without a change. The Redis
 * engine's scripts (src/store/redis/counter-scripts.ts) implement these rules again, and a
 * property test holds the two to the same answers.
 */
export class Counter {
  /** Bumped by every change, so callers can tell whether an operation changed anything. */
  version = 0;

  constructor(
    readonly name: string,
    readonly config: CounterConfig,
    private stored: bigint,
    private updatedAt: number,
    private readonly clock: Clock,
  ) {}

  get isStrong(): boolean {
    return this.config.kind === 'strong-counter';
  }

  get lastUpdate(): number {
    return this.updatedAt;
  }

  /** The current value: a strong counter whose lifespan passed since its last update is back at its initial value. */
  value(): bigint {
    const lifespan = this.config.lifespan;
    if (lifespan > 0n && BigInt(this.clock.now()) >= BigInt(this.updatedAt) + lifespan) return this.config.initialValue;
    return this.stored;
  }

  /** Adds `delta`; returns the new value. */
  add(delta: bigint): bigint {
    const added = this.value() + delta;
    if (this.isStrong && this.config.bounded) {
      if (added > this.config.upperBound) return this.failAt(this.config.upperBound, 'Upper bound');
      if (added < this.config.lowerBound) return this.failAt(this.config.lowerBound, 'Lower bound');
    }
    return this.set(added > LONG_MAX ? LONG_MAX : added < LONG_MIN ? LONG_MIN : added);
  }

  /** Sets the value as a restore does (no bound checks: the value was valid when it was saved). */
  restoreValue(v: bigint): void {
    this.set(v);
  }

  reset(): void {
    this.set(this.config.initialValue);
  }

  /** Sets `update` when the value equals `expect`; returns the value before, either way. */
  compareAndSwap(expect: bigint, update: bigint): bigint {
    const previous = this.value();
    if (previous === expect) {
      this.checkBounds(update);
      this.set(update);
    }
    return previous;
  }

  getAndSet(update: bigint): bigint {
    const previous = this.value();
    this.checkBounds(update);
    this.set(update);
    return previous;
  }

  private checkBounds(v: bigint): void {
    if (!this.config.bounded) return;
    if (v > this.config.upperBound) throw new CounterOutOfBoundsError('Upper bound');
    if (v < this.config.lowerBound) throw new CounterOutOfBoundsError('Lower bound');
  }

  private failAt(bound: bigint, which: 'Upper bound' | 'Lower bound'): never {
    this.set(bound);
    throw new CounterOutOfBoundsError(which);
  }

  private set(v: bigint): bigint {
    this.version++;
    this.stored = v;
    this.updatedAt = this.clock.now();
    return v;
  }
}

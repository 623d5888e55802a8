import type { CounterConfig } from '../model/counter-config';
import type { MaybePromise } from './cache-data';

/**
 * The values of a container's counters, wherever they are kept: the seam between what the API
 * does with counters (CounterManager keeps the definitions, CounterService the API's rules) and
 * where a value lives — in memory with the local store behind it (LocalCounterValues), or on a
 * Redis Cluster shared by every node of grid (RedisCounterValues). docs/architecture.md ("The
 * engine seam") says what each side owns.
 */
export interface CounterValues {
  /** The value of the counter `name` defined by `config`, as the engine keeps it: a handle, nothing is read or written. */
  cell(name: string, config: CounterConfig): CounterCell;
}

/**
 * The value of one counter. Every operation is one step on the value, whichever node of grid sends
 * it, with the bound rules of src/grid/counter.ts; it resolves once its change is as durable as the
 * counter's storage makes it — also when it fails after a change (an add past a bound leaves the
 * value AT the bound, then fails with CounterOutOfBoundsError). Results come at once when nothing
 * has to be waited for (a VOLATILE counter of the local engine takes no turn of the event loop).
 */
export interface CounterCell {
  /** Puts the value of a counter defined just now at its initial value: what a removed counter of the same name left does not come back. */
  create(): MaybePromise<void>;
  /** Forgets the value of a counter whose definition was removed. */
  drop(): MaybePromise<void>;
  /** The current value, once its last change is durable: a strong counter whose lifespan passed since its last update is back at its initial value. */
  value(): MaybePromise<bigint>;
  /** Adds `delta`: the new value; past a bound, the value stays AT the bound and this fails; unbounded values saturate at the 64-bit limits. */
  add(delta: bigint): MaybePromise<bigint>;
  reset(): MaybePromise<void>;
  /** Sets `update` when the value equals `expect` (an update outside the bounds fails, nothing changed); the value before, either way. */
  compareAndSwap(expect: bigint, update: bigint): MaybePromise<bigint>;
  /** Sets `update` (outside the bounds: fails, nothing changed); the value before. */
  getAndSet(update: bigint): MaybePromise<bigint>;
  /** Sets the value as a restore does, with no bound check (the value was valid when it was saved). */
  restoreValue(value: bigint): MaybePromise<void>;
}

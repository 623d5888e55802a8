import type { CounterConfig } from '../model/counter-config';
import type { Commit, Store } from '../store/store';
import type { Clock } from '../util/clock';
import type { MaybePromise } from './cache-data';
import { Counter } from './counter';
import type { CounterCell, CounterValues } from './counter-values';

interface Kept {
  value: bigint;
  updatedAt: number;
}

/**
 * Counter values of the local engine: each one in memory (`Counter`: every operation is one turn
 * of the event loop), a PERSISTENT counter's value also in its row of the store's counters, which
 * its definition's insert and delete (CounterManager) create and remove with it. A VOLATILE
 * counter is back at its initial value after a restart, as in the original.
 */
export class LocalCounterValues implements CounterValues {
  /** The values the store held at start, until their counter's cell is made. */
  private readonly kept = new Map<string, Kept>();

  constructor(private readonly store: Store, private readonly clock: Clock) {
    for (const r of store.counters.list()) this.kept.set(r.name, { value: r.value, updatedAt: r.updatedAt });
  }

  cell(name: string, config: CounterConfig): CounterCell {
    const kept = this.kept.get(name);
    this.kept.delete(name);
    const value = kept && config.storage === 'PERSISTENT' ? kept.value : config.initialValue;
    return new LocalCounterCell(new Counter(name, config, value, kept?.updatedAt ?? this.clock.now(), this.clock), this.store);
  }
}

class LocalCounterCell implements CounterCell {
  /** The write of the latest change, while it is not yet durable (reads wait for it). */
  private pending: Commit | undefined;

  constructor(private readonly counter: Counter, private readonly store: Store) {}

  /** In memory only: the definition's row, written with it, holds the initial value. */
  create(): void {
    this.counter.restoreValue(this.counter.config.initialValue);
  }

  /** Nothing to do: the definition's delete removes the row. */
  drop(): void {}

  value(): MaybePromise<bigint> {
    const pending = this.pending;
    if (!pending || pending.done) return this.counter.value();
    const read = () => this.counter.value();
    return pending.promise.then(read, read);
  }

  add(delta: bigint): MaybePromise<bigint> {
    return this.update((c) => c.add(delta));
  }

  reset(): MaybePromise<void> {
    return this.update((c) => c.reset());
  }

  compareAndSwap(expect: bigint, update: bigint): MaybePromise<bigint> {
    return this.update((c) => c.compareAndSwap(expect, update));
  }

  getAndSet(update: bigint): MaybePromise<bigint> {
    return this.update((c) => c.getAndSet(update));
  }

  restoreValue(value: bigint): MaybePromise<void> {
    return this.update((c) => c.restoreValue(value));
  }

  /**
   * Runs one operation and answers once whatever it changed is durable, also when it failed after
   * changing the value (an add past a bound leaves the counter at the bound).
   */
  private update<T>(op: (c: Counter) => T): MaybePromise<T> {
    const before = this.counter.version;
    let result: T | undefined;
    let failure: unknown;
    try {
      result = op(this.counter);
    } catch (err) {
      failure = err;
    }
    const commit = this.counter.version !== before ? this.persist() : undefined;
    if (!commit) {
      if (failure !== undefined) throw failure;
      return result as T;
    }
    return commit.promise.then(() => {
      if (failure !== undefined) throw failure;
      return result as T;
    });
  }

  /** Writes a changed value of a PERSISTENT counter. */
  private persist(): Commit | undefined {
    const c = this.counter;
    if (c.config.storage !== 'PERSISTENT') return undefined;
    this.pending = this.store.write({ kind: 'counter.setValue', name: c.name, value: c.value(), updatedAt: c.lastUpdate });
    return this.pending;
  }
}

import { CounterOutOfBoundsError } from '../errors';
import type { CounterConfig } from '../model/counter-config';
import type { Bound, RedisCounter, RedisCounters } from '../store/redis/redis-counters';
import type { Clock } from '../util/clock';
import type { CounterCell, CounterValues } from './counter-values';

/**
 * Counter values on a Redis Cluster (docs/scale-out.md, "Counters"), shared by every node of grid
 * on it: each operation is one script on the master of the counter's key, applying the rules of
 * src/grid/counter.ts there, so no update of one node is lost to another's. An operation resolves
 * once Redis acknowledged it; times are this node's clock. The composition root makes one per
 * container: `new RedisCounterValues(new RedisCounters(cluster, containerId), clock)`.
 */
export class RedisCounterValues implements CounterValues {
  constructor(private readonly counters: RedisCounters, private readonly clock: Clock) {}

  cell(name: string, config: CounterConfig): CounterCell {
    return new RedisCounterCell(this.counters.of(name, config), this.clock);
  }
}

class RedisCounterCell implements CounterCell {
  constructor(private readonly counter: RedisCounter, private readonly clock: Clock) {}

  /** The initial value, written: a stale value of a removed counter of the name is overwritten. */
  create(): Promise<void> {
    return this.counter.reset(this.clock.now());
  }

  drop(): Promise<void> {
    return this.counter.delete();
  }

  value(): Promise<bigint> {
    return this.counter.value(this.clock.now());
  }

  async add(delta: bigint): Promise<bigint> {
    const { value, beyond } = await this.counter.add(delta, this.clock.now());
    return beyond ? fail(beyond) : value;
  }

  reset(): Promise<void> {
    return this.counter.reset(this.clock.now());
  }

  async compareAndSwap(expect: bigint, update: bigint): Promise<bigint> {
    const { previous, beyond } = await this.counter.compareAndSwap(expect, update, this.clock.now());
    return beyond ? fail(beyond) : previous;
  }

  async getAndSet(update: bigint): Promise<bigint> {
    const { previous, beyond } = await this.counter.getAndSet(update, this.clock.now());
    return beyond ? fail(beyond) : previous;
  }

  restoreValue(value: bigint): Promise<void> {
    return this.counter.set(value, this.clock.now());
  }
}

function fail(bound: Bound): never {
  throw new CounterOutOfBoundsError(bound);
}

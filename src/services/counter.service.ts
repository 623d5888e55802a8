import { checkResourceName } from '../model/resource-name';
import { InvalidCounterTypeError } from '../errors';
import type { Counter } from '../grid/counter';
import type { CounterManager } from '../grid/counter-manager';
import { type CounterConfig, formatCounterConfig, parseCounterConfig } from '../model/counter-config';

/** What an update answers: WEAK counters 204, STRONG ones 200 with the new value (docs/reference/management-plane.md#counter-updates). */
export type UpdateOutcome = { kind: 'WEAK' } | { kind: 'STRONG'; value: bigint };

/** Counters (docs/reference/management-plane.md#counters). */
export class CounterService {
  constructor(private readonly manager: CounterManager) {}

  /** POST /counters/{name}: the body is JSON whatever its Content-Type said. */
  async define(name: string, body: string): Promise<void> {
    return this.defineAs(name, parseCounterConfig(body));
  }

  /** Defines a counter from a definition already read (a declared one: docs/configuration.md). */
  async defineAs(name: string, config: CounterConfig): Promise<void> {
    checkResourceName('counter', name);
    return this.manager.define(name, config);
  }

  /** The counter's definition, undefined when there is no such counter. */
  find(name: string): CounterConfig | undefined {
    return this.manager.names().includes(name) ? this.manager.require(name).config : undefined;
  }

  remove(name: string): Promise<void> {
    return this.manager.remove(name);
  }

  names(): string[] {
    return this.manager.names();
  }

  /** The value once its last change is durable. */
  async value(name: string): Promise<bigint> {
    const c = this.manager.require(name);
    if (c.pending && !c.pending.done) await c.pending.promise.catch(() => undefined);
    return c.value();
  }

  config(name: string, pretty: boolean): string {
    return formatCounterConfig(this.manager.require(name).config, pretty);
  }

  async add(name: string, delta: bigint): Promise<UpdateOutcome> {
    const counter = this.manager.require(name);
    const value = await this.update(counter, (c) => c.add(delta));
    return counter.isStrong ? { kind: 'STRONG', value } : { kind: 'WEAK' };
  }

  async reset(name: string): Promise<void> {
    await this.update(this.manager.require(name), (c) => c.reset());
  }

  async compareAndSet(name: string, expect: bigint, update: bigint): Promise<boolean> {
    return (await this.update(this.strong(name), (c) => c.compareAndSwap(expect, update))) === expect;
  }

  /** Answers the value before the operation (equal to `expect` when it succeeded). */
  compareAndSwap(name: string, expect: bigint, update: bigint): Promise<bigint> {
    return this.update(this.strong(name), (c) => c.compareAndSwap(expect, update));
  }

  getAndSet(name: string, value: bigint): Promise<bigint> {
    return this.update(this.strong(name), (c) => c.getAndSet(value));
  }

  /** Restore: defines the counter when absent, then sets its value (PERSISTENT values committed first). */
  async restore(name: string, configJson: string, value: bigint): Promise<void> {
    if (!this.manager.names().includes(name)) await this.define(name, configJson);
    await this.update(this.manager.require(name), (c) => c.restoreValue(value));
  }

  private strong(name: string): Counter {
    const c = this.manager.require(name);
    if (!c.isStrong) throw new InvalidCounterTypeError('WeakCounter');
    return c;
  }

  /**
   * Runs one operation and answers once whatever it changed is durable, also when it failed after
   * changing the value (an add past a bound leaves the counter at the bound).
   */
  private async update<T>(counter: Counter, op: (c: Counter) => T): Promise<T> {
    const before = counter.version;
    let result: T | undefined;
    let failure: unknown;
    try {
      result = op(counter);
    } catch (err) {
      failure = err;
    }
    const commit = counter.version !== before ? this.manager.persist(counter) : undefined;
    if (commit) await commit.promise;
    if (failure !== undefined) throw failure;
    return result as T;
  }
}

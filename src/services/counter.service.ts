import { checkResourceName } from '../model/resource-name';
import { InvalidCounterTypeError } from '../errors';
import type { CounterManager, DefinedCounter } from '../grid/counter-manager';
import { type CounterConfig, formatCounterConfig, parseCounterConfig } from '../model/counter-config';

/** What an update answers: WEAK counters 204, STRONG ones 200 with the new value (docs/reference/management-plane.md#counter-updates). */
export type UpdateOutcome = { kind: 'WEAK' } | { kind: 'STRONG'; value: bigint };

/**
 * Counters (docs/reference/management-plane.md#counters). Every value operation goes to the
 * counter's cell (src/grid/counter-values.ts), which answers once its change is durable; where the
 * value lives is the engine's business.
 */
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

  /** The value once its last change is durable (read in this turn when nothing is pending: a backup's instant relies on it). */
  async value(name: string): Promise<bigint> {
    return this.manager.require(name).cell.value();
  }

  config(name: string, pretty: boolean): string {
    return formatCounterConfig(this.manager.require(name).config, pretty);
  }

  async add(name: string, delta: bigint): Promise<UpdateOutcome> {
    const counter = this.manager.require(name);
    const value = await counter.cell.add(delta);
    return isStrong(counter) ? { kind: 'STRONG', value } : { kind: 'WEAK' };
  }

  async reset(name: string): Promise<void> {
    await this.manager.require(name).cell.reset();
  }

  async compareAndSet(name: string, expect: bigint, update: bigint): Promise<boolean> {
    return (await this.strong(name).cell.compareAndSwap(expect, update)) === expect;
  }

  /** Answers the value before the operation (equal to `expect` when it succeeded). */
  async compareAndSwap(name: string, expect: bigint, update: bigint): Promise<bigint> {
    return this.strong(name).cell.compareAndSwap(expect, update);
  }

  async getAndSet(name: string, value: bigint): Promise<bigint> {
    return this.strong(name).cell.getAndSet(value);
  }

  /** Restore: defines the counter when absent, then sets its value (PERSISTENT values committed first). */
  async restore(name: string, configJson: string, value: bigint): Promise<void> {
    if (!this.manager.names().includes(name)) await this.define(name, configJson);
    await this.manager.require(name).cell.restoreValue(value);
  }

  private strong(name: string): DefinedCounter {
    const c = this.manager.require(name);
    if (!isStrong(c)) throw new InvalidCounterTypeError('WeakCounter');
    return c;
  }
}

function isStrong(counter: DefinedCounter): boolean {
  return counter.config.kind === 'strong-counter';
}

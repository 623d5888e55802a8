import { CounterExistsError, CounterNotFoundError } from '../errors';
import { type CounterConfig, formatCounterConfig, parseCounterConfig } from '../model/counter-config';
import type { Store } from '../store/store';
import type { Clock } from '../util/clock';
import type { Logger } from '../util/logger';
import { then } from '../util/maybe-promise';
import type { CounterCell, CounterValues } from './counter-values';

export interface CounterManagerDeps {
  store: Store;
  /** Where the values live (src/grid/counter-values.ts): the local engine's or the cluster's. */
  values: CounterValues;
  clock: Clock;
  log: Logger;
}

/** A counter as the API knows it: its definition and the handle of its value. */
export interface DefinedCounter {
  readonly name: string;
  readonly config: CounterConfig;
  readonly cell: CounterCell;
}

/**
 * The container's counters: their definitions, kept in the store, each with the cell of its value
 * (`CounterValues`). What a value keeps across a restart is the engine's: on the local engine
 * PERSISTENT counters keep it, VOLATILE ones come back at their initial value, as the original does.
 */
export class CounterManager {
  private readonly counters = new Map<string, DefinedCounter>();

  constructor(private readonly deps: CounterManagerDeps) {
    this.reload();
  }

  /** Reads the stored definitions: at start, and when another node defined or removed counters (those kept stay as they are). */
  reload(): void {
    const records = this.deps.store.counters.list();
    const stored = new Set(records.map((r) => r.name));
    for (const name of this.counters.keys()) if (!stored.has(name)) this.counters.delete(name);
    for (const r of records) {
      if (this.counters.has(r.name)) continue;
      const config = parseCounterConfig(r.config);
      this.counters.set(r.name, { name: r.name, config, cell: this.deps.values.cell(r.name, config) });
    }
  }

  names(): string[] {
    return [...this.counters.keys()].sort();
  }

  require(name: string): DefinedCounter {
    const c = this.counters.get(name);
    if (!c) throw new CounterNotFoundError();
    return c;
  }

  /**
   * The value is put at its initial value before the definition is written, so no node that sees
   * the definition finds what an earlier counter of the name left; the name is taken at once.
   */
  async define(name: string, config: CounterConfig): Promise<void> {
    if (this.counters.has(name)) throw new CounterExistsError(name);
    const counter = { name, config, cell: this.deps.values.cell(name, config) };
    this.counters.set(name, counter);
    try {
      await then(counter.cell.create(), () => {
        const now = this.deps.clock.now();
        const record = { name, config: formatCounterConfig(config, false), value: config.initialValue, updatedAt: now, createdAt: now };
        return this.deps.store.write({ kind: 'counter.insert', record }).promise;
      });
    } catch (err) {
      this.counters.delete(name);
      throw err;
    }
    this.deps.log.info({ counter: name, kind: config.kind, storage: config.storage }, 'counter defined');
  }

  /** The definition goes first, then the value: a node that still sees the definition finds its value. */
  async remove(name: string): Promise<void> {
    const counter = this.require(name);
    this.counters.delete(name);
    await this.deps.store.write({ kind: 'counter.delete', name }).promise;
    await counter.cell.drop();
    this.deps.log.info({ counter: name }, 'counter removed');
  }
}

import { CounterExistsError, CounterNotFoundError } from '../errors';
import { type CounterConfig, formatCounterConfig, parseCounterConfig } from '../model/counter-config';
import type { Commit, Store } from '../store/store';
import type { Clock } from '../util/clock';
import type { Logger } from '../util/logger';
import { Counter } from './counter';

export interface CounterManagerDeps {
  store: Store;
  clock: Clock;
  log: Logger;
}

/**
 * The container's counters. Every definition is kept; PERSISTENT counters also keep their value,
 * VOLATILE ones come back at their initial value after a restart, as the original does.
 */
export class CounterManager {
  private readonly counters = new Map<string, Counter>();

  constructor(private readonly deps: CounterManagerDeps) {
    this.reload();
  }

  /** Reads the stored definitions: at start, and when another node defined or removed counters (those kept stay as they are). */
  reload(): void {
    const records = this.deps.store.counters.list();
    for (const name of this.counters.keys()) if (!records.some((r) => r.name === name)) this.counters.delete(name);
    for (const r of records) {
      if (this.counters.has(r.name)) continue;
      const config = parseCounterConfig(r.config);
      const value = config.storage === 'PERSISTENT' ? r.value : config.initialValue;
      this.counters.set(r.name, new Counter(r.name, config, value, r.updatedAt, this.deps.clock));
    }
  }

  names(): string[] {
    return [...this.counters.keys()].sort();
  }

  require(name: string): Counter {
    const c = this.counters.get(name);
    if (!c) throw new CounterNotFoundError();
    return c;
  }

  async define(name: string, config: CounterConfig): Promise<void> {
    if (this.counters.has(name)) throw new CounterExistsError(name);
    const now = this.deps.clock.now();
    const counter = new Counter(name, config, config.initialValue, now, this.deps.clock);
    this.counters.set(name, counter);
    const record = { name, config: formatCounterConfig(config, false), value: config.initialValue, updatedAt: now, createdAt: now };
    await this.deps.store.write({ kind: 'counter.insert', record }).promise.catch((err: unknown) => {
      this.counters.delete(name);
      throw err;
    });
    this.deps.log.info({ counter: name, kind: config.kind, storage: config.storage }, 'counter defined');
  }

  async remove(name: string): Promise<void> {
    this.require(name);
    this.counters.delete(name);
    await this.deps.store.write({ kind: 'counter.delete', name }).promise;
    this.deps.log.info({ counter: name }, 'counter removed');
  }

  /** Writes a changed value of a PERSISTENT counter; the caller answers after the commit. */
  persist(counter: Counter): Commit | undefined {
    if (counter.config.storage !== 'PERSISTENT') return undefined;
    const commit = this.deps.store.write({ kind: 'counter.setValue', name: counter.name, value: counter.value(), updatedAt: counter.lastUpdate });
    counter.pending = commit;
    return commit;
  }
}

import type { Cluster } from 'ioredis';
import type { CounterConfig } from '../../model/counter-config';
import { ADD, COMPARE_AND_SWAP, GET_AND_SET, VALUE } from './counter-scripts';
import { masterWrites, type Writes } from './cluster-engine';
import { engineFailure } from './engine-failure';
import { type ScriptCall, scriptCommands, type ScriptTable } from './script-commands';

/**
 * Where counter values live in a Redis Cluster (docs/scale-out.md, "Counters"): one hash per
 * counter, `n:{<containerId>:<name>}`, holding `v` (the value as decimal text) and `u` (its last
 * update, epoch ms). The whole name is the hash tag, so each counter has a slot of its own and
 * counters spread over the masters; `%`, `{` and `}` in a name are %-escaped, so a brace in a name
 * cannot cut the tag short and two names never share a key. No key: the counter's initial value.
 * This is stored data: the names must never change under a running cluster.
 */
const TAG_SAFE = /^[^{}:]+$/;

function counterKeyOf(containerId: string, name: string): string {
  return `n:{${containerId}:${name.replace(/[%{}]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}}`;
}

/** Which bound an operation ran into. */
export type Bound = 'Upper bound' | 'Lower bound';

/** What an add did: the new value, or the bound it stopped AT (the value is then that bound). */
export interface Added {
  value: bigint;
  beyond?: Bound;
}

/** What a swap found: the value before, and the bound its update was outside (nothing changed then). */
export interface Swapped {
  previous: bigint;
  beyond?: Bound;
}

type CounterScript = 'value' | 'add' | 'compareAndSwap' | 'getAndSet';
type CounterScripts = Record<CounterScript, ScriptCall>;

const SCRIPTS: ScriptTable<CounterScript> = [
  ['value', VALUE, 1], ['add', ADD, 1], ['compareAndSwap', COMPARE_AND_SWAP, 1], ['getAndSet', GET_AND_SET, 1],
];

/** The scripts as commands of `client` (the shared one, or one `writes` hands a write). */
function counterScripts(client: Cluster): CounterScripts {
  return scriptCommands(client, 'gridCounters', SCRIPTS, false);
}

function boundOf(flag: string | undefined): Bound | undefined {
  return flag === 'U' ? 'Upper bound' : flag === 'L' ? 'Lower bound' : undefined;
}

/** The counter values of one container on a Redis Cluster, under an opaque cluster-wide container id (no braces, no colon). */
export class RedisCounters {
  private readonly scripts: CounterScripts;

  /** `writes`: how a write is sent and made durable (`--durability power`: a replica has it). */
  constructor(client: Cluster, private readonly containerId: string, private readonly writes: Writes = masterWrites(client)) {
    if (!TAG_SAFE.test(containerId)) throw new Error(`a container id in a Redis hash tag needs at least one character and no braces or colon: ${JSON.stringify(containerId)}`);
    this.scripts = counterScripts(client);
  }

  /** The value of the counter `name` defined by `config`. */
  of(name: string, config: CounterConfig): RedisCounter {
    return new RedisCounter(this.scripts, counterKeyOf(this.containerId, name), config, this.writes);
  }
}

/**
 * One counter's value: each operation one script (one command for a plain set or delete) on the
 * master of its key, atomic there. `now` is the caller's clock (the lifespan rule and the last
 * update), as for entries.
 */
export class RedisCounter {
  /** ARGV 1–5 of every script: the definition (counter-scripts.ts). */
  private readonly definition: string[];

  constructor(private readonly scripts: CounterScripts, private readonly key: string, private readonly config: CounterConfig, private readonly writes: Writes) {
    const bounded = config.kind === 'strong-counter' && config.bounded;
    this.definition = [config.initialValue, bounded ? '1' : '0', config.lowerBound, config.upperBound, config.lifespan].map(String);
  }

  async value(now: number): Promise<bigint> {
    return BigInt(await this.scripts.value(this.key, ...this.definition, String(now)) as string);
  }

  async add(delta: bigint, now: number): Promise<Added> {
    const [value, flag] = await this.write((s) => s.add(this.key, ...this.definition, String(now), String(delta)));
    return { value: BigInt(value), beyond: boundOf(flag) };
  }

  async compareAndSwap(expect: bigint, update: bigint, now: number): Promise<Swapped> {
    const [previous, flag] = await this.write((s) => s.compareAndSwap(this.key, ...this.definition, String(now), String(expect), String(update)),
      ([was, beyond]) => was === String(expect) && !beyond);
    return { previous: BigInt(previous), beyond: boundOf(flag) };
  }

  async getAndSet(update: bigint, now: number): Promise<Swapped> {
    const [previous, flag] = await this.write((s) => s.getAndSet(this.key, ...this.definition, String(now), String(update)), ([, beyond]) => !beyond);
    return { previous: BigInt(previous), beyond: boundOf(flag) };
  }

  /** Sets the value with no check (reset, restore, a counter defined anew). */
  async set(value: bigint, now: number): Promise<void> {
    await this.writes.run(this.key, 0, (client) => client.hset(this.key, 'v', String(value), 'u', String(now)).catch(engineFailure));
  }

  /** The initial value, last updated now. */
  reset(now: number): Promise<void> {
    return this.set(this.config.initialValue, now);
  }

  async delete(): Promise<void> {
    await this.writes.run(this.key, 0, (client) => client.del(this.key).catch(engineFailure));
  }

  /** A script that may change the value, sent as `writes` sends writes; `changed`: whether its answer says it did (by default: always). */
  private write(call: (scripts: CounterScripts) => Promise<unknown>, changed?: (answer: string[]) => boolean): Promise<string[]> {
    return this.writes.run(this.key, 0, async (client) => await call(counterScripts(client)) as string[], changed);
  }
}

import calculateSlot from 'cluster-key-slot';
import type { Cluster } from 'ioredis';
import { engineFailure } from './engine-failure';

/** A script's keys, then its arguments. */
export type ScriptArgs = Array<Buffer | string | number>;

/** A script run as a command: its keys, then its arguments; a failure is already the client's 503 (engine-failure.ts). */
export type ScriptCall = (...args: ScriptArgs) => Promise<unknown>;

/**
 * Calls of one script: their answers, in the calls' order; `each`, if given, has each answer (and
 * the call's index) as soon as it is known, in the turn its master's pipeline answered.
 */
export type ScriptBatch = (calls: ScriptArgs[], each?: (answer: unknown, i: number) => void) => Promise<unknown[]>;

/** Scripts by name: [name, Lua source, number of keys]. */
export type ScriptTable<N extends string> = ReadonlyArray<readonly [N, string, number]>;

const defined = new WeakMap<Cluster, Map<string, Record<string, ScriptCall>>>();

/**
 * `table`'s scripts as commands of `client` (`<prefix>_<name>`), defined once per client and
 * prefix (one prefix names one table): ioredis sends EVALSHA, and the script itself the first time
 * a connection lacks it. `binary`: the `…Buffer` variants, whose replies stay bytes.
 */
export function scriptCommands<N extends string>(client: Cluster, prefix: string, table: ScriptTable<N>, binary: boolean): Record<N, ScriptCall> {
  let known = defined.get(client);
  if (!known) defined.set(client, (known = new Map()));
  const id = `${prefix}${binary ? 'Buffer' : ''}`;
  const found = known.get(id);
  if (found) return found;
  const commands = client as unknown as Record<string, ScriptCall>;
  const out = {} as Record<N, ScriptCall>;
  for (const [name, lua, numberOfKeys] of table) {
    const command = `${prefix}_${name}`;
    if (!(command in commands)) client.defineCommand(command, { lua, numberOfKeys });
    const raw = commands[binary ? `${command}Buffer` : command].bind(client);
    out[name] = (...args) => raw(...args).catch(engineFailure);
  }
  known.set(id, out);
  return out;
}

type Pipelined = Record<string, (...args: ScriptArgs) => unknown> & { exec(): Promise<Array<[Error | null, unknown]> | null> };

/**
 * The indexes of `keys` grouped by the master that serves each key's slot, as far as the client
 * knows, in groups of at most `size`: what one command or pipeline sent to one master may carry.
 */
export function groupByMaster(client: Cluster, keys: ReadonlyArray<Buffer | string>, size = Infinity): number[][] {
  const byMaster = new Map<string, number[]>();
  keys.forEach((key, i) => {
    const master = client.slots[calculateSlot(key)]?.[0] ?? '';
    const group = byMaster.get(master);
    if (group) group.push(i);
    else byMaster.set(master, [i]);
  });
  const groups: number[][] = [];
  for (const group of byMaster.values()) for (let i = 0; i < group.length; i += size) groups.push(group.slice(i, i + size));
  return groups;
}

/**
 * Many calls of the script `name` of `scriptCommands(client, prefix, …)` at once, as one pipeline
 * per master (the one serving each call's first key): a pipeline is one write to the socket, where
 * each call alone is one. A pipeline refused because slots moved since it was grouped, and a call
 * that failed in one (a redirection), are sent again alone; a failure then is the client's 503.
 */
export function scriptBatch(client: Cluster, prefix: string, name: string, binary: boolean, single: ScriptCall): ScriptBatch {
  const method = `${prefix}_${name}${binary ? 'Buffer' : ''}`;
  return async (calls, each) => {
    const answers = new Array<unknown>(calls.length);
    await Promise.all(groupByMaster(client, calls.map((args) => args[0] as Buffer | string)).map(async (group) => {
      const pipeline = client.pipeline() as unknown as Pipelined;
      for (const i of group) pipeline[method](...calls[i]);
      const replies = await pipeline.exec().catch(() => null);
      await Promise.all(group.map(async (i, n) => {
        const reply = replies?.[n];
        answers[i] = reply && !reply[0] ? reply[1] : await single(...calls[i]);
        each?.(answers[i], i);
      }));
    }));
    return answers;
  };
}

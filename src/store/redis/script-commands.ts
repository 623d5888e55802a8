import type { Cluster } from 'ioredis';
import { engineFailure } from './engine-failure';

/** A script run as a command: its keys, then its arguments; a failure is already the client's 503 (engine-failure.ts). */
export type ScriptCall = (...args: Array<Buffer | string | number>) => Promise<unknown>;

/** Scripts by name: [name, Lua source, number of keys]. */
export type ScriptTable<N extends string> = ReadonlyArray<readonly [N, string, number]>;

const defined = new WeakMap<Cluster, Map<string, ScriptCall>>();

/**
 * `table`'s scripts as commands of `client` (`<prefix>_<name>`), defined once per client: ioredis
 * sends EVALSHA, and the script itself the first time a connection lacks it. `binary`: the
 * `…Buffer` variants, whose replies stay bytes.
 */
export function scriptCommands<N extends string>(client: Cluster, prefix: string, table: ScriptTable<N>, binary: boolean): Record<N, ScriptCall> {
  let known = defined.get(client);
  if (!known) defined.set(client, (known = new Map()));
  const commands = client as unknown as Record<string, ScriptCall>;
  const out = {} as Record<N, ScriptCall>;
  for (const [name, lua, numberOfKeys] of table) {
    const command = `${prefix}_${name}`;
    let call = known.get(command);
    if (!call) {
      client.defineCommand(command, { lua, numberOfKeys });
      const raw = commands[binary ? `${command}Buffer` : command].bind(client);
      call = (...args) => raw(...args).catch(engineFailure);
      known.set(command, call);
    }
    out[name] = call;
  }
  return out;
}

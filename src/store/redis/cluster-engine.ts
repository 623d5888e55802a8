import calculateSlot from 'cluster-key-slot';
import type { Cluster } from 'ioredis';
import { EngineUnavailableError } from '../../errors';
import type { ClusterTopology } from './cluster-topology';
import type { EntryEventFeed } from './entry-event-feed';

/**
 * How a write reaches the cluster and is made durable (docs/scale-out.md, "Durability"): `run`
 * sends `write` with the client it hands it; when `changed(result)` (by default: always), it
 * resolves only once the write is as durable as the engine promises. `key`: a Redis key in the
 * slot written to; `bytes`: about how much was written.
 */
export interface Writes {
  run<T>(key: string, bytes: number, write: (client: Cluster) => Promise<T>, changed?: (result: T) => boolean): Promise<T>;
}

/** The cluster a redis-engine server works on, and how its writes are made durable. */
export interface ClusterEngine {
  /** Reads, and the writes of `--durability process`. */
  client: Cluster;
  writes: Writes;
  /** Who holds which slot, and whether slots move or lack a master. */
  topology: ClusterTopology;
  /** This process's entry events for the others, and theirs for it (`events.node` is this node's id). */
  events: EntryEventFeed;
  /** `engine.namespace`: prefixed to each container's name in the cluster. */
  namespace?: string;
  /** Closes the event feed's and the clients' connections (the containers closed first). */
  close(): Promise<void>;
}

/** `--durability process`: each write on the shared client, done once its master has it. */
export function masterWrites(client: Cluster): Writes {
  return { run: (_key, _bytes, write) => write(client) };
}

/**
 * How fast a replica is assumed to receive a large write, at the least (bytes per ms: 10 MB/s): the
 * replica wait grows by the time such a write needs on a busy machine, so a 64 MB value is not
 * refused for the time its copy takes.
 */
const REPLICATION_BYTES_PER_MS = 10_000;

/**
 * `--durability power` (docs/scale-out.md, "Durability"): each write, then `WAIT 1` on the same
 * connection to the master of its slot — Redis answers once a replica acknowledged every write that
 * connection sent before, so a write is on two nodes before it is acknowledged. No replica within
 * `baseTimeoutMs` (plus the time a large write takes to copy): a 503 — the write is on the master,
 * perhaps not on a replica, and the client may repeat it.
 *
 * The writes and their waits go over clients of their own (`pool`), never the shared one reads
 * use: a connection serves its commands in order, so a command sent behind a `WAIT` waits with it.
 * Each write takes the pool client with the fewest writes in flight to its master, so that a write
 * waiting long (a lagging replica, a large value) holds up no read and as few writes as the pool allows.
 */
export class ReplicatedWrites implements Writes {
  /** Per pool client: writes in flight, by master address. */
  private readonly inFlight: Array<Map<string, number>>;

  constructor(private readonly pool: readonly Cluster[], private readonly baseTimeoutMs: number) {
    if (pool.length === 0) throw new Error('replicated writes need at least one client');
    this.inFlight = pool.map(() => new Map());
  }

  async run<T>(key: string, bytes: number, write: (client: Cluster) => Promise<T>, changed: (result: T) => boolean = () => true): Promise<T> {
    const slot = calculateSlot(key);
    let chosen = 0;
    let fewest = Infinity;
    for (let i = 0; i < this.pool.length && fewest > 0; i++) {
      const n = this.inFlight[i].get(this.pool[i].slots[slot]?.[0] ?? '') ?? 0;
      if (n < fewest) [chosen, fewest] = [i, n];
    }
    const client = this.pool[chosen];
    const counts = this.inFlight[chosen];
    const master = client.slots[slot]?.[0] ?? '';
    counts.set(master, (counts.get(master) ?? 0) + 1);
    try {
      const result = await write(client);
      if (changed(result)) await this.waitForReplica(client, slot, this.baseTimeoutMs + Math.ceil(bytes / REPLICATION_BYTES_PER_MS));
      return result;
    } finally {
      const left = counts.get(master)! - 1;
      if (left === 0) counts.delete(master);
      else counts.set(master, left);
    }
  }

  /** `WAIT 1` on `client`'s connection to the master of `slot` (the one a redirected write reached: the client moved the slot to it). */
  private async waitForReplica(client: Cluster, slot: number, timeoutMs: number): Promise<void> {
    const address = client.slots[slot]?.[0];
    const node = client.nodes('master').find((n) => `${n.options.host}:${n.options.port}` === address);
    if (!node) throw new EngineUnavailableError(`no master is known for the key's slot ${slot}`);
    const acknowledged = await node.wait(1, timeoutMs).catch((err: Error) => { throw new EngineUnavailableError(err.message); });
    if (acknowledged < 1) throw new EngineUnavailableError(`no replica acknowledged the write within ${timeoutMs} ms (--durability power)`);
  }
}

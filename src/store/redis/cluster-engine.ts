import calculateSlot from 'cluster-key-slot';
import type { Cluster } from 'ioredis';
import { EngineUnavailableError } from '../../errors';
import type { EntryEventFeed } from './entry-event-feed';

/** After a write of about `bytes` to the slot of `key`: resolves once the write is as durable as the engine promises. */
export type AfterWrite = (key: string, bytes?: number) => Promise<void>;

/**
 * How fast a replica is assumed to receive a large write, at the least (bytes per ms: 10 MB/s): the
 * replica wait grows by the time such a write needs on a busy machine, so a 64 MB value is not
 * refused for the time its copy takes.
 */
const REPLICATION_BYTES_PER_MS = 10_000;

/** The cluster a redis-engine server works on, and how its writes are made durable. */
export interface ClusterEngine {
  client: Cluster;
  /** `--durability power`: each write waits for a replica (`waitForReplica`); absent for `process`. */
  afterWrite?: AfterWrite;
  /** This process's entry events for the others, and theirs for it (`events.node` is this node's id). */
  events: EntryEventFeed;
  /** `engine.namespace`: prefixed to each container's name in the cluster. */
  namespace?: string;
  /** Closes the event feed's and the client's connections (the containers closed first). */
  close(): Promise<void>;
}

/**
 * `WAIT 1` on the master of the key's slot, after a write to it (docs/scale-out.md, "Durability"):
 * Redis answers once a replica acknowledged every write that connection sent before, so a write
 * is on two nodes before it is acknowledged. No replica within `timeoutMs` (plus the time a large
 * write takes to copy): a 503 — the write is on the master, perhaps not on a replica, and the
 * client may repeat it.
 */
export function waitForReplica(client: Cluster, baseTimeoutMs: number): AfterWrite {
  return async (key, bytes = 0) => {
    const timeoutMs = baseTimeoutMs + Math.ceil(bytes / REPLICATION_BYTES_PER_MS);
    const address = client.slots[calculateSlot(key)]?.[0];
    const node = client.nodes('master').find((n) => `${n.options.host}:${n.options.port}` === address);
    if (!node) throw new EngineUnavailableError(`no master is known for the key's slot ${calculateSlot(key)}`);
    const acknowledged = await node.wait(1, timeoutMs).catch((err: Error) => { throw new EngineUnavailableError(err.message); });
    if (acknowledged < 1) throw new EngineUnavailableError(`no replica acknowledged the write within ${timeoutMs} ms (--durability power)`);
  };
}

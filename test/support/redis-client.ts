import type { Cluster, ClusterOptions } from 'ioredis';
import { parseRedisNodes } from '../../src/config/engine-config';
import { connectCluster } from '../../src/store/redis/cluster-client';
import { runningPid } from '../../src/cli/local-redis-node';
import type { ThrowawayCluster } from './redis-cluster';

/**
 * A client of a throwaway cluster, as the engine opens one (src/store/redis/cluster-client.ts),
 * once it is ready; close it with `quit()` in the describe's `after`.
 */
export function clusterClient(redis: ThrowawayCluster, overrides: ClusterOptions = {}): Promise<Cluster> {
  // a node lost later (the failover tests): each command reports its own failure, as for the engine
  return connectCluster({ type: 'redis', nodes: parseRedisNodes(redis.seeds), password: redis.cluster.password }, overrides);
}

/** Two clients of a throwaway cluster (two grid nodes, say), opened before the describe's tests and quit after them. */
export function useClusterClients(redis: ThrowawayCluster): { client: Cluster; other: Cluster } {
  const clients = {} as { client: Cluster; other: Cluster };
  before(async () => {
    clients.client = await clusterClient(redis);
    clients.other = await clusterClient(redis);
  });
  after(async () => {
    await clients.client?.quit();
    await clients.other?.quit();
  });
  return clients;
}

/** `host:port` of each master, as the client sees the cluster now. */
export function masterAddresses(client: Cluster): string[] {
  return client.nodes('master').map((n) => `${n.options.host}:${n.options.port}`);
}

/** The address of the master that serves `slot`, from the client's slot table. */
export function masterOfSlot(client: Cluster, slot: number): string {
  return client.slots[slot][0];
}

/** Kills the node at `address` (`127.0.0.1:PORT`) of the throwaway cluster with SIGKILL, by the PID it was started with. */
export function killNode(redis: ThrowawayCluster, address: string): void {
  const pid = runningPid(redis.cluster.dir, Number(address.split(':')[1]));
  if (pid === undefined) throw new Error(`${address} does not run`);
  process.kill(pid, 'SIGKILL');
}

/** The master and the online replicas of `slot` (`host:port`), as `CLUSTER SHARDS` tells them. */
export async function shardOfSlot(client: Cluster, slot: number): Promise<{ master: string; replicas: string[] }> {
  type Fields = Array<string | number | unknown[]>;
  const field = (f: Fields, name: string) => f[f.indexOf(name) + 1];
  const shards = await client.call('CLUSTER', 'SHARDS') as Fields[];
  for (const shard of shards) {
    const ranges = field(shard, 'slots') as Array<number | string>;
    let holds = false;
    for (let i = 0; i < ranges.length; i += 2) holds ||= Number(ranges[i]) <= slot && slot <= Number(ranges[i + 1]);
    if (!holds) continue;
    const nodes = (field(shard, 'nodes') as Fields[]).filter((n) => field(n, 'health') === 'online');
    const address = (n: Fields) => `${String(field(n, 'ip'))}:${String(field(n, 'port'))}`;
    return { master: address(nodes.find((n) => field(n, 'role') === 'master')!), replicas: nodes.filter((n) => field(n, 'role') === 'replica').map(address).sort() };
  }
  throw new Error(`no shard holds slot ${slot}`);
}

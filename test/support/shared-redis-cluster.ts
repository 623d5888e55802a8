import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LocalCluster, NODE_COUNT, startLocalCluster } from '../../src/cli/local-redis-cluster';
import { address, freeNodePorts, runningPid } from '../../src/cli/local-redis-node';
import { parseRedisNodes } from '../../src/config/engine-config';
import { connectCluster } from '../../src/store/redis/cluster-client';

/** A throwaway 3+3 Redis Cluster and the seeds a grid node is given for it. */
export interface StartedCluster {
  cluster: LocalCluster;
  /** `127.0.0.1:P,…` of the three nodes the cluster was created with as masters. */
  seeds: string;
}

let shared: Promise<StartedCluster> | undefined;

/**
 * One throwaway cluster for the whole mocha run, started on first use (4–5 s here, so a run pays
 * it once instead of once per test file) and killed, by PID, as the run exits. The files share it
 * one after another, never at once: mocha runs them in turn.
 */
export function sharedRedisCluster(): Promise<StartedCluster> {
  shared ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'grid-test-redis-'));
    // detached (and so unreferenced): a child the run holds would keep mocha from ever exiting;
    // the run kills the nodes itself as it exits
    const { cluster } = await startLocalCluster(dir, await freeNodePorts(NODE_COUNT), { detached: true });
    process.once('exit', () => {
      for (const n of cluster.nodes) {
        const pid = runningPid(dir, n.port);
        if (pid !== undefined) process.kill(pid, 'SIGKILL');
      }
      rmSync(dir, { recursive: true, force: true });
    });
    return { cluster, seeds: cluster.nodes.slice(0, 3).map((n) => address(n.port)).join(',') };
  })();
  return shared;
}

/** Empties every master of `started` (its replicas follow), so the next file finds the cluster as new. */
export async function flushCluster(started: StartedCluster): Promise<void> {
  const client = await connectCluster({ type: 'redis', nodes: parseRedisNodes(started.seeds), password: started.cluster.password });
  try {
    await Promise.all(client.nodes('master').map((n) => n.flushall('SYNC')));
  } finally {
    await client.quit();
  }
}

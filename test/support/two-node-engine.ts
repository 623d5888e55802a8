import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { NODE_COUNT, startLocalCluster } from '../../src/cli/local-redis-cluster';
import { address, freeNodePorts, runningPid } from '../../src/cli/local-redis-node';
import { type EngineOverrides, parseRedisNodes } from '../../src/config/engine-config';
import { tempDir } from './server';

/**
 * `GRID_TEST_ENGINE=redis`: the black-box tests run against two grid nodes over one Redis Cluster
 * instead of one node on SQLite (docs/scale-out.md, "Testing on the redis engine"). One 3+3 cluster
 * serves the whole run; each test server gets a namespace of its own on it, derived from its data
 * dir, so a server restarted on its data dir finds its data again and no two servers share any.
 */
export const TWO_NODES = process.env.GRID_TEST_ENGINE === 'redis';

/** How many grid nodes a test server is: the members the cluster resources list (docs/scale-out.md, "Membership"). */
export const TEST_SERVER_NODES = TWO_NODES ? 2 : 1;

let cluster: Promise<{ seeds: string; passwordFile: string }> | undefined;

function sharedCluster(): Promise<{ seeds: string; passwordFile: string }> {
  cluster ??= (async () => {
    const dir = tempDir('grid-test-redis-');
    // detached (and so unreferenced): a child the run holds would keep mocha from ever exiting;
    // the run kills the nodes itself as it exits
    const { cluster: started } = await startLocalCluster(dir, await freeNodePorts(NODE_COUNT), { detached: true });
    process.once('exit', () => {
      for (const n of started.nodes) {
        const pid = runningPid(dir, n.port);
        if (pid !== undefined) process.kill(pid, 'SIGKILL');
      }
      rmSync(dir, { recursive: true, force: true });
    });
    return { seeds: started.nodes.slice(0, 3).map((n) => address(n.port)).join(','), passwordFile: started.passwordFile };
  })();
  return cluster;
}

/** The engine settings of a test server on the shared cluster, its namespace taken from its data dir. */
export async function twoNodeEngine(dataDir: string): Promise<EngineOverrides> {
  const { seeds, passwordFile } = await sharedCluster();
  return { type: 'redis', nodes: parseRedisNodes(seeds), passwordFile, namespace: createHash('sha256').update(dataDir).digest('hex').slice(0, 16) };
}

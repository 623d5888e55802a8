import { createHash } from 'node:crypto';
import { type EngineOverrides, parseRedisNodes } from '../../src/config/engine-config';
import { sharedRedisCluster } from './shared-redis-cluster';

/**
 * `GRID_TEST_ENGINE=redis`: the black-box tests run against two grid nodes over one Redis Cluster
 * instead of one node on SQLite (docs/scale-out.md, "Testing on the redis engine"). One 3+3 cluster
 * serves the whole run; each test server gets a namespace of its own on it, derived from its data
 * dir, so a server restarted on its data dir finds its data again and no two servers share any.
 */
export const TWO_NODES = process.env.GRID_TEST_ENGINE === 'redis';

/** How many grid nodes a test server is: the members the cluster resources list (docs/scale-out.md, "Membership"). */
export const TEST_SERVER_NODES = TWO_NODES ? 2 : 1;

/** The engine settings of a test server on the shared cluster, its namespace taken from its data dir. */
export async function twoNodeEngine(dataDir: string): Promise<EngineOverrides> {
  const { seeds, cluster } = await sharedRedisCluster();
  return { type: 'redis', nodes: parseRedisNodes(seeds), passwordFile: cluster.passwordFile, namespace: createHash('sha256').update(dataDir).digest('hex').slice(0, 16) };
}

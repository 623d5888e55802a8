import { Cluster, type ClusterOptions } from 'ioredis';
import type { RedisEngineConfig } from '../../config/engine-config';
import { nodeOptions } from './connection-options';

const CONNECT_TIMEOUT_MS = 3_000;
/** A command without an answer this long fails (a 503 to the client: docs/scale-out.md, "When Redis fails"). */
const COMMAND_TIMEOUT_MS = 5_000;

/**
 * The engine's client of the cluster: ioredis in cluster mode through the configured seeds, with
 * their password and TLS, and auto-pipelining off — with it on, commands failed while slots moved
 * (docs/scale-out.md, "Client library"). Reads go to masters: a replica may not have a write yet.
 * `overrides` are for tests (e.g. how long to retry during a failover).
 */
export function openCluster(config: RedisEngineConfig, overrides: ClusterOptions = {}): Cluster {
  const { password, tls } = nodeOptions(config, config.nodes[0], CONNECT_TIMEOUT_MS);
  return new Cluster(config.nodes.map(({ host, port }) => ({ host, port })), {
    enableAutoPipelining: false,
    scaleReads: 'master',
    ...overrides,
    redisOptions: { password, tls, connectTimeout: CONNECT_TIMEOUT_MS, commandTimeout: COMMAND_TIMEOUT_MS, ...overrides.redisOptions },
  });
}

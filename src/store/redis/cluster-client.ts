import { Cluster, type ClusterOptions } from 'ioredis';
import type { RedisEngineConfig } from '../../config/engine-config';
import { ConfigError } from '../../config/server-config-error';
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

/** How long the client may take to reach every master. */
const READY_MS = 10_000;

/**
 * `openCluster` (`overrides` as there), resolved once the client reaches every master; a ConfigError naming the cause
 * when it does not within 10 s (the server's start and the CLI stop on it, exit code 2).
 *
 * @public loaded on first use, through `require`, which the dead-export check cannot follow
 */
export async function connectCluster(config: RedisEngineConfig, overrides: ClusterOptions = {}): Promise<Cluster> {
  return ready(openCluster(config, overrides));
}

/**
 * A client of the same cluster as `client`, with the same options and connections of its own, once
 * it reaches every master (a ConfigError as `connectCluster`'s when it does not).
 *
 * @public loaded on first use, through `require`, which the dead-export check cannot follow
 */
export function duplicateCluster(client: Cluster): Promise<Cluster> {
  return ready(client.duplicate());
}

async function ready(client: Cluster): Promise<Cluster> {
  await new Promise<void>((resolve, reject) => {
    client.once('ready', resolve);
    client.once('error', reject);
    // e.g. a node that does not know its own address tells clients to connect to '' (cluster-announce-ip)
    setTimeout(() => reject(new Error(`no connection to every master within ${READY_MS / 1000} s; check that each node announces an address grid can reach (cluster-announce-ip)`)), READY_MS).unref();
  }).catch((err: unknown) => {
    client.disconnect();
    throw new ConfigError(`the Redis Cluster could not be connected to: ${(err as Error).message}`);
  });
  client.on('error', () => undefined); // each command reports its own failure
  return client;
}

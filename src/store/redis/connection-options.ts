import { readFileSync } from 'node:fs';
import type { ConnectionOptions } from 'node:tls';
import type { RedisOptions } from 'ioredis';
import type { RedisEngineConfig, RedisNodeAddress, RedisTlsConfig } from '../../config/engine-config';
import { ConfigError } from '../../config/server-config-error';

/** `host:port`, IPv6 in brackets: how grid names a node in its messages. */
export function formatAddress(node: RedisNodeAddress): string {
  return node.host.includes(':') ? `[${node.host}]:${node.port}` : `${node.host}:${node.port}`;
}

/**
 * ioredis options for one connection to a node of the configured cluster: its password and TLS,
 * a bounded connect and command time, and no retrying or queueing — the caller decides what a
 * failure means.
 */
export function nodeOptions(config: RedisEngineConfig, node: RedisNodeAddress, timeoutMs: number): RedisOptions {
  return {
    host: node.host, port: node.port, password: config.password, tls: config.tls && tlsOptions(config.tls),
    lazyConnect: true, connectTimeout: timeoutMs, commandTimeout: timeoutMs,
    maxRetriesPerRequest: 0, retryStrategy: () => null, enableOfflineQueue: false,
  };
}

function tlsOptions(tls: RedisTlsConfig): ConnectionOptions {
  const read = (path: string | undefined, key: string) => {
    if (path === undefined) return undefined;
    try {
      return readFileSync(path);
    } catch (err) {
      throw new ConfigError(`cannot read engine.tls.${key} ${path}: ${(err as Error).message}`);
    }
  };
  return { ca: read(tls.caFile, 'ca'), cert: read(tls.certFile, 'cert'), key: read(tls.keyFile, 'key'), servername: tls.serverName };
}

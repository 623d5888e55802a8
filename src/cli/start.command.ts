import { parseEngineType, parseRedisNodes, type RedisEngineConfig } from '../config/engine-config';
import { ConfigError, type ConfigOverrides, type Durability, parseAuthMechanisms, parseDurability, parseLogLevel, parseMemberName, parsePort, parseSize, readConfigFiles, readLimits, resolveConfig } from '../config/server-config';
import { startServer } from '../main';
import { compileCacheStartupDone } from '../util/compile-cache';
import { isLogFormat, LOG_FORMATS, type LogFormat } from '../util/log-format';
import { packageVersion } from '../util/package-info';
import { standardOutput } from '../util/standard-output';
import { parse, UsageError } from './args';
import { USAGE } from './usage';

/** `grid start`: serves until SIGINT/SIGTERM, then shuts down cleanly. */
export async function runStart(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, {
    data: { type: 'string' }, host: { type: 'string' }, port: { type: 'string' }, config: { type: 'string', multiple: true },
    durability: { type: 'string' }, 'max-content-length': { type: 'string' }, 'log-level': { type: 'string' }, 'log-format': { type: 'string' },
    'no-auth': { type: 'boolean' }, 'allow-remote-no-auth': { type: 'boolean' }, 'auth-mechanisms': { type: 'string' }, console: { type: 'string' },
    limit: { type: 'string', multiple: true }, D: { type: 'string', short: 'D', multiple: true },
    'tls-port': { type: 'string' }, 'tls-cert': { type: 'string' }, 'tls-key': { type: 'string' }, 'tls-keystore': { type: 'string' },
    'tls-keystore-password': { type: 'string' }, 'tls-keystore-password-file': { type: 'string' },
    engine: { type: 'string' }, redis: { type: 'string' }, 'redis-password-file': { type: 'string' },
    'node-name': { type: 'string' }, 'cluster-name': { type: 'string' },
  });
  if (values.help) {
    process.stdout.write(USAGE.start + '\n');
    return 0;
  }
  if (positionals.length) throw new UsageError(`unexpected argument '${positionals[0]}'`);
  const flags: ConfigOverrides = {
    dataDir: values.data as string | undefined,
    host: values.host as string | undefined,
    port: values.port === undefined ? undefined : parsePort(values.port as string),
    durability: values.durability === undefined ? undefined : parseDurability(values.durability as string),
    maxContentLength: values['max-content-length'] === undefined ? undefined : parseSize(values['max-content-length'] as string, 'max-content-length'),
    logLevel: values['log-level'] === undefined ? undefined : parseLogLevel(values['log-level'] as string),
    authEnabled: values['no-auth'] ? false : undefined,
    consoleDir: values.console as string | undefined,
    nodeName: values['node-name'] === undefined ? undefined : parseMemberName(values['node-name'] as string, 'node-name'),
    clusterName: values['cluster-name'] === undefined ? undefined : parseMemberName(values['cluster-name'] as string, 'cluster-name'),
    allowRemoteNoAuth: values['allow-remote-no-auth'] ? true : undefined,
    authMechanisms: values['auth-mechanisms'] === undefined ? undefined : parseAuthMechanisms(values['auth-mechanisms'] as string),
    properties: parseProperties((values.D as string[] | undefined) ?? []),
    tlsPort: values['tls-port'] === undefined ? undefined : parsePort(values['tls-port'] as string, 'tls-port'),
    tlsCert: values['tls-cert'] as string | undefined,
    tlsKey: values['tls-key'] as string | undefined,
    tlsKeystore: values['tls-keystore'] as string | undefined,
    tlsKeystorePassword: values['tls-keystore-password'] as string | undefined,
    tlsKeystorePasswordFile: values['tls-keystore-password-file'] as string | undefined,
    limits: readLimits(parseProperties((values.limit as string[] | undefined) ?? [], '--limit '), '--limit'),
    engine: {
      type: values.engine === undefined ? undefined : parseEngineType(values.engine as string),
      nodes: values.redis === undefined ? undefined : parseRedisNodes(values.redis as string),
      passwordFile: values['redis-password-file'] as string | undefined,
    },
  };
  // several --config files merge in order (docs/configuration.md)
  const file = readConfigFiles((values.config as string[] | undefined) ?? []);
  const config = resolveConfig(file, flags);
  if (config.engine.type === 'redis') await checkRedisEngine(config.engine, config.durability);
  if (!config.authEnabled) {
    process.stderr.write('\n  WARNING: authentication is OFF (--no-auth). Anyone who can reach this port has full admin access.\n\n');
  }
  // Handlers first: whoever reads the listening line may signal at once.
  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => {
    stop = resolve;
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  const server = await startServer(config, { onStopRequest: stop, logFormat: parseLogFormat(values['log-format'] as string | undefined) });
  const urls = server.tls ? `${server.url} and ${server.tls.url}` : server.url;
  standardOutput().write(`grid ${packageVersion()} listening on ${urls} (data: ${config.dataDir})\n`);
  compileCacheStartupDone();
  await stopped;
  await server.close();
  // everything is closed and durable: nothing left behind (a file system call stuck in the thread
  // pool, say) may keep the process from exiting
  setTimeout(() => process.exit(0), 1_000).unref();
  return 0;
}

/**
 * The redis engine's start checks (docs/scale-out.md, "Start checks"): a cluster that fails one, or
 * one that cannot give `--durability power` when it is asked for, stops the start with the reason.
 */
async function checkRedisEngine(engine: RedisEngineConfig, durability: Durability): Promise<void> {
  // loaded here only: a start on SQLite needs no Redis client library
  const { powerDurabilityGaps, probeRedisCluster } = require('../store/redis/cluster-probe') as typeof import('../store/redis/cluster-probe');
  const facts = await probeRedisCluster(engine);
  const gaps = powerDurabilityGaps(facts);
  if (durability === 'power' && gaps.length) {
    throw new ConfigError(`The cluster at ${facts.seed} cannot give --durability power: ${gaps.join(', ')}; fix that, or start with --durability process (docs/scale-out.md, Durability)`);
  }
}

function parseLogFormat(value: string | undefined): LogFormat | undefined {
  if (value === undefined || isLogFormat(value)) return value;
  throw new UsageError(`--log-format ${value}: expected ${LOG_FORMATS.join(' or ')}`);
}

function parseProperties(defs: string[], flag = '-D'): Record<string, string> {
  const out: Record<string, string> = {};
  for (const d of defs) {
    const eq = d.indexOf('=');
    if (eq <= 0) throw new UsageError(`${flag}${d}: expected ${flag}name=value`);
    out[d.slice(0, eq)] = d.slice(eq + 1);
  }
  return out;
}

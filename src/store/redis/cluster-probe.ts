import { Redis } from 'ioredis';
import type { RedisEngineConfig, RedisNodeAddress } from '../../config/engine-config';
import { ConfigError } from '../../config/server-config-error';
import { formatAddress, nodeOptions } from './connection-options';

/**
 * The start-time checks of the redis engine (docs/scale-out.md, "Start checks"): before grid
 * serves from a Redis Cluster, the cluster must answer, be a cluster, run Redis 7 or later, serve
 * all 16384 hash slots and say `cluster_state:ok`. Each failure is a ConfigError of one sentence
 * (exit code 2). It also reads what `--durability power` needs from every master.
 */

export const HASH_SLOTS = 16_384;
const MIN_MAJOR_VERSION = 7;
const PROBE_TIMEOUT_MS = 3_000;

/** A master as the probe found it: what `--durability power` depends on. */
export interface MasterFacts {
  address: string;
  /** `yes`/`no`; undefined when it could not be read (see `unreadable`). */
  appendonly?: string;
  /** `always`/`everysec`/`no`; undefined when it could not be read. */
  appendfsync?: string;
  /** Replicas that are not failing. */
  replicas: number;
  /** Why the settings could not be read (CONFIG refused, node unreachable). */
  unreadable?: string;
}

export interface ClusterFacts {
  /** The configured node that answered. */
  seed: string;
  /** `redis_version` of that node. */
  version: string;
  masters: MasterFacts[];
}

/**
 * What the start checks read from the cluster (docs/scale-out.md, "Start checks").
 *
 * @public loaded on first use, through `require`, which the dead-export check cannot follow
 */
export async function probeRedisCluster(config: RedisEngineConfig, timeoutMs = PROBE_TIMEOUT_MS): Promise<ClusterFacts> {
  const { client, seed } = await connectToSeed(config, timeoutMs);
  const ask = async (...args: string[]): Promise<string> => {
    try {
      return String(await client.call(args[0], ...args.slice(1)));
    } catch (err) {
      throw new ConfigError(`${seed} failed during the start checks (${args.join(' ')}: ${(err as Error).message})`);
    }
  };
  try {
    const version = parseInfo(await ask('INFO', 'server')).redis_version ?? 'unknown';
    checkVersion(seed, version);
    if (parseInfo(await ask('INFO', 'cluster')).cluster_enabled !== '1') {
      throw new ConfigError(`${seed} is a Redis without cluster mode (cluster_enabled:0): the redis engine needs a Redis Cluster (cluster-enabled yes), see docs/scale-out.md`);
    }
    const info = parseInfo(await ask('CLUSTER', 'INFO'));
    const assigned = Number(info.cluster_slots_assigned);
    if (assigned !== HASH_SLOTS) {
      throw new ConfigError(`the cluster at ${seed} serves ${assigned} of ${HASH_SLOTS} hash slots: assign the missing ones (e.g. redis-cli --cluster fix ${seed})`);
    }
    if (info.cluster_state !== 'ok') {
      throw new ConfigError(`the cluster at ${seed} is in state ${info.cluster_state} (${info.cluster_slots_fail} slots failing, ${info.cluster_slots_pfail} possibly failing): start grid once CLUSTER INFO says cluster_state:ok`);
    }
    const nodes = parseClusterNodes(await ask('CLUSTER', 'NODES'));
    const masters = nodes.filter((n) => n.flags.includes('master') && !isFailing(n) && n.slotRanges > 0);
    const replicasOf = (id: string) => nodes.filter((n) => n.masterId === id && !isFailing(n)).length;
    // the node answering is `myself`: its own address may be blank (a node that never met another)
    const addressOf = (n: ClusterNode) => (n.flags.includes('myself') ? seed : n.address);
    return { seed, version, masters: await Promise.all(masters.map((m) => readMaster(config, addressOf(m), replicasOf(m.id), timeoutMs))) };
  } finally {
    client.disconnect();
  }
}

/** Redis 7 or later: sharded pub/sub, `CLUSTER SHARDS`, `PEXPIRETIME` and `EXPIRE … NX|XX|GT|LT` came with 7.0. */
export function checkVersion(seed: string, version: string): void {
  if (!(Number.parseInt(version, 10) >= MIN_MAJOR_VERSION)) {
    throw new ConfigError(`${seed} runs Redis ${version}; the redis engine needs Redis ${MIN_MAJOR_VERSION} or later`);
  }
}

/**
 * What `--durability power` (acknowledged = in the master's fsynced AOF and on a replica) lacks on
 * this cluster, one phrase per missing setting naming the node; empty when it can be given.
 */
export function powerDurabilityGaps(facts: ClusterFacts): string[] {
  return facts.masters.flatMap((m) => {
    if (m.unreadable !== undefined) return [`the settings of ${m.address} cannot be read (${m.unreadable})`];
    const gaps: string[] = [];
    if (m.appendonly !== 'yes') gaps.push(`appendonly is ${m.appendonly} on ${m.address} (power needs yes)`);
    if (m.appendfsync !== 'always') gaps.push(`appendfsync is ${m.appendfsync} on ${m.address} (power needs always)`);
    if (m.replicas < 1) gaps.push(`${m.address} has no replica (power needs one per master)`);
    return gaps;
  });
}

/** The first configured node that answers; a refused password stops at once (the others share it). */
async function connectToSeed(config: RedisEngineConfig, timeoutMs: number): Promise<{ client: Redis; seed: string }> {
  const tried: string[] = [];
  for (const node of config.nodes) {
    const seed = formatAddress(node);
    try {
      return { client: await connect(config, node, timeoutMs), seed };
    } catch (err) {
      const auth = authFailure(err as Error, seed);
      if (auth) throw new ConfigError(auth);
      tried.push(`${seed} (${reasonOf(err as Error & { code?: string }, timeoutMs)})`);
    }
  }
  throw new ConfigError(`no node of the Redis Cluster answers: tried ${tried.join(', ')}; check --redis (or engine.nodes) and that the cluster runs`);
}

/** A connection that has said hello (and authenticated); the error of the failed attempt otherwise. */
async function connect(config: RedisEngineConfig, node: RedisNodeAddress, timeoutMs: number): Promise<Redis> {
  const client = new Redis(nodeOptions(config, node, timeoutMs));
  let last: Error | undefined;
  client.on('error', (err: Error) => { last = err; }); // ioredis rejects connect() with "Connection is closed"; the cause comes here
  try {
    await client.connect();
    return client;
  } catch (err) {
    client.disconnect();
    throw last ?? err;
  }
}

function authFailure(err: Error, seed: string): string | undefined {
  const where = '--redis-password-file, engine.password-file (or engine.password) or GRID_REDIS_PASSWORD';
  if (/^NOAUTH\b/.test(err.message)) return `${seed} asks for a password: give it with ${where}`;
  if (/^WRONGPASS\b/.test(err.message)) return `${seed} refused the password: check ${where}`;
  return undefined;
}

function reasonOf(err: Error & { code?: string }, timeoutMs: number): string {
  switch (err.code) {
    case 'ECONNREFUSED': return 'connection refused';
    case 'ENOTFOUND': case 'EAI_AGAIN': return 'no such host';
    case 'ETIMEDOUT': return `no answer within ${timeoutMs / 1000} s`;
    case 'EHOSTUNREACH': case 'ENETUNREACH': return 'unreachable';
    default: return /timed? ?out/i.test(err.message) ? `no answer within ${timeoutMs / 1000} s` : err.message;
  }
}

async function readMaster(config: RedisEngineConfig, address: string, replicas: number, timeoutMs: number): Promise<MasterFacts> {
  const cut = address.lastIndexOf(':');
  const node = { host: address.slice(0, cut).replace(/^\[|\]$/g, ''), port: Number(address.slice(cut + 1)) };
  let client: Redis | undefined;
  try {
    client = await connect(config, node, timeoutMs);
    const [, appendonly] = await client.config('GET', 'appendonly') as string[];
    const [, appendfsync] = await client.config('GET', 'appendfsync') as string[];
    return { address, appendonly, appendfsync, replicas };
  } catch (err) {
    return { address, replicas, unreadable: reasonOf(err as Error & { code?: string }, timeoutMs) };
  } finally {
    client?.disconnect();
  }
}

/** `field:value` lines of INFO or CLUSTER INFO. */
function parseInfo(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const cut = line.indexOf(':');
    if (cut > 0 && !line.startsWith('#')) out[line.slice(0, cut)] = line.slice(cut + 1).trim();
  }
  return out;
}

interface ClusterNode {
  id: string;
  address: string;
  flags: string[];
  masterId?: string;
  slotRanges: number;
}

/** `CLUSTER NODES`: `<id> <ip:port@bus[,hostname]> <flags> <master|-> <ping> <pong> <epoch> <link> <slot>…`. */
function parseClusterNodes(text: string): ClusterNode[] {
  return text.split(/\r?\n/).filter((l) => l.trim() !== '').map((line) => {
    const [id, addr, flags, master, , , , , ...slots] = line.trim().split(' ');
    return {
      id, address: addr.split('@')[0], flags: flags.split(','),
      masterId: master === '-' ? undefined : master, slotRanges: slots.filter((s) => !s.startsWith('[')).length,
    };
  });
}

function isFailing(node: ClusterNode): boolean {
  return node.flags.includes('fail') || node.flags.includes('fail?') || node.flags.includes('noaddr');
}

import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ensurePrivateDir } from '../util/private-files';
import { UsageError } from './args';
import { CommandFailure } from './failure';
import { address, redisCli, type RedisNodeSpec, runningPid, sleep, startRedisNode, stopRedisNode, writePrivateFile } from './local-redis-node';

/**
 * A local Redis Cluster of 3 masters and 3 replicas on loopback (docs/scale-out.md, "A local
 * cluster"): what `grid redis-cluster` starts and stops, and what the redis engine's tests start
 * on free ports (test/support/redis-cluster.ts) — one mechanism for both.
 *
 * DIR (0700) holds `cluster.json` (the nodes' ports), `password` (0600, generated once) and one
 * directory per node (local-redis-node.ts).
 */

export interface LocalCluster {
  dir: string;
  nodes: RedisNodeSpec[];
  /** The file that holds the password (first line), for `--redis-password-file`. */
  passwordFile: string;
  password: string;
}

export const NODE_COUNT = 6;
export const DEFAULT_BASE_PORT = 7000;
const LAYOUT_FILE = 'cluster.json';
const PASSWORD_FILE = 'password';
const READY_TIMEOUT_MS = 30_000;
/** Redis's cluster bus listens on the client port + 10000 unless told otherwise. */
const BUS_OFFSET = 10_000;

/** Six nodes on `basePort` … `basePort + 5`, their buses 10000 above. */
export function layoutFrom(basePort: number): RedisNodeSpec[] {
  if (!Number.isInteger(basePort) || basePort < 1024 || basePort + NODE_COUNT - 1 + BUS_OFFSET > 65_535) {
    throw new UsageError(`--base-port ${basePort}: the six nodes and their cluster buses (port + 10000) need a port from 1024 to ${65_535 - BUS_OFFSET - NODE_COUNT + 1}`);
  }
  return Array.from({ length: NODE_COUNT }, (_, i) => ({ port: basePort + i, busPort: basePort + i + BUS_OFFSET }));
}

/** The cluster recorded in `dir`, or undefined when there is none. */
export function readCluster(dir: string): LocalCluster | undefined {
  const home = resolve(dir);
  let nodes: RedisNodeSpec[];
  try {
    nodes = (JSON.parse(readFileSync(join(home, LAYOUT_FILE), 'utf8')) as { nodes: RedisNodeSpec[] }).nodes;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new CommandFailure(`${join(home, LAYOUT_FILE)} cannot be read (${(err as Error).message}): remove ${home} to start afresh`);
  }
  const passwordFile = join(home, PASSWORD_FILE);
  return { dir: home, nodes, passwordFile, password: readFileSync(passwordFile, 'utf8').split('\n')[0] };
}

export interface StartOutcome {
  cluster: LocalCluster;
  /** Nodes started by this call (0: it was already running). */
  started: number;
  /** The cluster was created (slots assigned, replicas attached) by this call. */
  created: boolean;
}

/**
 * Starts the cluster in `dir`: the nodes that do not run (on their directories, so a stopped
 * cluster comes back with its data), then — the first time — `redis-cli --cluster create` with one
 * replica per master; returns once every node says `cluster_state:ok` and every master has a replica attached. Already running: nothing
 * is started. `nodes` is the layout of a new cluster (default: from port 7000); an existing one
 * keeps its own.
 */
export async function startLocalCluster(dir: string, nodes: RedisNodeSpec[] | undefined, opts: { detached: boolean }): Promise<StartOutcome> {
  const home = resolve(dir);
  ensurePrivateDir(home);
  const existing = readCluster(home);
  if (existing && nodes && !samePorts(existing.nodes, nodes)) {
    throw new CommandFailure(`${home} holds a cluster on ports ${portRange(existing.nodes)}, not ${portRange(nodes)}: leave out --base-port, or use another --dir`);
  }
  const cluster = existing ?? create(home, nodes ?? layoutFrom(DEFAULT_BASE_PORT));
  const down = cluster.nodes.filter((n) => runningPid(home, n.port) === undefined);
  try {
    await Promise.all(down.map((n) => startRedisNode(home, n, { cluster: true, password: cluster.password, detached: opts.detached })));
    const created = await isBlank(cluster) && (await createCluster(cluster), true);
    await waitUntilReady(cluster);
    return { cluster, started: down.length, created };
  } catch (err) {
    if (!existing) await stopLocalCluster(home, 'SIGKILL'); // a cluster that never came up leaves no process behind
    throw err;
  }
}

function create(home: string, nodes: RedisNodeSpec[]): LocalCluster {
  const passwordFile = join(home, PASSWORD_FILE);
  const password = randomBytes(24).toString('base64url');
  writePrivateFile(passwordFile, `${password}\n`);
  writePrivateFile(join(home, LAYOUT_FILE), JSON.stringify({ nodes }, null, 2) + '\n');
  return { dir: home, nodes, passwordFile, password };
}

/** No node has a slot yet: the cluster was never created. */
async function isBlank(cluster: LocalCluster): Promise<boolean> {
  const infos = await Promise.all(cluster.nodes.map((n) => clusterInfo(n.port, cluster.password)));
  return infos.every((info) => info.cluster_slots_assigned === '0' && info.cluster_known_nodes === '1');
}

async function createCluster(cluster: LocalCluster): Promise<void> {
  const addresses = cluster.nodes.map((n) => address(n.port));
  await redisCli(cluster.nodes[0].port, ['--cluster', 'create', ...addresses, '--cluster-replicas', '1', '--cluster-yes'], cluster.password, 60_000);
}

async function waitUntilReady(cluster: LocalCluster): Promise<void> {
  let last = '';
  for (const end = Date.now() + READY_TIMEOUT_MS; Date.now() < end; await sleep(100)) {
    const states = await Promise.all(cluster.nodes.map((n) => nodeReadiness(n.port, cluster.password)));
    if (states.every((s) => s === 'ok')) return;
    last = states.map((s, i) => `${address(cluster.nodes[i].port)} ${s}`).join(', ');
  }
  throw new CommandFailure(`the cluster in ${cluster.dir} is not ready after ${READY_TIMEOUT_MS / 1000} s (${last}); its nodes log to node-PORT/redis.log`);
}

/**
 * `ok` once the node sees the cluster ok and, for a master, a replica online (its first sync done),
 * for a replica, its link to its master up — replicas attach a moment after `cluster_state:ok`, and
 * a cluster said to be ready must be able to confirm writes on a replica (`--durability power`);
 * otherwise what is still missing.
 */
async function nodeReadiness(port: number, password?: string): Promise<string> {
  try {
    const { cluster_state: state } = await clusterInfo(port, password);
    if (state !== 'ok') return state ?? 'no cluster_state';
    const replication = fields(await redisCli(port, ['INFO', 'replication'], password));
    if (replication.role === 'master') {
      // attached is not enough: a replica still in its first full sync cannot acknowledge a WAIT yet
      const online = Object.entries(replication).some(([k, v]) => /^slave\d+$/.test(k) && v.includes('state=online'));
      return online ? 'ok' : 'master without a replica online yet';
    }
    return replication.master_link_status === 'up' ? 'ok' : 'replica not linked to its master yet';
  } catch (err) {
    return (err as Error).message;
  }
}

/** The `name:value` lines of an INFO or CLUSTER INFO answer. */
function fields(text: string): Record<string, string> {
  return Object.fromEntries(text.split(/\r?\n/).map((l) => l.split(':')).filter((kv) => kv.length === 2));
}

/** `CLUSTER INFO` of one node as its fields. */
export async function clusterInfo(port: number, password?: string): Promise<Record<string, string>> {
  return fields(await redisCli(port, ['CLUSTER', 'INFO'], password));
}

/** Stops every running node of the cluster in `dir` by its own PID; returns how many ran. */
export async function stopLocalCluster(dir: string, signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'): Promise<number> {
  const cluster = readCluster(dir);
  if (!cluster) return 0;
  const stopped = await Promise.all(cluster.nodes.map((n) => stopRedisNode(cluster.dir, n.port, signal)));
  return stopped.filter(Boolean).length;
}

/** One line of `grid redis-cluster status`. */
export interface NodeStatus {
  address: string;
  pid?: number;
  /** `master`, `replica`, `master,fail`, … as the cluster sees it (from a running node). */
  role?: string;
  /** A master's slot ranges, a replica's master. */
  detail?: string;
}

/** The nodes of the cluster in `dir`, and `cluster_state` as a running node sees it. */
export async function localClusterStatus(cluster: LocalCluster): Promise<{ nodes: NodeStatus[]; state?: string }> {
  const pids = cluster.nodes.map((n) => runningPid(cluster.dir, n.port));
  const live = cluster.nodes.find((_, i) => pids[i] !== undefined);
  const view = live ? await redisCli(live.port, ['CLUSTER', 'NODES'], cluster.password).then(parseClusterNodes, () => new Map<string, ClusterNodeLine>()) : new Map<string, ClusterNodeLine>();
  const state = live ? await clusterInfo(live.port, cluster.password).then((i) => i.cluster_state, () => undefined) : undefined;
  const byId = new Map([...view.values()].map((l) => [l.id, l]));
  const nodes = cluster.nodes.map((n, i) => {
    const line = view.get(address(n.port));
    const master = line?.masterId ? byId.get(line.masterId)?.address : undefined;
    const detail = line?.slots.length ? `slots ${line.slots.join(' ')}` : master ? `of ${master}` : undefined;
    return { address: address(n.port), pid: pids[i], role: line?.flags.replace('slave', 'replica'), detail };
  });
  return { nodes, state };
}

interface ClusterNodeLine {
  id: string;
  address: string;
  flags: string;
  masterId?: string;
  slots: string[];
}

/** `CLUSTER NODES`: `<id> <ip:port@bus> <flags> <master|-> <ping> <pong> <epoch> <link> <slot>…`, keyed by address. */
function parseClusterNodes(text: string): Map<string, ClusterNodeLine> {
  const out = new Map<string, ClusterNodeLine>();
  for (const line of text.split(/\r?\n/).filter(Boolean)) {
    const [id, addr, flags, master, , , , , ...slots] = line.split(' ');
    const nodeAddress = addr.split('@')[0];
    out.set(nodeAddress, { id, address: nodeAddress, flags: flags.replace('myself,', ''), masterId: master === '-' ? undefined : master, slots });
  }
  return out;
}

function samePorts(a: RedisNodeSpec[], b: RedisNodeSpec[]): boolean {
  return a.length === b.length && a.every((n, i) => n.port === b[i].port && n.busPort === b[i].busPort);
}

function portRange(nodes: RedisNodeSpec[]): string {
  return `${nodes[0].port}–${nodes[nodes.length - 1].port}`;
}

import { resolve } from 'node:path';
import { parse, subcommand, UsageError } from './args';
import { CommandFailure, EXIT } from './failure';
import { layoutFrom, localClusterStatus, readCluster, startLocalCluster, stopLocalCluster } from './local-redis-cluster';
import { address } from './local-redis-node';
import { printText } from './output';
import { USAGE } from './usage';

const SUBCOMMANDS = ['start', 'stop', 'status'];
const DEFAULT_DIR = './data/redis-cluster';

/**
 * `grid redis-cluster start|stop|status` (also `npm run redis:cluster -- …`): a local Redis
 * Cluster to try the redis engine on (docs/scale-out.md, "A local cluster").
 */
export async function runRedisCluster(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, { dir: { type: 'string' }, 'base-port': { type: 'string' } });
  if (values.help) {
    process.stdout.write(USAGE['redis-cluster'] + '\n');
    return 0;
  }
  const { sub } = subcommand('redis-cluster', positionals, SUBCOMMANDS, () => undefined);
  const dir = resolve((values.dir as string | undefined) ?? DEFAULT_DIR);
  const basePort = values['base-port'] as string | undefined;
  if (basePort !== undefined && sub !== 'start') throw new UsageError('--base-port applies to start only');
  switch (sub) {
    case 'start': return start(dir, basePort === undefined ? undefined : parseBasePort(basePort));
    case 'stop': return stop(dir);
    default: return status(dir);
  }
}

function parseBasePort(text: string): number {
  if (!/^\d{1,5}$/.test(text)) throw new UsageError(`--base-port '${text}' is not a port number`);
  return Number(text);
}

async function start(dir: string, basePort: number | undefined): Promise<number> {
  const { cluster, started, created } = await startLocalCluster(dir, basePort === undefined ? undefined : layoutFrom(basePort), { detached: true });
  const seeds = cluster.nodes.slice(0, 3).map((n) => address(n.port)).join(',');
  const what = started === 0 ? 'is already running' : created ? 'created and running' : `running again (${started} of ${cluster.nodes.length} nodes started)`;
  printText([
    `Redis Cluster in ${cluster.dir} ${what}: 3 masters, 3 replicas on ${address(cluster.nodes[0].port)}–${cluster.nodes[cluster.nodes.length - 1].port}`,
    `seeds: ${seeds}`,
    `password: in ${cluster.passwordFile}`,
    `grid start --engine redis --redis ${seeds} --redis-password-file ${cluster.passwordFile}`,
  ].join('\n'));
  return 0;
}

async function stop(dir: string): Promise<number> {
  if (!readCluster(dir)) throw new CommandFailure(`there is no Redis Cluster in ${dir}`);
  const stopped = await stopLocalCluster(dir);
  printText(stopped ? `stopped ${stopped} Redis nodes of ${dir}` : `the Redis Cluster in ${dir} was not running`);
  return 0;
}

async function status(dir: string): Promise<number> {
  const cluster = readCluster(dir);
  if (!cluster) throw new CommandFailure(`there is no Redis Cluster in ${dir} ('grid redis-cluster start' makes one)`);
  const { nodes, state } = await localClusterStatus(cluster);
  const rows = nodes.map((n) => [n.address, n.pid === undefined ? 'not running' : `pid ${n.pid}`, n.role ?? '', n.detail ?? ''].join('  ').trimEnd());
  printText([...rows, `cluster_state: ${state ?? 'no node running'}`].join('\n'));
  return state === 'ok' && nodes.every((n) => n.pid !== undefined) ? 0 : EXIT.failed;
}

import { rmSync } from 'node:fs';
import { NODE_COUNT, startLocalCluster, stopLocalCluster } from '../../src/cli/local-redis-cluster';
import { address, freeNodePorts, startRedisNode, stopRedisNode } from '../../src/cli/local-redis-node';
import { type EngineOverrides, parseRedisNodes } from '../../src/config/engine-config';
import type { Client } from './client';
import { startTestServer, tempDir, type TestServer } from './server';
import { needTool } from './tools';
import { flushCluster, sharedRedisCluster, type StartedCluster } from './shared-redis-cluster';
import { type ServerProcess, spawnServer, waitForExit } from './process';

/**
 * Throwaway Redis for a test file, started with the same code as `grid redis-cluster`
 * (src/cli/local-redis-cluster.ts) on free loopback ports in a temp dir. Skips locally without
 * redis-server; fails under CI (tools.ts).
 *
 *   const redis = throwawayCluster();   // in a describe: its before gets it ready
 *   … redis.cluster.nodes, redis.seeds, redis.cluster.passwordFile …
 *
 * By default the describe borrows the run's shared cluster (shared-redis-cluster.ts), emptied for
 * it; a describe that kills, stops or reshards Redis nodes asks for `{ own: true }`: a cluster of
 * its own, killed (SIGKILL, by PID) and removed after.
 */
export type ThrowawayCluster = StartedCluster;

export function needRedis(ctx: Mocha.Context): void {
  needTool(ctx, 'redis-server', 'a throwaway Redis Cluster');
  needTool(ctx, 'redis-cli', 'a throwaway Redis Cluster');
}

/** A 3-master + 3-replica cluster for the enclosing `describe` (mocha before/after hooks). */
export function throwawayCluster(opts: { own?: boolean } = {}): ThrowawayCluster {
  const handle = {} as ThrowawayCluster;
  let dir: string | undefined;
  before(async function () {
    this.timeout(60_000);
    needRedis(this);
    if (!opts.own) {
      Object.assign(handle, await sharedRedisCluster());
      await flushCluster(handle);
      return;
    }
    dir = tempDir('grid-redis-');
    const { cluster } = await startLocalCluster(dir, await freeNodePorts(NODE_COUNT), { detached: false });
    handle.cluster = cluster;
    handle.seeds = cluster.nodes.slice(0, 3).map((n) => address(n.port)).join(',');
  });
  after(async function () {
    this.timeout(30_000);
    if (!dir) return;
    await stopLocalCluster(dir, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });
  return handle;
}

export interface ThrowawayNode {
  dir: string;
  port: number;
  stop(): Promise<void>;
}

/** One redis-server on a free port: a plain Redis, or a cluster node with no slots and no peers. */
export async function throwawayNode(opts: { cluster: boolean; password?: string }): Promise<ThrowawayNode> {
  const dir = tempDir('grid-redis-node-');
  const [spec] = await freeNodePorts(1);
  await startRedisNode(dir, spec, { ...opts, detached: false });
  return {
    dir,
    port: spec.port,
    async stop() {
      await stopRedisNode(dir, spec.port, 'SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Two grid nodes over one cluster, and an admin client of each. */
export interface TwoNodes {
  a: TestServer;
  b: TestServer;
  adminA: Client;
  adminB: Client;
}

/** The engine settings of a grid node on `redis`. */
export function redisEngine(redis: ThrowawayCluster): EngineOverrides {
  return { type: 'redis', nodes: parseRedisNodes(redis.seeds), passwordFile: redis.cluster.passwordFile };
}

/** Starts two grid nodes on `redis` under `--durability power` (the caller closes them). */
export async function startTwoNodes(redis: ThrowawayCluster): Promise<TwoNodes> {
  const engine = redisEngine(redis);
  const a = await startTestServer({ engine, durability: 'power' });
  const b = await startTestServer({ engine, durability: 'power' });
  return { a, b, adminA: a.as('admin'), adminB: b.as('admin') };
}

/** `bin/grid start` processes of a describe on a throwaway cluster (`gridProcesses`). */
export interface GridProcesses {
  /** The engine flags of a node on the cluster. */
  engineArgs(): string[];
  /** A fresh data dir, removed after the describe. */
  dataDir(): string;
  /** A node named `name`, with the user `admin`/`admin-pw` (the users live in the cluster: every node knows them). */
  start(name: string): Promise<ServerProcess>;
}

/** The user `GridProcesses.start` gives its nodes. */
export const PROCESS_ADMIN = { user: 'admin', password: 'admin-pw' };

/**
 * Grid nodes as processes over `redis()` for the enclosing describe, killed (SIGKILL) and their
 * data dirs removed by an `after` hook that first runs `before` (e.g. closing an in-process node).
 * Call it before `throwawayCluster()`: `after` hooks run in declaration order, so the nodes go
 * before the cluster does.
 */
export function gridProcesses(redis: () => ThrowawayCluster, before?: () => Promise<void>): GridProcesses {
  const processes: ServerProcess[] = [];
  const dirs: string[] = [];
  after(async () => {
    await before?.();
    for (const p of processes) {
      p.child.kill('SIGKILL');
      await waitForExit(p.child);
    }
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  const engineArgs = () => ['--engine', 'redis', '--redis', redis().seeds, '--redis-password-file', redis().cluster.passwordFile];
  const dataDir = () => {
    const dir = tempDir('grid-node-');
    dirs.push(dir);
    return dir;
  };
  return {
    engineArgs, dataDir,
    async start(name) {
      const p = await spawnServer(['--data', dataDir(), ...engineArgs(), '--node-name', name], { APP_USER: PROCESS_ADMIN.user, APP_PASS: PROCESS_ADMIN.password });
      processes.push(p);
      return p;
    },
  };
}

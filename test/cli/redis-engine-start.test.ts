import { expect } from 'chai';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { address, freeNodePorts, redisCli } from '../../src/cli/local-redis-node';
import { grid, type GridRun } from '../support/cli';
import { needRedis, throwawayCluster, type ThrowawayNode, throwawayNode } from '../support/redis-cluster';
import { tempDir } from '../support/server';
import { eventually } from '../support/poll';
import { spawnServer, waitForExit } from '../support/process';

// `grid start --engine redis` runs the engine's start checks (docs/scale-out.md, "Start checks")
// against real Redis processes; every refusal is one line and exit code 2, and a cluster that
// passes them is served.

const powerRefused = (seed: string, gaps: string) =>
  `grid: The cluster at ${seed} cannot give --durability power: ${gaps}; fix that, or start with --durability process (docs/scale-out.md, Durability)\n`;

describe('grid start --engine redis: the start checks', function () {
  this.timeout(60_000);
  let data: string;
  before(function () {
    needRedis(this);
    data = tempDir('grid-redis-start-');
  });
  after(() => { if (data) rmSync(data, { recursive: true, force: true }); });

  const start = (args: string[], env: Record<string, string> = {}): Promise<GridRun> =>
    grid(['start', '--data', data, '--port', '0', '--engine', 'redis', ...args], { env, timeoutMs: 30_000 });

  /** Starts the server as a process, checks that it answers, and stops it. */
  async function expectServed(args: string[], env: Record<string, string> = {}): Promise<void> {
    const server = await spawnServer(['--data', data, '--engine', 'redis', '--no-auth', ...args], env);
    try {
      const r = await fetch(`${server.url}/rest/v2/caches`);
      expect(r.status).to.equal(200);
      expect(await r.json()).to.include('___protobuf_metadata');
    } finally {
      server.child.kill('SIGTERM');
      expect(await waitForExit(server.child)).to.equal(0);
    }
  }

  function expectRefusal(r: GridRun, stderr: string | RegExp): void {
    if (typeof stderr === 'string') expect(r.stderr).to.equal(stderr);
    else expect(r.stderr).to.match(stderr);
    expect(r.code).to.equal(2);
    expect(r.stdout).to.equal('');
  }

  it('names every address it tried when nothing listens there', async () => {
    const [a, b] = await freeNodePorts(1).then(([n]) => [n.port, n.busPort]);
    expectRefusal(await start(['--redis', `127.0.0.1:${a},localhost:${b}`]),
      `grid: no node of the Redis Cluster answers: tried 127.0.0.1:${a} (connection refused), localhost:${b} (connection refused); check --redis (or engine.nodes) and that the cluster runs\n`);
  });

  describe('on a single Redis', () => {
    let node: ThrowawayNode | undefined;
    afterEach(async () => { await node?.stop(); node = undefined; });

    it('refuses a Redis without cluster mode', async () => {
      node = await throwawayNode({ cluster: false });
      expectRefusal(await start(['--redis', address(node.port)]),
        `grid: 127.0.0.1:${node.port} is a Redis without cluster mode (cluster_enabled:0): the redis engine needs a Redis Cluster (cluster-enabled yes), see docs/scale-out.md\n`);
    });

    it('refuses a cluster that serves only some of the hash slots, naming how many', async () => {
      node = await throwawayNode({ cluster: true });
      await redisCli(node.port, ['CLUSTER', 'ADDSLOTSRANGE', '0', '8191']);
      expectRefusal(await start(['--redis', address(node.port)]),
        `grid: the cluster at 127.0.0.1:${node.port} serves 8192 of 16384 hash slots: assign the missing ones (e.g. redis-cli --cluster fix 127.0.0.1:${node.port})\n`);
    });

    it('refuses --durability power on a one-node cluster, naming what it lacks, and serves with --durability process', async () => {
      node = await throwawayNode({ cluster: true });
      await redisCli(node.port, ['CLUSTER', 'ADDSLOTSRANGE', '0', '16383']);
      await redisCli(node.port, ['CONFIG', 'SET', 'appendfsync', 'everysec']);
      // a node that never met another does not know its own address (CLUSTER SLOTS says ''): tell it
      await redisCli(node.port, ['CONFIG', 'SET', 'cluster-announce-ip', '127.0.0.1']);
      const seed = `127.0.0.1:${node.port}`;
      // cluster_state turns ok once the node has looked at its slots (within a second)
      let r = await start(['--redis', seed]);
      for (let i = 0; i < 20 && /is in state fail/.test(r.stderr); i++) r = await start(['--redis', seed]);
      expectRefusal(r, powerRefused(seed, `appendfsync is everysec on ${seed} (power needs always), ${seed} has no replica (power needs one per master)`));
      await expectServed(['--redis', seed, '--durability', 'process']);
    });
  });

  describe('on a 3-master + 3-replica cluster with a password', () => {
    const redis = throwawayCluster({ own: true }); // it breaks the cluster;

    it('serves from the healthy cluster with --durability power', async () => {
      await expectServed(['--redis', redis.seeds, '--redis-password-file', redis.cluster.passwordFile]);
    });

    it('skips a seed that does not answer and connects through the next', async () => {
      const [dead] = await freeNodePorts(1);
      await expectServed(['--redis', `127.0.0.1:${dead.port},${redis.seeds}`, '--redis-password-file', redis.cluster.passwordFile]);
    });

    it('takes the password from GRID_REDIS_PASSWORD, and from the configuration file', async () => {
      await expectServed(['--redis', redis.seeds], { GRID_REDIS_PASSWORD: redis.cluster.password });
      const config = join(data, 'redis.yaml');
      writeFileSync(config, `engine:\n  type: redis\n  nodes: [${redis.seeds}]\n  password-file: ${redis.cluster.passwordFile}\n`);
      const server = await spawnServer(['--data', data, '--no-auth', '--config', config]);
      server.child.kill('SIGTERM');
      expect(await waitForExit(server.child)).to.equal(0);
    });

    it('says the cluster asks for a password when none is given, and when the password is wrong', async () => {
      const seed = redis.seeds.split(',')[0];
      const where = '--redis-password-file, engine.password-file (or engine.password) or GRID_REDIS_PASSWORD';
      expectRefusal(await start(['--redis', seed]), `grid: ${seed} asks for a password: give it with ${where}\n`);
      const wrong = join(data, 'wrong-password');
      writeFileSync(wrong, 'not-the-password\n');
      expectRefusal(await start(['--redis', seed, '--redis-password-file', wrong]), `grid: ${seed} refused the password: check ${where}\n`);
    });

    it('names a master whose appendfsync --durability power cannot use', async () => {
      const [first] = redis.cluster.nodes;
      await redisCli(first.port, ['CONFIG', 'SET', 'appendfsync', 'everysec'], redis.cluster.password);
      try {
        const r = await start(['--redis', redis.seeds, '--redis-password-file', redis.cluster.passwordFile]);
        expectRefusal(r, powerRefused(redis.seeds.split(',')[0], `appendfsync is everysec on ${address(first.port)} (power needs always)`));
      } finally {
        await redisCli(first.port, ['CONFIG', 'SET', 'appendfsync', 'always'], redis.cluster.password);
      }
    });

    // last: it leaves the cluster broken
    it('refuses a cluster whose state is fail: a master and its replica are gone', async () => {
      const [master] = redis.cluster.nodes;
      const replicaOf = async (port: number) => /master_port:(\d+)/.exec(await redisCli(port, ['INFO', 'replication'], redis.cluster.password))?.[1];
      const replica = (await Promise.all(redis.cluster.nodes.map(async (n) => ((await replicaOf(n.port)) === String(master.port) ? n : undefined)))).find(Boolean)!;
      await redisCli(master.port, ['SHUTDOWN', 'NOSAVE'], redis.cluster.password).catch(() => undefined);
      await redisCli(replica.port, ['SHUTDOWN', 'NOSAVE'], redis.cluster.password).catch(() => undefined);
      const seed = address(redis.cluster.nodes[1].port);
      // the others notice within the node timeout (2 s)
      await eventually(async () => /cluster_state:fail/.test(await redisCli(redis.cluster.nodes[1].port, ['CLUSTER', 'INFO'], redis.cluster.password)), 20_000, 'the cluster to fail');
      const r = await start(['--redis', seed, '--redis-password-file', redis.cluster.passwordFile]);
      expectRefusal(r, new RegExp(`^grid: the cluster at ${seed} is in state fail \\(\\d+ slots failing, \\d+ possibly failing\\): start grid once CLUSTER INFO says cluster_state:ok\\n$`));
    });
  });
});

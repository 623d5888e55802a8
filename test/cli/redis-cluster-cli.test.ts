import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { grid } from '../support/cli';
import { needRedis } from '../support/redis-cluster';
import { tempDir } from '../support/server';

/** A base port whose six ports and their buses (+10000) were free a moment ago. */
async function freeBasePort(): Promise<number> {
  const free = (port: number) => new Promise<boolean>((resolve) => {
    const s = createServer().once('error', () => resolve(false)).listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 20_000 + Math.floor(Math.random() * 9_000);
    const ports = [0, 1, 2, 3, 4, 5].flatMap((i) => [base + i, base + i + 10_000]);
    if ((await Promise.all(ports.map(free))).every(Boolean)) return base;
  }
  throw new Error('no free range of ports found');
}

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);

describe('grid redis-cluster', function () {
  this.timeout(60_000);
  let dir: string;
  let base: number;

  before(async function () {
    needRedis(this);
    dir = join(tempDir('grid-redis-cli-'), 'cluster');
    base = await freeBasePort();
  });
  after(async () => {
    if (!dir) return;
    await grid(['redis-cluster', 'stop', '--dir', dir], { timeoutMs: 30_000 });
    rmSync(join(dir, '..'), { recursive: true, force: true });
  });

  it('start creates 3 masters and 3 replicas, prints the seeds and the grid command, and keeps its files private', async () => {
    const r = await grid(['redis-cluster', 'start', '--dir', dir, '--base-port', String(base)], { timeoutMs: 60_000 });
    expect(r.stderr).to.equal('');
    expect(r.code).to.equal(0);
    const seeds = `127.0.0.1:${base},127.0.0.1:${base + 1},127.0.0.1:${base + 2}`;
    expect(r.stdout).to.equal([
      `Redis Cluster in ${dir} created and running: 3 masters, 3 replicas on 127.0.0.1:${base}–${base + 5}`,
      `seeds: ${seeds}`,
      `password: in ${dir}/password`,
      `grid start --engine redis --redis ${seeds} --redis-password-file ${dir}/password`,
      '',
    ].join('\n'));
    expect(mode(dir)).to.equal('700');
    expect(mode(join(dir, 'password'))).to.equal('600');
    for (const node of readdirSync(dir).filter((n) => n.startsWith('node-'))) {
      expect(mode(join(dir, node)), node).to.equal('700');
      expect(mode(join(dir, node, 'redis.conf')), node).to.equal('600');
    }
  });

  it('keeps the password off every node\'s command line', () => {
    const password = readFileSync(join(dir, 'password'), 'utf8').trim();
    for (let i = 0; i < 6; i++) {
      const pid = readFileSync(join(dir, `node-${base + i}`, 'redis.pid'), 'utf8').trim();
      expect(readFileSync(`/proc/${pid}/cmdline`, 'utf8')).to.not.include(password);
    }
  });

  it('status shows each node with its PID and role, and cluster_state ok', async () => {
    const r = await grid(['redis-cluster', 'status', '--dir', dir]);
    expect(r.code).to.equal(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines.filter((l) => / master +slots \d+-\d+$/.test(l))).to.have.length(3);
    expect(lines.filter((l) => / replica +of 127\.0\.0\.1:\d+$/.test(l))).to.have.length(3);
    expect(lines.slice(0, 6).every((l) => /^127\.0\.0\.1:\d+ +pid \d+ /.test(l))).to.equal(true);
    expect(lines[6]).to.equal('cluster_state: ok');
  });

  it('start again says it is already running and starts nothing', async () => {
    const pids = () => [0, 1, 2, 3, 4, 5].map((i) => readFileSync(join(dir, `node-${base + i}`, 'redis.pid'), 'utf8'));
    const before = pids();
    const r = await grid(['redis-cluster', 'start', '--dir', dir]);
    expect(r.code).to.equal(0);
    expect(r.stdout.split('\n')[0]).to.equal(`Redis Cluster in ${dir} is already running: 3 masters, 3 replicas on 127.0.0.1:${base}–${base + 5}`);
    expect(pids()).to.deep.equal(before);
  });

  it('start with another --base-port on the same directory names the ports it holds', async () => {
    const r = await grid(['redis-cluster', 'start', '--dir', dir, '--base-port', String(base + 100)]);
    expect(r.code).to.equal(1);
    expect(r.stderr).to.equal(`grid: ${dir} holds a cluster on ports ${base}–${base + 5}, not ${base + 100}–${base + 105}: leave out --base-port, or use another --dir\n`);
  });

  it('stop stops each node by its PID; status then says not running and exits 1; start brings it back', async () => {
    const stop = await grid(['redis-cluster', 'stop', '--dir', dir], { timeoutMs: 30_000 });
    expect(stop.stdout).to.equal(`stopped 6 Redis nodes of ${dir}\n`);
    const status = await grid(['redis-cluster', 'status', '--dir', dir]);
    expect(status.code).to.equal(1);
    expect(status.stdout).to.equal([0, 1, 2, 3, 4, 5].map((i) => `127.0.0.1:${base + i}  not running\n`).join('') + 'cluster_state: no node running\n');
    const again = await grid(['redis-cluster', 'start', '--dir', dir], { timeoutMs: 60_000 });
    expect(again.code).to.equal(0);
    expect(again.stdout.split('\n')[0]).to.equal(`Redis Cluster in ${dir} running again (6 of 6 nodes started): 3 masters, 3 replicas on 127.0.0.1:${base}–${base + 5}`);
  });

  it('refuses a bad --base-port, --base-port on stop and an unknown subcommand as usage errors', async () => {
    const low = await grid(['redis-cluster', 'start', '--dir', dir, '--base-port', '80']);
    expect(low.code).to.equal(2);
    expect(low.stderr.split('\n')[0]).to.equal('grid: --base-port 80: the six nodes and their cluster buses (port + 10000) need a port from 1024 to 55530');
    const word = await grid(['redis-cluster', 'start', '--dir', dir, '--base-port', 'seven']);
    expect(word.code).to.equal(2);
    expect(word.stderr.split('\n')[0]).to.equal("grid: --base-port 'seven' is not a port number");
    const onStop = await grid(['redis-cluster', 'stop', '--dir', dir, '--base-port', '7000']);
    expect(onStop.code).to.equal(2);
    expect(onStop.stderr.split('\n')[0]).to.equal('grid: --base-port applies to start only');
    const unknown = await grid(['redis-cluster', 'stat']);
    expect(unknown.code).to.equal(2);
    expect(unknown.stderr.split('\n')[0]).to.equal("grid: unknown command 'redis-cluster stat': did you mean 'redis-cluster start'?");
  });

  it('status and stop of a directory without a cluster say so', async () => {
    const empty = join(dir, '..', 'none');
    const status = await grid(['redis-cluster', 'status', '--dir', empty]);
    expect(status.code).to.equal(1);
    expect(status.stderr).to.equal(`grid: there is no Redis Cluster in ${empty} ('grid redis-cluster start' makes one)\n`);
    const stop = await grid(['redis-cluster', 'stop', '--dir', empty]);
    expect(stop.code).to.equal(1);
    expect(stop.stderr).to.equal(`grid: there is no Redis Cluster in ${empty}\n`);
  });

  it('stop signals a PID only while it is that node\'s redis-server: a PID reused by another process is left alone', async () => {
    const other = join(dir, '..', 'reused');
    const sleeper = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      mkdirSync(join(other, `node-${base}`), { recursive: true });
      writeFileSync(join(other, 'cluster.json'), JSON.stringify({ nodes: [{ port: base, busPort: base + 10_000 }] }));
      writeFileSync(join(other, 'password'), 'pw\n');
      writeFileSync(join(other, `node-${base}`, 'redis.pid'), `${sleeper.pid}\n`);
      const stop = await grid(['redis-cluster', 'stop', '--dir', other]);
      expect(stop.stdout).to.equal(`the Redis Cluster in ${other} was not running\n`);
      expect(readFileSync(`/proc/${sleeper.pid}/cmdline`, 'utf8')).to.equal('sleep\u000030\u0000'); // alive, not a zombie
    } finally {
      sleeper.kill();
    }
  });
});

'use strict';
// What bench/run.js and bench/large.js share: servers started pinned to one core with their
// standard output going to a file (a pipe the bench does not drain would stall the server's
// logger), wrk and h2load pinned to the other core, and per-run figures: req/s, p50/p99, the
// server's CPU time per request (from /proc, immune to how busy the rest of the machine is) and RSS.
const { spawn, spawnSync } = require('node:child_process');
const { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const { cpus, tmpdir } = require('node:os');
const { join } = require('node:path');

const ROOT = join(__dirname, '..');
const USER = 'bench';
const PASS = 'bench-pw';
const AUTH = 'Basic ' + Buffer.from(`${USER}:${PASS}`).toString('base64');
const TMP = mkdtempSync(join(tmpdir(), 'grid-bench-'));
if (!process.env.BENCH_KEEP) process.on("exit", () => rmSync(TMP, { recursive: true, force: true }));

function has(cmd, args = ['--version']) {
  return spawnSync(cmd, args, { stdio: 'ignore' }).error === undefined;
}

/** Server on core 0, load generator on core 1, when there are two cores and taskset. */
const PINNED = cpus().length >= 2 && has('taskset', ['-V']);
const onCore = (core, cmd, args) => (PINNED ? ['taskset', ['-c', String(core), cmd, ...args]] : [cmd, args]);

let seq = 0;

/** fetch() loaded and used once: a refused connection to a port nobody listens on. */
const clientReady = fetch('http://127.0.0.1:9/').then(() => undefined, () => undefined);

/** Starts `node args…` (or `program args…`) on the server core (anywhere, with `pinned: false`); resolves once it printed `listening on <url>`. */
function startServer(args, env = {}, program = process.execPath, { pinned = true } = {}) {
  const out = join(TMP, `server-${seq++}.out`);
  const fd = openSync(out, 'w');
  const t0 = process.hrtime.bigint();
  const [cmd, argv] = pinned ? onCore(0, program, args) : [program, args];
  const child = spawn(cmd, argv, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', fd, 'inherit'] });
  closeSync(fd);
  return new Promise((resolve, reject) => {
    const poll = setInterval(() => {
      const m = /listening on (http:\/\/[^\s]+)/.exec(readFileSync(out, 'utf8'));
      if (!m) return;
      clearInterval(poll);
      child.removeAllListeners('exit');
      resolve({ child, pid: child.pid, url: m[1], startedNs: t0, stop: () => stop(child) });
    }, 1);
    child.once('exit', (code) => {
      clearInterval(poll);
      reject(new Error(`${args.join(' ')} exited with ${code}: ${readFileSync(out, 'utf8').slice(-2000)}`));
    });
  });
}

function stop(child) {
  if (child.exitCode !== null) return Promise.resolve();
  child.kill('SIGTERM');
  return new Promise((resolve) => child.once('exit', resolve));
}

/**
 * grid with `--durability power`, authentication on (Basic, the bench user), a data dir of its own
 * unless given; run as `bin/grid start`, as a user runs `grid start`, so with the process settings
 * its first line sets (docs/configuration.md, Process settings).
 */
function startGrid(dataDir = mkdtempSync(join(TMP, 'data-')), extra = []) {
  return startServer(['start', '--port', '0', '--data', dataDir, '--durability', 'power', ...extra], { APP_USER: USER, APP_PASS: PASS }, join(ROOT, 'bin', 'grid'))
    .then((s) => ({ ...s, dataDir }));
}

/**
 * Milliseconds from spawning to the first 200 of `path`. The measuring client's own first use
 * (loading fetch's HTTP client, ~30-100 ms) is paid once per bench process, before anything is
 * timed, so that it lands in no figure.
 */
async function firstAnswerMs(server, path) {
  await clientReady;
  for (;;) {
    try {
      const r = await fetch(server.url + path);
      if (r.status === 200) return Number(process.hrtime.bigint() - server.startedNs) / 1e6;
    } catch { /* not yet */ }
    await new Promise((r) => setTimeout(r, 1));
  }
}

/** User and system CPU time of a process, ms. */
function cpuMs(pid) {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(f[11]) + Number(f[12])) * 1000) / 100; // clock ticks of 10 ms
}

function rssMb(pid) {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
}

function toMs(text) {
  const m = /([\d.]+)(us|ms|s)/.exec(text);
  const n = Number(m[1]);
  return m[2] === 'us' ? n / 1000 : m[2] === 's' ? n * 1000 : n;
}

/**
 * One wrk run (`-t1 -cN --latency`) against `server`, with bench/wrk/request.lua building the
 * requests: method, path prefix, random key among `keys`, Basic auth, a value of `valueBytes`.
 */
function wrk(server, { method = 'GET', path = '/', keys = 0, auth, valueBytes = 100, connections = 32, seconds }) {
  const env = { ...process.env, BENCH_METHOD: method, BENCH_PATH: path, BENCH_KEYS: String(keys), BENCH_VALUE_BYTES: String(valueBytes) };
  if (auth) env.BENCH_AUTH = auth;
  const before = cpuMs(server.pid);
  const [cmd, argv] = onCore(1, 'wrk', ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency', '-s', join(__dirname, 'wrk', 'request.lua'), server.url]);
  const run = spawnSync(cmd, argv, { env, maxBuffer: 1 << 20 });
  if (run.status !== 0) throw new Error(`wrk failed: ${run.stderr}`);
  const out = run.stdout.toString();
  const cpu = cpuMs(server.pid) - before;
  const requests = Number(/(\d+) requests in/.exec(out)[1]);
  const pct = (p) => toMs(new RegExp(`\\s${p}(?:\\.0+)?%\\s+([\\d.]+\\w+)`).exec(out)[1]);
  const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(out);
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)[1]), p50: pct(50), p99: pct(99), requests,
    cpuUs: (cpu * 1000) / requests,
    errors: (non2xx ? Number(non2xx[1]) : 0) + (socketErrors ? socketErrors.slice(1).reduce((a, b) => a + Number(b), 0) : 0),
  };
}

/** h2load over h2c prior knowledge, shaped like the wrk runs (N connections, one stream each). */
function h2load(server, { method = 'GET', path = '/', keys = 0, auth, valueBytes = 100, connections = 32, seconds }) {
  const dir = mkdtempSync(join(TMP, 'h2load-'));
  const uris = join(dir, 'uris');
  writeFileSync(uris, Array.from({ length: Math.max(keys, 1) }, (_, i) => server.url + path + (keys ? `k${i}` : '')).join('\n') + '\n');
  const args = ['-c', String(connections), '-m', '1', '-D', String(seconds), '-i', uris, '-H', 'content-type: text/plain', '-H', 'accept-encoding: identity'];
  if (auth) args.push('-H', `authorization: ${auth}`);
  if (method !== 'GET') {
    writeFileSync(join(dir, 'value'), 'v'.repeat(valueBytes));
    args.push('-H', `:method: ${method}`, '-d', join(dir, 'value'));
  }
  const before = cpuMs(server.pid);
  const [cmd, argv] = onCore(1, 'h2load', args);
  const run = spawnSync(cmd, argv, { maxBuffer: 1 << 20 });
  const cpu = cpuMs(server.pid) - before;
  rmSync(dir, { recursive: true, force: true });
  const out = run.stdout.toString();
  const done = /requests: \d+ total, \d+ started, (\d+) done, \d+ succeeded, (\d+) failed, (\d+) errored/.exec(out);
  return {
    rps: Number(/finished in [\d.]+\w+, ([\d.]+) req\/s/.exec(out)[1]),
    p50: toMs(/time for request:\s+\S+\s+\S+\s+(\S+)/.exec(out)[1]), p99: NaN, mean: true,
    requests: Number(done[1]), cpuUs: (cpu * 1000) / Math.max(Number(done[1]), 1), errors: Number(done[2]) + Number(done[3]),
  };
}

async function request(url, method, path, body, headers = {}) {
  const r = await fetch(url + path, { method, body, headers: { Authorization: AUTH, ...headers } });
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`);
  return r;
}

/** Writes `count` entries `k0…` of `valueBytes`, 64 requests at a time. */
async function fill(url, cache, count, valueBytes = 100) {
  const value = 'v'.repeat(valueBytes);
  for (let i = 0; i < count; i += 64) {
    await Promise.all(Array.from({ length: Math.min(64, count - i) }, (_, j) => request(url, 'PUT', `/rest/v2/caches/${cache}/k${i + j}`, value)));
  }
}

function median(values) {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** The run of a row whose req/s is the median of its rounds (its latencies go with it). */
function medianRun(runs) {
  const m = median(runs.map((r) => r.rps));
  return { ...runs.reduce((a, b) => (Math.abs(b.rps - m) < Math.abs(a.rps - m) ? b : a)), rps: m, cpuUs: median(runs.map((r) => r.cpuUs)) };
}

function loadAverage() {
  return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
}

/** The table: req/s, p50, p99, server CPU per request, and the ratio to the row named `base`. */
function printTable(rows, baseOf) {
  console.log('target'.padEnd(42) + 'req/s'.padStart(9) + 'p50 ms'.padStart(8) + 'p99 ms'.padStart(8) + 'cpu µs'.padStart(8) + 'ratio'.padStart(7) + '  vs');
  for (const r of rows) {
    const base = baseOf(r);
    const p50 = r.p50.toFixed(2) + (r.mean ? '*' : '');
    const p99 = Number.isNaN(r.p99) ? '-' : r.p99.toFixed(2);
    const ratio = base && base !== r ? (r.rps / base.rps).toFixed(2) : '';
    console.log(r.name.padEnd(42) + r.rps.toFixed(0).padStart(9) + p50.padStart(8) + p99.padStart(8) + r.cpuUs.toFixed(1).padStart(8) +
      ratio.padStart(7) + '  ' + (base && base !== r ? base.name : '') + (r.errors ? `  ERRORS ${r.errors}` : ''));
  }
  if (rows.some((r) => r.mean)) console.log('* h2load reports no percentiles: mean latency');
}

const rate = (n, ms) => Math.round((n * 1000) / ms);

/** `op(0)…op(n-1)`, each awaited before the next: operations per second. */
async function sequential(n, op) {
  const t = performance.now();
  for (let i = 0; i < n; i++) await op(i);
  return rate(n, performance.now() - t);
}

/** `op(0)…op(n-1)` with `width` in flight at a time: operations per second. */
async function inFlight(n, width, op) {
  const t = performance.now();
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < n) await op(next++);
  }));
  return rate(n, performance.now() - t);
}

/**
 * Runs `use` with a throwaway 3-master + 3-replica Redis Cluster on free loopback ports (the code of
 * `grid redis-cluster`, after `npm run build`), killed and removed afterwards. `use` gets the
 * cluster, its seed addresses, `setFsync(mode)` for every node's `appendfsync`, and `connect()`,
 * which opens a client as the engine does (the caller disconnects it).
 */
async function withThrowawayCluster(use) {
  const { NODE_COUNT, startLocalCluster, stopLocalCluster } = require(join(ROOT, 'dist/src/cli/local-redis-cluster.js'));
  const { address, freeNodePorts, redisCli } = require(join(ROOT, 'dist/src/cli/local-redis-node.js'));
  const { openCluster } = require(join(ROOT, 'dist/src/store/redis/cluster-client.js'));
  const dir = mkdtempSync(join(TMP, 'redis-'));
  const { cluster } = await startLocalCluster(dir, await freeNodePorts(NODE_COUNT), { detached: false });
  const seeds = cluster.nodes.slice(0, 3).map((n) => address(n.port));
  const setFsync = (mode) => Promise.all(cluster.nodes.map((n) => redisCli(n.port, ['CONFIG', 'SET', 'appendfsync', mode], cluster.password)));
  const connect = async () => {
    const client = openCluster({ type: 'redis', nodes: cluster.nodes.slice(0, 3).map((n) => ({ host: '127.0.0.1', port: n.port })), password: cluster.password });
    await new Promise((resolve, reject) => { client.once('ready', resolve); client.once('error', reject); });
    return client;
  };
  try {
    return await use({ cluster, seeds, setFsync, connect });
  } finally {
    await stopLocalCluster(dir, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}

module.exports = {
  ROOT, AUTH, PINNED, TMP, has, startServer, startGrid, firstAnswerMs, cpuMs, rssMb, wrk, h2load, request, fill, median, medianRun, loadAverage, printTable,
  withThrowawayCluster, sequential, inFlight,
};

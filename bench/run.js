'use strict';
// npm run bench: loads grid and two baselines over loopback with wrk (32 keep-alive connections)
// and prints req/s and latency percentiles side by side, plus cold start and idle RSS. With h2load
// (Debian's nghttp2-client) it adds HTTP/2 rows: the same caches and values over h2c, 32
// connections with one stream each. `--quick`: 2-second runs, memory cache only.
const { spawn, execFileSync } = require('node:child_process');
const { mkdtempSync, rmSync, readFileSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const ROOT = join(__dirname, '..');
const QUICK = process.argv.includes('--quick');
const DURATION = process.env.BENCH_DURATION || (QUICK ? '2s' : '8s');
const CONNECTIONS = 32;
const USER = 'bench';
const PASS = 'bench-pw';
const AUTH = 'Basic ' + Buffer.from(`${USER}:${PASS}`).toString('base64');

function requireWrk() {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
  } catch (err) {
    if (err.code === 'ENOENT') {
      console.error('bench needs wrk: apt-get install -y wrk');
      process.exit(2);
    }
  }
}

function hasH2load() {
  try {
    execFileSync('h2load', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    console.error('no h2load: HTTP/2 rows skipped (apt-get install -y nghttp2-client)');
    return false;
  }
}

/** h2load over h2c prior knowledge: same shape as wrk (32 connections, one request in flight each). */
function h2load(url, { method = 'GET', path = '/', keys = 0, auth } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'grid-h2load-'));
  try {
    const uris = join(dir, 'uris');
    writeFileSync(uris, Array.from({ length: Math.max(keys, 1) }, (_, i) => url + path + (keys ? `k${i}` : '')).join('\n') + '\n');
    const args = ['-c', String(CONNECTIONS), '-m', '1', '-D', String(parseInt(DURATION, 10)), '-i', uris, '-H', 'content-type: text/plain'];
    if (auth) args.push('-H', `authorization: ${auth}`);
    if (method !== 'GET') {
      writeFileSync(join(dir, 'value'), 'v'.repeat(100));
      args.push('-H', `:method: ${method}`, '-d', join(dir, 'value'));
    }
    const out = execFileSync('h2load', args).toString();
    const rps = Number(/finished in [\d.]+\w+, ([\d.]+) req\/s/.exec(out)[1]);
    const mean = toMs(/time for request:\s+\S+\s+\S+\s+(\S+)/.exec(out)[1]);
    const m = /requests: \d+ total, \d+ started, \d+ done, \d+ succeeded, (\d+) failed, (\d+) errored/.exec(out);
    return { rps, p50: mean, p99: NaN, errors: Number(m[1]) + Number(m[2]), mean: true };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function start(args, env = {}) {
  const t0 = process.hrtime.bigint();
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
      const m = /listening on (http:\/\/[^\s]+)/.exec(out);
      if (m) {
        child.stdout.resume();
        child.stdout.removeAllListeners('data');
        resolve({ child, url: m[1], startedNs: t0 });
      }
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}: ${out}`)));
  });
}

async function firstAnswer(url, path) {
  for (;;) {
    try {
      const r = await fetch(url + path);
      if (r.status === 200) return;
    } catch { /* not yet */ }
    await new Promise((r) => setTimeout(r, 2));
  }
}

function wrk(url, { method = 'GET', path = '/', keys = 0, auth } = {}) {
  const env = { ...process.env, BENCH_METHOD: method, BENCH_PATH: path, BENCH_KEYS: String(keys) };
  if (auth) env.BENCH_AUTH = auth;
  const out = execFileSync('wrk', ['-t1', `-c${CONNECTIONS}`, `-d${DURATION}`, '--latency', '-s', join(__dirname, 'wrk', 'request.lua'), url], { env }).toString();
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)[1]);
  const pct = (p) => toMs(new RegExp(`\\s${p}%\\s+([\\d.]+\\w+)`).exec(out)[1]);
  const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(out);
  return { rps, p50: pct(50), p99: pct(99), errors: non2xx ? Number(non2xx[1]) : 0 };
}

function toMs(text) {
  const m = /([\d.]+)(us|ms|s)/.exec(text);
  const n = Number(m[1]);
  return m[2] === 'us' ? n / 1000 : m[2] === 's' ? n * 1000 : n;
}

function rssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024;
}

async function request(url, method, path, body, headers = {}) {
  const r = await fetch(url + path, { method, body, headers: { Authorization: AUTH, ...headers } });
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`);
}

async function main() {
  requireWrk();
  const withH2 = hasH2load();
  const rows = [];
  const row = (name, r) => rows.push({ name, ...r });

  const node = await start([join(__dirname, 'baselines', 'bare-node.js')]);
  row('bare node http (constant)', wrk(node.url));
  node.child.kill();
  const koa = await start([join(__dirname, 'baselines', 'bare-koa.js')]);
  row('bare koa (constant)', wrk(koa.url));
  koa.child.kill();

  const dataDir = mkdtempSync(join(tmpdir(), 'grid-bench-'));
  const grid = await start([join(ROOT, 'bin', 'grid'), 'start', '--port', '0', '--data', dataDir, '--durability', 'power'], { APP_USER: USER, APP_PASS: PASS });
  await firstAnswer(grid.url, '/rest/v2/container/health/status');
  const coldStartMs = Number(process.hrtime.bigint() - grid.startedNs) / 1e6;
  await new Promise((r) => setTimeout(r, 2000));
  const idleRss = rssMb(grid.child.pid);
  try {
    const json = { 'Content-Type': 'application/json' };
    await request(grid.url, 'POST', '/rest/v2/caches/mem', '{"local-cache":{}}', json);
    await request(grid.url, 'POST', '/rest/v2/caches/disk', '{"local-cache":{"persistence":{"file-store":{}}}}', json);
    const value = 'v'.repeat(100);
    for (const cache of ['mem', 'disk']) {
      await Promise.all(Array.from({ length: 1000 }, (_, i) => request(grid.url, 'PUT', `/rest/v2/caches/${cache}/k${i}`, value)));
    }
    row('grid GET memory cache', wrk(grid.url, { path: '/rest/v2/caches/mem/', keys: 1000, auth: AUTH }));
    if (withH2) row('  same over HTTP/2 (h2c)', h2load(grid.url, { path: '/rest/v2/caches/mem/', keys: 1000, auth: AUTH }));
    row('grid PUT memory cache', wrk(grid.url, { method: 'PUT', path: '/rest/v2/caches/mem/', keys: 10000, auth: AUTH }));
    if (withH2) row('  same over HTTP/2 (h2c)', h2load(grid.url, { method: 'PUT', path: '/rest/v2/caches/mem/', keys: 10000, auth: AUTH }));
    if (!QUICK) {
      row('grid GET persistent cache', wrk(grid.url, { path: '/rest/v2/caches/disk/', keys: 1000, auth: AUTH }));
      if (withH2) row('  same over HTTP/2 (h2c)', h2load(grid.url, { path: '/rest/v2/caches/disk/', keys: 1000, auth: AUTH }));
      row('grid PUT persistent (power)', wrk(grid.url, { method: 'PUT', path: '/rest/v2/caches/disk/', keys: 10000, auth: AUTH }));
      if (withH2) row('  same over HTTP/2 (h2c)', h2load(grid.url, { method: 'PUT', path: '/rest/v2/caches/disk/', keys: 10000, auth: AUTH }));
    }
  } finally {
    grid.child.kill('SIGTERM');
    await new Promise((r) => grid.child.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  }

  const koaRps = rows[1].rps;
  console.log(`\nwrk -t1 -c${CONNECTIONS} -d${DURATION}, 100-byte values, loopback, ${require('node:os').cpus().length} cores\n`);
  console.log('target'.padEnd(30) + 'req/s'.padStart(10) + 'p50 ms'.padStart(9) + 'p99 ms'.padStart(9) + 'x koa'.padStart(8) + 'errors'.padStart(8));
  for (const r of rows) {
    const p50 = r.p50.toFixed(2) + (r.mean ? '*' : '');
    const p99 = Number.isNaN(r.p99) ? '-' : r.p99.toFixed(2);
    console.log(r.name.padEnd(30) + r.rps.toFixed(0).padStart(10) + p50.padStart(9) + p99.padStart(9) +
      (r.rps / koaRps).toFixed(2).padStart(8) + String(r.errors).padStart(8));
  }
  if (rows.some((r) => r.mean)) console.log('* h2load reports no percentiles: the mean latency (h2load -c32 -m1, h2c prior knowledge)');
  console.log(`\ncold start to first answered request: ${coldStartMs.toFixed(0)} ms`);
  console.log(`idle RSS after start: ${idleRss.toFixed(1)} MB`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

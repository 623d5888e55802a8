'use strict';
// The rows of `npm run bench` for grid on the redis engine (called by bench/run.js when redis-server
// is installed; alone: `npm run build && node bench/redis-nodes.js`): a throwaway 3-master +
// 3-replica cluster on loopback, then 1, 2 and 3 grid nodes on it (`--durability power`), each
// serving GET and PUT of a memory cache of 100-byte values under the same client load as the other
// rows — 32 connections in all, split evenly over the nodes, one wrk per node run at once.
// On a 2-core machine the nodes, the six Redis processes and wrk share the same two cores, so these
// rows show what a node costs and how the load divides, not how N machines would scale
// (docs/benchmark.md, "Several nodes").
const { spawn } = require('node:child_process');
const { mkdtempSync } = require('node:fs');
const { join } = require('node:path');
const lib = require('./lib');

const CONNECTIONS = 32;

/** wrk against one node, asynchronously, so that one runs per node at once. */
function wrkAsync(server, { method, path, keys, connections, seconds }) {
  const env = { ...process.env, BENCH_METHOD: method, BENCH_PATH: path, BENCH_KEYS: String(keys), BENCH_VALUE_BYTES: '100', BENCH_AUTH: lib.AUTH };
  const child = spawn('wrk', ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency', '-s', join(__dirname, 'wrk', 'request.lua'), server.url], { env });
  let out = '';
  child.stdout.on('data', (c) => { out += c; });
  return new Promise((resolve, reject) => child.once('exit', (code) => {
    if (code !== 0) return reject(new Error(`wrk failed (${code})`));
    const toMs = (t) => { const m = /([\d.]+)(us|ms|s)/.exec(t); return m[2] === 'us' ? m[1] / 1000 : m[2] === 's' ? m[1] * 1000 : Number(m[1]); };
    if (!/Requests\/sec/.test(out)) return reject(new Error(`wrk printed no rate: ${out}`));
    const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(out);
    resolve({
      rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)[1]),
      p50: toMs(/\s50%\s+([\d.]+\w+)/.exec(out)[1]), p99: toMs(/\s99%\s+([\d.]+\w+)/.exec(out)[1]),
      requests: Number(/(\d+) requests in/.exec(out)[1]), errors: non2xx ? Number(non2xx[1]) : 0,
    });
  }));
}

/** One load over every node at once: req/s added up, the worst node's percentiles, the nodes' CPU per request. */
async function overNodes(nodes, opts) {
  const before = nodes.map((n) => lib.cpuMs(n.pid));
  const per = Math.floor(CONNECTIONS / nodes.length);
  const runs = await Promise.all(nodes.map((n, i) => wrkAsync(n, { ...opts, connections: per + (i < CONNECTIONS % nodes.length ? 1 : 0) })));
  const cpu = nodes.reduce((sum, n, i) => sum + lib.cpuMs(n.pid) - before[i], 0);
  const requests = runs.reduce((s, r) => s + r.requests, 0);
  return {
    rps: runs.reduce((s, r) => s + r.rps, 0), p50: Math.max(...runs.map((r) => r.p50)), p99: Math.max(...runs.map((r) => r.p99)),
    requests, cpuUs: (cpu * 1000) / requests, errors: runs.reduce((s, r) => s + r.errors, 0),
  };
}

/** Rows for 1, 2 and 3 grid nodes over one cluster: `rounds` rounds of `seconds` each, the rows taking turns; the median is shown. */
async function redisRows({ seconds, rounds }) {
  return lib.withThrowawayCluster(async ({ cluster, seeds }) => {
    const nodes = [];
    try {
      for (let i = 0; i < 3; i++) {
        nodes.push(await lib.startServer(['start', '--port', '0', '--data', mkdtempSync(join(lib.TMP, 'node-')), '--engine', 'redis', '--redis', seeds.join(','),
          '--redis-password-file', cluster.passwordFile], { APP_USER: 'bench', APP_PASS: 'bench-pw' }, join(lib.ROOT, 'bin', 'grid'), { pinned: false }));
      }
      await lib.request(nodes[0].url, 'POST', '/rest/v2/caches/shared', '{"local-cache":{}}', { 'Content-Type': 'application/json' });
      await new Promise((r) => setTimeout(r, 500)); // the others adopt the cache (within milliseconds)
      await lib.fill(nodes[0].url, 'shared', 1000);
      const targets = [];
      for (const n of [1, 2, 3]) {
        targets.push({ name: `grid GET over Redis, ${n} node${n > 1 ? 's' : ''}`, run: (s) => overNodes(nodes.slice(0, n), { method: 'GET', path: '/rest/v2/caches/shared/', keys: 1000, seconds: s }) });
        targets.push({ name: `grid PUT over Redis (power), ${n} node${n > 1 ? 's' : ''}`, run: (s) => overNodes(nodes.slice(0, n), { method: 'PUT', path: '/rest/v2/caches/shared/', keys: 10000, seconds: s }) });
      }
      for (const t of targets) await t.run(1); // warm-up
      const runs = new Map(targets.map((t) => [t, []]));
      for (let round = 0; round < rounds; round++) for (const t of targets) runs.get(t).push(await t.run(seconds));
      return targets.map((t) => ({ name: t.name, ...lib.medianRun(runs.get(t)) }));
    } finally {
      await Promise.all(nodes.map((n) => n.stop()));
    }
  });
}

module.exports = { redisRows };

if (require.main === module) {
  redisRows({ seconds: Number(process.env.BENCH_SECONDS || 5), rounds: Number(process.env.BENCH_ROUNDS || 3) }).then((rows) => {
    lib.printTable(rows, (r) => rows.find((x) => x.name === r.name.replace(/\d+ nodes?$/, '1 node')));
    console.log('cpu µs: the grid nodes\' CPU time per request (Redis not counted); ratio: req/s over the same row with 1 node');
  }).catch((err) => {
    console.error(err);
    process.exit(1);
  });
}

'use strict';
// npm run bench [-- --quick]: grid against bare Node and bare Koa answering a constant, in the same
// run, 100-byte values, 32 keep-alive connections (wrk -t1 -c32; h2load -c32 -m1 for the HTTP/2
// rows), the server pinned to core 0 and the load generator to core 1. The targets take turns
// (ROUNDS rounds; each row's median is shown), so a neighbour's burst of work hits all of them.
// Prints req/s, p50/p99, the server's CPU time per request, the ratio to bare Koa, cold start,
// idle RSS and RSS after the load, and how the figures compare with the goals of issue 13.
// `--quick`: one round of 2-second runs (about a minute). bench/large.js: 1M entries and 1 MB values.
const { join } = require('node:path');
const { cpus } = require('node:os');
const lib = require('./lib');

const QUICK = process.argv.includes('--quick');
const SECONDS = Number(process.env.BENCH_SECONDS || (QUICK ? 2 : 5));
const ROUNDS = Number(process.env.BENCH_ROUNDS || (QUICK ? 1 : 3));
const HEALTH = '/rest/v2/container/health/status';

async function main() {
  if (!lib.has('wrk')) {
    console.error('bench needs wrk: apt-get install -y wrk');
    process.exit(2);
  }
  const withH2 = lib.has('h2load');
  if (!withH2) console.error('no h2load: HTTP/2 rows skipped (apt-get install -y nghttp2-client)');
  const loadBefore = lib.loadAverage();

  const node = await lib.startServer([join(__dirname, 'baselines', 'bare-node.js')]);
  const nodeStart = await lib.firstAnswerMs(node, '/');
  const koa = await lib.startServer([join(__dirname, 'baselines', 'bare-koa.js')]);
  const koaStart = await lib.firstAnswerMs(koa, '/');
  const koaH2 = withH2 ? await lib.startServer([join(__dirname, 'baselines', 'bare-koa.js')], { BENCH_H2: '1' }) : undefined;

  const grid = await lib.startGrid();
  const coldFresh = await lib.firstAnswerMs(grid, HEALTH);
  await new Promise((r) => setTimeout(r, 1000));
  const idleRss = lib.rssMb(grid.pid);
  const json = { 'Content-Type': 'application/json' };
  await lib.request(grid.url, 'POST', '/rest/v2/caches/mem', '{"local-cache":{}}', json);
  await lib.request(grid.url, 'POST', '/rest/v2/caches/disk', '{"local-cache":{"persistence":{"file-store":{}}}}', json);
  await lib.fill(grid.url, 'mem', 1000);
  await lib.fill(grid.url, 'disk', 1000);

  const auth = lib.AUTH;
  const h1 = (name, server, opts = {}) => ({ name, server, run: (s) => lib.wrk(server, { ...opts, seconds: s }) });
  const h2 = (name, server, opts = {}) => ({ name, server, h2: true, run: (s) => lib.h2load(server, { ...opts, seconds: s }) });
  const memGet = { path: '/rest/v2/caches/mem/', keys: 1000, auth };
  const memPut = { method: 'PUT', path: '/rest/v2/caches/mem/', keys: 10000, auth };
  const targets = [
    h1('bare node http (constant)', node),
    h1('bare koa (constant)', koa),
    h1('grid GET memory cache', grid, memGet),
    h1('grid PUT memory cache', grid, memPut),
    h1('grid GET persistent cache', grid, { path: '/rest/v2/caches/disk/', keys: 1000, auth }),
    h1('grid PUT persistent cache (power)', grid, { method: 'PUT', path: '/rest/v2/caches/disk/', keys: 10000, auth }),
  ];
  if (koaH2) {
    targets.push(
      h2('bare koa over HTTP/2 (h2c, constant)', koaH2),
      h2('grid GET memory cache over HTTP/2', grid, memGet),
      h2('grid PUT memory cache over HTTP/2', grid, memPut),
    );
  }

  // warm-up: the JIT compiles the hot paths of every server before anything counts
  for (const t of targets) t.run(1);
  const runs = new Map(targets.map((t) => [t, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const t of targets) runs.get(t).push(t.run(SECONDS));
  }
  const loadedRss = lib.rssMb(grid.pid);
  await grid.stop();
  const again = await lib.startGrid(grid.dataDir);
  const coldExisting = await lib.firstAnswerMs(again, HEALTH);
  await again.stop();
  await Promise.all([node.stop(), koa.stop(), koaH2?.stop()]);

  const rows = targets.map((t) => ({ name: t.name, h2: t.h2, ...lib.medianRun(runs.get(t)) }));
  const koaRow = rows[1];
  const koaH2Row = rows.find((r) => r.name.startsWith('bare koa over HTTP/2'));
  console.log(`\n${ROUNDS} round(s) of ${SECONDS} s per row, median shown; wrk -t1 -c32 (h2load -c32 -m1), 100-byte values, loopback, ` +
    `${cpus().length} cores, ${lib.PINNED ? 'server on core 0, load generator on core 1' : 'not pinned'}`);
  console.log(`load average before: ${loadBefore}, after: ${lib.loadAverage()}\n`);
  lib.printTable(rows, (r) => (r.h2 ? koaH2Row : koaRow));
  console.log('cpu µs: server CPU time (user + system, all threads) per request; ratio: req/s over the row named last');
  console.log(`\ncold start to the first answered request: ${coldFresh.toFixed(0)} ms on a new data dir, ${coldExisting.toFixed(0)} ms on an existing one` +
    ` (measured the same way: bare node ${nodeStart.toFixed(0)} ms, bare koa ${koaStart.toFixed(0)} ms)`);
  console.log(`RSS: ${idleRss.toFixed(1)} MB idle after start, ${loadedRss.toFixed(1)} MB after the load`);

  const get = (name) => rows.find((r) => r.name === name);
  if (lib.has('redis-server')) {
    // docs/benchmark.md, "Several nodes": the same client load spread over 1, 2, 3 nodes on one cluster
    const redisRows = await require('./redis-nodes').redisRows({ seconds: SECONDS, rounds: ROUNDS });
    console.log('\nthe redis engine: a 3+3 cluster on this machine, 32 connections split over the nodes (not pinned):');
    lib.printTable(redisRows, (r) => (r.name.includes('PUT') ? get('grid PUT persistent cache (power)') : get('grid GET memory cache')));
    console.log('ratio: req/s over the SQLite row named (PUT: persistent, power; GET: memory cache)');
  } else {
    console.error('no redis-server: the redis engine rows skipped (apt-get install -y redis-server)');
  }

  const goal = (text, ok, figure) => console.log(`${ok ? 'met    ' : 'NOT met'}  ${text.padEnd(52)} ${figure}`);
  const ratio = (name) => get(name).rps / koaRow.rps;
  console.log('\ngoals (issue 13):');
  goal('GET memory cache >= 0.9 x bare Koa', ratio('grid GET memory cache') >= 0.9, ratio('grid GET memory cache').toFixed(2));
  goal('PUT persistent cache (power) >= 0.6 x bare Koa', ratio('grid PUT persistent cache (power)') >= 0.6, ratio('grid PUT persistent cache (power)').toFixed(2));
  goal('PUT memory cache >= 0.8 x bare Koa', ratio('grid PUT memory cache') >= 0.8, ratio('grid PUT memory cache').toFixed(2));
  const worstP99 = Math.max(...rows.filter((r) => r.name.startsWith('grid') && !r.h2).map((r) => r.p99));
  goal('p99 <= 2 x bare Koa p99 (worst HTTP/1.1 grid row)', worstP99 <= 2 * koaRow.p99, `${worstP99.toFixed(2)} ms vs ${koaRow.p99.toFixed(2)} ms`);
  goal('cold start on an existing data dir < 200 ms', coldExisting < 200, `${coldExisting.toFixed(0)} ms`);
  goal('idle RSS < 70 MB', idleRss < 70, `${idleRss.toFixed(1)} MB`);
  goal('RSS after the whole benchmark < 120 MB', loadedRss < 120, `${loadedRss.toFixed(1)} MB`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

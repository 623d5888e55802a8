'use strict';
// node bench/large.js [--quick] (npm run bench -- --large): the two cases of issue 13 that the
// main bench leaves out, against the same baselines, pinned the same way.
// - 1M entries of 100 bytes in a persistent cache bounded to 10,000 in memory (written straight
//   into the store through its own write path, which takes a few seconds instead of minutes):
//   restart to the first answer, random GETs that miss memory against GETs that hit it, and RSS
//   after 100k random reads.
// - 1 MB values: GET from a memory cache against bare Koa sending a 1 MB constant, and PUT against
//   bare Koa reading a 1 MB body (8 connections).
const { join } = require('node:path');
const lib = require('./lib');

const QUICK = process.argv.includes('--quick');
const SECONDS = Number(process.env.BENCH_SECONDS || (QUICK ? 2 : 5));
const ENTRIES = Number(process.env.BENCH_ENTRIES || 1_000_000);
const MB = 1024 * 1024;
const HEALTH = '/rest/v2/container/health/status';

/** Writes `count` entries k0… of 100 bytes into cache `name` of the stopped server's store. */
function fillStore(dataDir, name, count) {
  const { SqliteStore } = require(join(lib.ROOT, 'dist', 'src', 'store', 'sqlite-store.js'));
  const store = new SqliteStore({ dataDir, durability: 'process' });
  try {
    const cacheId = store.definitions.listCaches().find((c) => c.name === name).id;
    const value = Buffer.alloc(100, 'v');
    const now = Date.now();
    const batch = store.db.transaction((from, to) => {
      for (let i = from; i < to; i++) {
        store.entries.upsert(cacheId, { key: Buffer.from(`k${i}`), value, valueType: null, created: now, lastUsed: now, lifespan: -1, maxIdle: -1 });
      }
    });
    for (let i = 0; i < count; i += 100_000) batch(i, Math.min(count, i + 100_000));
  } finally {
    store.close();
  }
}

async function main() {
  if (!lib.has('wrk')) {
    console.error('bench needs wrk: apt-get install -y wrk');
    process.exit(2);
  }
  const loadBefore = lib.loadAverage();
  const json = { 'Content-Type': 'application/json' };
  const auth = lib.AUTH;

  // the data dir: caches defined by the server, then a million entries written while it is down
  const first = await lib.startGrid();
  await lib.request(first.url, 'POST', '/rest/v2/caches/mem', '{"local-cache":{}}', json);
  await lib.request(first.url, 'POST', '/rest/v2/caches/big', '{"local-cache":{"memory":{"max-count":10000},"persistence":{"file-store":{}}}}', json);
  await lib.request(first.url, 'POST', '/rest/v2/caches/large', '{"local-cache":{}}', json);
  await first.stop();
  const filledAt = Date.now();
  fillStore(first.dataDir, 'big', ENTRIES);
  const fillMs = Date.now() - filledAt;

  const grid = await lib.startGrid(first.dataDir);
  const startMs = await lib.firstAnswerMs(grid, HEALTH);
  await lib.request(grid.url, 'GET', '/rest/v2/caches/big/k0');
  const startedRss = lib.rssMb(grid.pid);
  await lib.fill(grid.url, 'mem', 1000);
  await lib.request(grid.url, 'PUT', '/rest/v2/caches/large/k0', Buffer.alloc(MB, 'v'));

  const koa = await lib.startServer([join(__dirname, 'baselines', 'bare-koa.js')], { BENCH_BODY_BYTES: String(MB) });
  const hit = (s) => lib.wrk(grid, { path: '/rest/v2/caches/mem/', keys: 1000, auth, seconds: s });
  const miss = (s) => lib.wrk(grid, { path: '/rest/v2/caches/big/', keys: ENTRIES, auth, seconds: s });
  const big = { connections: 8, valueBytes: MB };
  const koaGet = (s) => lib.wrk(koa, { ...big, seconds: s });
  const koaPut = (s) => lib.wrk(koa, { ...big, method: 'PUT', seconds: s });
  const gridGet = (s) => lib.wrk(grid, { ...big, path: '/rest/v2/caches/large/k0', auth, seconds: s });
  const gridPut = (s) => lib.wrk(grid, { ...big, method: 'PUT', path: '/rest/v2/caches/large/k0', auth, seconds: s });

  for (const run of [hit, koaGet, koaPut, gridGet, gridPut]) run(1);
  let randomReads = 0;
  const rows = { hit: [], miss: [], koaGet: [], gridGet: [], koaPut: [], gridPut: [] };
  for (let round = 0; round < (QUICK ? 1 : 3); round++) {
    rows.hit.push(hit(SECONDS));
    const m = miss(SECONDS);
    randomReads += m.requests;
    rows.miss.push(m);
    rows.koaGet.push(koaGet(SECONDS));
    rows.gridGet.push(gridGet(SECONDS));
    rows.koaPut.push(koaPut(SECONDS));
    rows.gridPut.push(gridPut(SECONDS));
  }
  while (randomReads < 100_000) randomReads += miss(Math.min(10, Math.ceil((100_000 - randomReads) / 5000) + 1)).requests;
  const afterReadsRss = lib.rssMb(grid.pid);
  await grid.stop();
  await koa.stop();

  const r = Object.fromEntries(Object.entries(rows).map(([k, runs]) => [k, lib.medianRun(runs)]));
  const named = [
    { name: 'grid GET memory hit (100 B, 1,000 keys)', ...r.hit },
    { name: `grid GET memory miss (100 B, ${ENTRIES.toLocaleString('en')} keys)`, ...r.miss, base: 'hit' },
    { name: 'bare koa GET 1 MB constant (-c8)', ...r.koaGet },
    { name: 'grid GET 1 MB, memory cache (-c8)', ...r.gridGet, base: 'koaGet' },
    { name: 'bare koa PUT reading 1 MB (-c8)', ...r.koaPut },
    { name: 'grid PUT 1 MB, memory cache (-c8)', ...r.gridPut, base: 'koaPut' },
  ];
  const byKey = { hit: named[0], koaGet: named[2], koaPut: named[4] };
  console.log(`\n${QUICK ? 1 : 3} round(s) of ${SECONDS} s per row, median shown; ${lib.PINNED ? 'server on core 0, wrk on core 1' : 'not pinned'}`);
  console.log(`load average before: ${loadBefore}, after: ${lib.loadAverage()}\n`);
  lib.printTable(named, (row) => byKey[row.base]);
  console.log(`\n${ENTRIES.toLocaleString('en')} entries written into the store in ${(fillMs / 1000).toFixed(1)} s`);
  console.log(`restart to the first answered request: ${startMs.toFixed(0)} ms; RSS ${startedRss.toFixed(1)} MB after start, ` +
    `${afterReadsRss.toFixed(1)} MB after ${randomReads.toLocaleString('en')} random reads`);
  const goal = (text, ok, figure) => console.log(`${ok ? 'met    ' : 'NOT met'}  ${text.padEnd(52)} ${figure}`);
  console.log('\ngoals (issue 13):');
  goal('start with 1M entries < 500 ms', startMs < 500, `${startMs.toFixed(0)} ms`);
  goal('GET missing memory >= 0.8 x a memory hit', r.miss.rps / r.hit.rps >= 0.8, (r.miss.rps / r.hit.rps).toFixed(2));
  goal('RSS < 150 MB after 100k random reads', afterReadsRss < 150, `${afterReadsRss.toFixed(1)} MB`);
  goal('GET 1 MB >= 0.8 x bare Koa sending 1 MB', r.gridGet.rps / r.koaGet.rps >= 0.8, (r.gridGet.rps / r.koaGet.rps).toFixed(2));
  goal('PUT 1 MB >= 0.8 x bare Koa reading 1 MB', r.gridPut.rps / r.koaPut.rps >= 0.8, (r.gridPut.rps / r.koaPut.rps).toFixed(2));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

'use strict';
// An indexed query on the redis engine (docs/scale-out.md, "Queries"): `npm run build && node
// bench/redis-index.js`. A throwaway 3+3 cluster, grid nodes A and B on it and, for reference, one
// node on SQLite; an indexed cache of BENCH_ENTRIES (10,000) small protobuf entities written
// through A (and the SQLite node). B queried the cache before the writes, so its index catches up
// in the background meanwhile; A did not. Timed: the first query on B and on A after all the writes
// (A's applies every one of them first; a health probe on A records its slowest answer meanwhile),
// the query with nothing to catch up on A, B and the SQLite node, on B after 100 writes on A, and
// the start of a third node (its index built before its first answer).
const { mkdtempSync } = require('node:fs');
const { join } = require('node:path');
const lib = require('./lib');

const ENTRIES = Number(process.env.BENCH_ENTRIES || 10_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS || 30);
const PROTO = `package ix;
/* @Indexed */
message Book {
  /* @Text */
  optional string title = 1;
  /* @Basic(sortable = true) */
  optional int32 year = 2;
}
`;
const CACHE = { 'distributed-cache': { encoding: { 'media-type': 'application/x-protostream' }, indexing: { enabled: true, 'indexed-entities': ['ix.Book'] } } };
const QUERY = "FROM ix.Book b WHERE b.title : 'sea' ORDER BY b.year";
const JSON_TYPE = { 'Content-Type': 'application/json' };

const book = (i) => JSON.stringify({ _type: 'ix.Book', title: `Book ${i} ${i % 10 === 0 ? 'sea' : 'land'}`, year: 1900 + (i % 100) });

async function writeBooks(url, from, count) {
  for (let i = from; i < from + count; i += 64) {
    await Promise.all(Array.from({ length: Math.min(64, from + count - i) }, (_, j) => lib.request(url, 'PUT', `/rest/v2/caches/books/b${i + j}`, book(i + j), JSON_TYPE)));
  }
}

/** One query's answer time in ms, and its hit count. */
async function timedQuery(url) {
  const t = performance.now();
  const r = await lib.request(url, 'GET', `/rest/v2/caches/books?action=search&max_results=10&query=${encodeURIComponent(QUERY)}`);
  const body = await r.json();
  return { ms: performance.now() - t, hits: body.hit_count };
}

/** The slowest answer of the node's health endpoint, asked one after the other, until stopped. */
function healthProbe(url) {
  let worst = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const t = performance.now();
      await fetch(`${url}/rest/v2/container/health/status`).then((r) => r.arrayBuffer());
      worst = Math.max(worst, performance.now() - t);
      await new Promise((r) => setTimeout(r, 2));
    }
  })();
  return async () => {
    running = false;
    await loop;
    return worst;
  };
}

const pct = (values, p) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))];
const ms = (v) => `${v.toFixed(1)} ms`;

async function main() {
  await lib.withThrowawayCluster(async ({ cluster, seeds, setFsync }) => {
    await setFsync('everysec'); // the writes are not what is measured
    const env = { APP_USER: 'bench', APP_PASS: 'bench-pw' };
    const grid = join(lib.ROOT, 'bin', 'grid');
    const redisNode = () => lib.startServer(['start', '--port', '0', '--data', mkdtempSync(join(lib.TMP, 'node-')), '--engine', 'redis', '--redis', seeds.join(','),
      '--redis-password-file', cluster.passwordFile, '--durability', 'process'], env, grid, { pinned: false });
    const nodes = [await redisNode(), await redisNode()];
    const sqlite = await lib.startServer(['start', '--port', '0', '--data', mkdtempSync(join(lib.TMP, 'sqlite-')), '--durability', 'process'], env, grid, { pinned: false });
    const [a, b] = nodes;
    try {
      for (const url of [a.url, sqlite.url]) {
        await lib.request(url, 'PUT', '/rest/v2/schemas/ix.proto', PROTO);
        await lib.request(url, 'POST', '/rest/v2/caches/books', JSON.stringify(CACHE), JSON_TYPE);
      }
      for (let i = 0; i < 200 && (await fetch(`${b.url}/rest/v2/caches/books?action=size`, { headers: { Authorization: lib.AUTH } })).status !== 200; i++) {
        await new Promise((r) => setTimeout(r, 25));
      }
      await timedQuery(b.url); // B's index exists and is current
      let t = performance.now();
      await writeBooks(a.url, 0, ENTRIES);
      const fillMs = performance.now() - t;
      await writeBooks(sqlite.url, 0, ENTRIES);

      const firstB = await timedQuery(b.url);
      const stopProbe = healthProbe(a.url);
      const firstA = await timedQuery(a.url);
      const worstProbe = await stopProbe();

      const idle = { a: [], b: [], sqlite: [] };
      for (let i = 0; i < ROUNDS; i++) {
        idle.b.push((await timedQuery(b.url)).ms);
        idle.a.push((await timedQuery(a.url)).ms);
        idle.sqlite.push((await timedQuery(sqlite.url)).ms);
      }
      const afterSmall = [];
      for (let i = 0; i < 10; i++) {
        await writeBooks(a.url, ENTRIES + i * 100, 100);
        afterSmall.push((await timedQuery(b.url)).ms);
      }

      t = performance.now();
      const c = await redisNode();
      nodes.push(c);
      const started = performance.now() - t;
      const onC = await timedQuery(c.url);

      console.log(`${ENTRIES} entries written through A in ${ms(fillMs)}; load average ${lib.loadAverage()}`);
      console.log(`first query right after the ${ENTRIES} writes: on B (caught up in the background) ${ms(firstB.ms)}, ${firstB.hits} hits; on A (catches up on all of them) ${ms(firstA.ms)}, ${firstA.hits} hits; slowest health answer of A meanwhile ${ms(worstProbe)}`);
      for (const [name, v] of Object.entries(idle)) console.log(`query with nothing to catch up, ${name}: median ${ms(pct(v, 0.5))}, p90 ${ms(pct(v, 0.9))} (${ROUNDS} runs)`);
      console.log(`query on B after 100 writes on A: median ${ms(pct(afterSmall, 0.5))}, p90 ${ms(pct(afterSmall, 0.9))} (10 runs)`);
      console.log(`node C: listening after ${ms(started)}, first query (its index built from the feeds) ${ms(onC.ms)}, ${onC.hits} hits`);
    } finally {
      await Promise.all([...nodes, sqlite].map((n) => n.stop()));
    }
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

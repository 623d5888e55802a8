'use strict';
// node bench/query.js (after npm run build): the query figures of issue 11.
// Starts grid in this process on a fresh data dir, loads BENCH_ENTRIES (1M) Person-like entries
// into a persistent indexed cache and a persistent non-indexed one (memory tier bounded, so the
// store holds them), then measures over HTTP: equality, range and full-text queries (p50) and
// COUNT ... GROUP BY from a client process of its own (bench/query-client.js), a sort over half
// the entries (with the longest event-loop block: it and the group count run on the index reader
// thread), indexed vs non-indexed PUT throughput, scan rate with the longest
// event-loop block, and RSS growth during queries over all entries. The load average is printed
// with the figures: the machine may be shared.
const { mkdtempSync, rmSync, readFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { monitorEventLoopDelay } = require('node:perf_hooks');
const { loadavg } = require('node:os');
const { spawn } = require('node:child_process');

const ROOT = join(__dirname, '..');
const { startServer } = require(join(ROOT, 'dist/src/main'));
const { resolveConfig } = require(join(ROOT, 'dist/src/config/server-config'));

const ENTRIES = Number(process.env.BENCH_ENTRIES || 1_000_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES || 200);
const PUTS = Number(process.env.BENCH_PUTS || 20_000);
const TYPE = 'bench.Person';
const SCHEMA = `package bench;
/* @Indexed */
message Person {
  /* @Basic(sortable = true) */ optional int32 id = 1;
  /* @Keyword(sortable = true) */ optional string name = 2;
  /* @Basic */ optional string surname = 3;
  /* @Basic(sortable = true, aggregable = true) */ optional int32 age = 4;
  /* @Basic(aggregable = true) */ optional string city = 5;
  /* @Text */ optional string bio = 6;
}`;
const WORDS = 100_000;
const PROTOSTREAM = { encoding: { 'media-type': 'application/x-protostream' }, memory: { 'max-count': '10000' }, persistence: { 'file-store': {} } };

function person(i) {
  const words = [];
  for (let w = 0; w < 8; w++) words.push(`w${(i * 7919 + w * 104729) % WORDS}`);
  return { _type: TYPE, id: i, name: `name${i}`, surname: `surname${i % 1000}`, age: i % 100, city: `city${i % 50}`, bio: words.join(' ') };
}

/** What the machine alone does to a loop that never holds it more than 3 ms (CPU contention, preemption). */
async function noiseFloor() {
  const h = await watchLoop();
  const slices = setInterval(() => { const t = performance.now(); while (performance.now() - t < 3); }, 4);
  await new Promise((resolve) => setTimeout(resolve, 3000));
  clearInterval(slices);
  h.disable();
  return h.max / 1e6;
}

const rssMb = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))[1]) / 1024;
const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** Runs bench/query-client.js in a process of its own; its figures, one per run. */
function clientRuns(url, runs) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(__dirname, 'query-client.js')], { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (c) => { out += c; });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(out.trim().split('\n').map((l) => JSON.parse(l))) : reject(new Error(`query-client exited with ${code}`))));
    child.stdin.end(JSON.stringify({ url, runs }));
  });
}

const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');

/**
 * A histogram of event-loop delays, started and given a few ms to arm: its first timer tick
 * records nothing, so a block right after enable() would go unseen.
 */
async function watchLoop() {
  const h = monitorEventLoopDelay({ resolution: 1 });
  h.enable();
  await new Promise((resolve) => setTimeout(resolve, 10));
  return h;
}

async function main() {
  console.log(`load average at start: ${load()}`);
  const dataDir = mkdtempSync(join(tmpdir(), 'grid-bench-query-'));
  const config = resolveConfig({}, { dataDir, port: 0, host: '127.0.0.1', logLevel: 'silent', authEnabled: false, durability: 'power' }, {});
  const server = await startServer(config, { announce: () => undefined });
  const s = server.services;
  const http = async (method, path, body) => {
    const r = await fetch(server.url + path, { method, body, headers: body ? { 'Content-Type': 'application/json' } : {} });
    const text = await r.text();
    if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${text}`);
    return text;
  };
  try {
    await http('PUT', '/rest/v2/schemas/bench.proto', SCHEMA);
    await http('POST', '/rest/v2/caches/indexed', JSON.stringify({ 'local-cache': { ...PROTOSTREAM, indexing: { enabled: true, 'indexed-entities': [TYPE] } } }));
    await http('POST', '/rest/v2/caches/plain', JSON.stringify({ 'local-cache': { ...PROTOSTREAM } }));

    // loading in process (1M HTTP round trips would measure the loader, not the query engine)
    const { parseMediaType } = require(join(ROOT, 'dist/src/model/media-type'));
    const contentType = parseMediaType('application/json');
    for (const cache of ['indexed', 'plain']) {
      const h = s.manager.require(cache);
      const t0 = performance.now();
      for (let i = 0; i < ENTRIES; i += 5000) {
        const writes = [];
        for (let j = i; j < Math.min(ENTRIES, i + 5000); j++) {
          writes.push(s.entries.put(h, { key: Buffer.from(`p${j}`), value: Buffer.from(JSON.stringify(person(j))), contentType }));
        }
        await Promise.all(writes);
      }
      console.log(`loaded ${ENTRIES} into ${cache} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    }

    const searchPath = (cache, query, extra = '') => `/rest/v2/caches/${cache}?action=search&query=${encodeURIComponent(query)}${extra}`;
    const search = (cache, query, extra = '') => http('GET', searchPath(cache, query, extra));
    // latency from a client process of its own (bench/query-client.js): an in-process fetch()
    // client would add its own CPU time, on the server's loop, to every figure
    const runs = [
      { label: 'equality', paths: Array.from({ length: SAMPLES }, (_, i) => searchPath('indexed', `from ${TYPE} where name = 'name${(i * 4999) % ENTRIES}'`)) },
      { label: 'range', paths: Array.from({ length: SAMPLES }, (_, i) => searchPath('indexed', `from ${TYPE} where id >= ${(i * 4999) % ENTRIES} and id < ${((i * 4999) % ENTRIES) + 10}`)) },
      { label: 'full-text term', paths: Array.from({ length: SAMPLES }, (_, i) => searchPath('indexed', `from ${TYPE} where bio : 'w${(i * 37) % WORDS}'`)) },
      { label: `COUNT GROUP BY city over ${ENTRIES}`, paths: Array.from({ length: 20 }, () => searchPath('indexed', `select city, count(*) from ${TYPE} group by city`, '&max_results=100')) },
    ];
    const groupLoop = await watchLoop();
    for (const r of await clientRuns(server.url, runs)) {
      console.log(`${r.label}: p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms (≤ ${r.hits} hits)`);
    }
    groupLoop.disable();
    console.log(`longest event-loop block during those queries: ${(groupLoop.max / 1e6).toFixed(1)} ms`);
    // the same equality queries from fetch() in this process, for comparison with earlier runs
    const inProcess = [];
    for (const p of runs[0].paths) {
      const t0 = performance.now();
      await http('GET', p);
      inProcess.push(performance.now() - t0);
    }
    inProcess.sort((a, b) => a - b);
    console.log(`(equality from fetch() in the server's own process, client CPU and gzip included: p50 ${pct(inProcess, 50).toFixed(2)} ms)`);
    const sortLoop = await watchLoop();
    const sortStart = performance.now();
    const sorted = JSON.parse(await search('indexed', `from ${TYPE} where age < 50 order by name desc`));
    sortLoop.disable();
    console.log(`indexed ORDER BY over ${sorted.hit_count >= 10000 ? 'half the entries' : sorted.hit_count}: ${(performance.now() - sortStart).toFixed(0)} ms, longest event-loop block ${(sortLoop.max / 1e6).toFixed(1)} ms`);

    // PUT throughput over HTTP, 32 concurrent clients, indexed vs not
    for (const cache of ['plain', 'indexed']) {
      let next = 0;
      const t0 = performance.now();
      await Promise.all(Array.from({ length: 32 }, async () => {
        while (next < PUTS) {
          const i = next++;
          await http('PUT', `/rest/v2/caches/${cache}/u${i}`, JSON.stringify(person(ENTRIES + i)));
        }
      }));
      console.log(`PUT ${cache}: ${Math.round(PUTS / ((performance.now() - t0) / 1000))} req/s`);
    }

    // scan of the non-indexed cache: rate, longest event-loop block, RSS growth
    const rss0 = rssMb();
    let rssMax = rss0;
    const sampler = setInterval(() => { rssMax = Math.max(rssMax, rssMb()); }, 20);
    let loop = await watchLoop();
    const t0 = performance.now();
    const scanned = JSON.parse(await search('plain', `from ${TYPE} where age = 1000`));
    const scanMs = performance.now() - t0;
    loop.disable();
    const total = ENTRIES + PUTS;
    console.log(`scan of ${total} (hit_count ${scanned.hit_count}): ${(scanMs / 1000).toFixed(2)} s, ${Math.round(total / (scanMs / 1000))} entries/s, longest event-loop block ${(loop.max / 1e6).toFixed(1)} ms`);
    loop = await watchLoop();
    let t1 = performance.now();
    await search('plain', `select city, count(*), avg(age) from ${TYPE} group by city`);
    console.log(`scan + GROUP BY over ${total}: ${((performance.now() - t1) / 1000).toFixed(2)} s`);
    t1 = performance.now();
    await search('indexed', `select surname, count(*) from ${TYPE} where age < 50 group by surname`, '&max_results=5');
    console.log(`indexed WHERE (half the entries) + in-memory GROUP BY: ${((performance.now() - t1) / 1000).toFixed(2)} s`);
    loop.disable();
    console.log(`longest event-loop block during those two: ${(loop.max / 1e6).toFixed(1)} ms`);
    clearInterval(sampler);
    console.log(`RSS during queries over all entries: +${(rssMax - rss0).toFixed(1)} MB (from ${rss0.toFixed(0)} MB)`);
    console.log(`load average at the end: ${load()}`);
    console.log(`noise floor: longest event-loop delay of a loop doing only 3 ms slices for 3 s: ${(await noiseFloor()).toFixed(1)} ms`);
  } finally {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

'use strict';
// node bench/query-budget.js (after npm run build): the query budget cases (docs/security.md,
// Limits: query-*). Starts grid in this process on a fresh data dir with BENCH_ENTRIES (100k)
// entries of ~1 KB in a memory cache, non-indexed and indexed (a @Text field over a vocabulary of
// 100k words), then, from a client process of its own with the anonymous health probe every
// 100 ms, asks as the `observer` role:
//   1. every entry: max_results=2147483647 (scan, and the indexed cache)
//   2. 300 OR-ed fuzzy terms over the 100k-word vocabulary
//   3. ORDER BY 150 keys on the indexed cache
// and prints per case: status, time, the probe's worst answer, the server's RSS growth and CPU time
// (from /proc), and the longest event-loop block the server's own monitorEventLoopDelay saw.
// BENCH_LIMITS='query-timeout=5000,query-rows=20000' passes limits; BENCH_CASES='1,3' picks cases.
const { mkdtempSync, rmSync, readFileSync } = require('node:fs');
const { tmpdir, loadavg } = require('node:os');
const { join } = require('node:path');
const { spawn } = require('node:child_process');
const http = require('node:http');
const { monitorEventLoopDelay } = require('node:perf_hooks');

const ROOT = process.env.BENCH_ROOT || join(__dirname, '..');
const ENTRIES = Number(process.env.BENCH_ENTRIES || 100_000);
const WORDS = 100_000;
const TYPE = 'budget.Doc';
const SCHEMA = `package budget;
/* @Indexed */
message Doc {
  /* @Basic(sortable = true) */ optional int32 id = 1;
  /* @Text */ optional string bio = 2;
  optional string pad = 3;
}`;

function doc(i) {
  const words = [];
  for (let w = 0; w < 8; w++) words.push(`w${(i * 7919 + w * 104729) % WORDS}`);
  return { _type: TYPE, id: i, bio: words.join(' '), pad: 'x'.repeat(900) };
}

const statusOf = (pid) => readFileSync(`/proc/${pid}/status`, 'utf8');
const rssMb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(statusOf(pid))[1]) / 1024;
/** utime + stime of the process, every thread, in ms. */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

async function server() {
  const { startServer } = require(join(ROOT, 'dist/src/main'));
  const { resolveConfig } = require(join(ROOT, 'dist/src/config/server-config'));
  const { parseMediaType } = require(join(ROOT, 'dist/src/model/media-type'));
  const limits = {};
  for (const kv of (process.env.BENCH_LIMITS || '').split(',').filter(Boolean)) {
    const [k, v] = kv.split('=');
    limits[k.replace(/-([a-z])/g, (_, c) => c.toUpperCase())] = Number(v);
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'grid-bench-budget-'));
  const config = resolveConfig({}, { dataDir, port: 0, host: '127.0.0.1', logLevel: 'silent', durability: 'process', limits }, {});
  const running = await startServer(config, { announce: () => undefined });
  const s = running.services;
  try {
    await s.users.upsert('admin', 'admin-pw', ['admin']);
    await s.users.upsert('observer', 'observer-pw', ['observer']);
    const admin = 'Basic ' + Buffer.from('admin:admin-pw').toString('base64');
    const call = async (method, path, body) => {
      const r = await fetch(running.url + path, { method, body, headers: { Authorization: admin, 'Content-Type': 'application/json' } });
      if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`);
    };
    await call('PUT', '/rest/v2/schemas/budget.proto', SCHEMA);
    const protostream = { encoding: { 'media-type': 'application/x-protostream' } };
    await call('POST', '/rest/v2/caches/plain', JSON.stringify({ 'local-cache': protostream }));
    await call('POST', '/rest/v2/caches/indexed', JSON.stringify({ 'local-cache': { ...protostream, indexing: { enabled: true, 'indexed-entities': [TYPE] } } }));
    const contentType = parseMediaType('application/json');
    for (const cache of ['plain', 'indexed']) {
      const h = s.manager.require(cache);
      const t0 = performance.now();
      for (let i = 0; i < ENTRIES; i += 2000) {
        const writes = [];
        for (let j = i; j < Math.min(ENTRIES, i + 2000); j++) writes.push(s.entries.put(h, { key: Buffer.from(`d${j}`), value: Buffer.from(JSON.stringify(doc(j))), contentType }));
        await Promise.all(writes);
      }
      console.log(`loaded ${ENTRIES} into ${cache} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    }
    if (global.gc) global.gc();
    // the longest event-loop block of each case, measured here by Node itself, at the client's word
    const loop = monitorEventLoopDelay({ resolution: 1 });
    loop.enable();
    const child = spawn(process.execPath, [__filename, 'client', running.url, String(process.pid)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.on('message', (m) => {
      if (m === 'start') loop.reset();
      else child.send(loop.max / 1e6);
    });
    await new Promise((resolve) => child.once('exit', resolve));
    loop.disable();
    // what the machine alone does to a loop that never holds it more than 3 ms (a shared machine preempts)
    loop.reset();
    loop.enable();
    const slices = setInterval(() => { const t = performance.now(); while (performance.now() - t < 3); }, 4);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    clearInterval(slices);
    loop.disable();
    console.log(`noise floor: longest event-loop delay of a loop doing only 3 ms slices for 3 s: ${(loop.max / 1e6).toFixed(0)} ms`);
  } finally {
    await running.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** GET as observer; the body counted, not kept. */
function get(url, path) {
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(path, url), { headers: { Authorization: 'Basic ' + Buffer.from('observer:observer-pw').toString('base64') } }, (res) => {
      let bytes = 0;
      let head = '';
      res.on('data', (c) => {
        if (head.length < 300) head += c.toString('utf8', 0, Math.min(c.length, 300));
        bytes += c.length;
      });
      res.on('end', () => resolve({ status: res.statusCode, bytes, head: head.slice(0, 300) }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function client(url, pid) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const measure = async (label, path) => {
    let worst = 0;
    let running = true;
    const probe = (async () => {
      while (running) {
        const t = performance.now();
        await new Promise((resolve) => http.get(new URL('/rest/v2/container/health/status', url), { agent }, (res) => { res.resume(); res.on('end', resolve); }).on('error', resolve));
        worst = Math.max(worst, performance.now() - t);
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    const rss0 = rssMb(pid);
    let rssMax = rss0;
    const sampler = setInterval(() => { rssMax = Math.max(rssMax, rssMb(pid)); }, 10);
    const cpu0 = cpuMs(pid);
    process.send('start');
    const t0 = performance.now();
    const r = await get(url, path);
    const ms = performance.now() - t0;
    await new Promise((res) => setTimeout(res, 150));
    const blocked = new Promise((res) => process.once('message', res));
    process.send('end');
    const loopMs = await blocked;
    running = false;
    await probe;
    clearInterval(sampler);
    const cpu = cpuMs(pid) - cpu0;
    console.log(`${label}: ${r.status}, ${(r.bytes / 1e6).toFixed(1)} MB in ${(ms / 1000).toFixed(2)} s; longest event-loop block ${loopMs.toFixed(0)} ms; probe worst ${worst.toFixed(0)} ms; RSS +${(rssMax - rss0).toFixed(0)} MB; server CPU ${(cpu / 1000).toFixed(1)} s`);
    if (r.status !== 200) console.log(`   ${r.head}`);
  };
  const search = (cache, q, extra = '') => `/rest/v2/caches/${cache}?action=search&query=${encodeURIComponent(q)}${extra}`;
  const cases = (process.env.BENCH_CASES || '1,2,3,4').split(',').map(Number);
  // warm-up, not measured: the first answers of a fresh process pay for compilation and heap growth
  for (let i = 0; i < 3; i++) {
    await get(url, search('plain', `from ${TYPE} where id < 10000`, '&max_results=0'));
    await get(url, search('indexed', `from ${TYPE} where id < 10000 order by id`, '&max_results=100'));
  }
  if (cases.includes(1)) {
    await measure('scan, max_results=2147483647', search('plain', `from ${TYPE}`, '&max_results=2147483647'));
    await measure('indexed, max_results=2147483647', search('indexed', `from ${TYPE} where id >= 0`, '&max_results=2147483647'));
  }
  if (cases.includes(2)) {
    const fuzzy = Array.from({ length: 300 }, (_, i) => `bio : 'w${(i * 331) % WORDS}'~2`).join(' OR ');
    await measure('300 OR-ed fuzzy terms', search('indexed', `from ${TYPE} where ${fuzzy}`));
  }
  if (cases.includes(3)) {
    const keys = Array.from({ length: 150 }, (_, i) => (i % 2 ? 'id desc' : 'id')).join(', ');
    await measure('ORDER BY 150 keys (indexed)', search('indexed', `from ${TYPE} where id < 100 order by ${keys}`));
  }
  if (cases.includes(4)) {
    // a page that fits: the default limits' largest answer
    await measure('scan, max_results=10000', search('plain', `from ${TYPE} where id < 10000`, '&max_results=10000'));
    await measure('indexed, max_results=10000, sorted', search('indexed', `from ${TYPE} where id < 10000 order by id desc`, '&max_results=10000'));
  }
  agent.destroy();
  process.disconnect();
  console.log(`load average: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
}

if (process.argv[2] === 'client') client(process.argv[3], Number(process.argv[4])).catch((e) => { console.error(e); process.exit(1); });
else server().catch((e) => { console.error(e); process.exit(1); });

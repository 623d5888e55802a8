'use strict';
// `node bench/redis-reaper.js` (after `npm run build`; needs redis-server): the redis engine's
// expiry reaper and expiry events on a throwaway 3-master + 3-replica cluster, through
// RedisCacheData from one process (`appendfsync everysec`: the engine, not the disk) —
// docs/scale-out.md "Entry events" holds the figures.
//
// 1. An idle run (nothing expired) over the 256 segments of a cache: empty, with 20,000 immortal
//    entries, with 20,000 mortal ones not yet expired. Wall time, this process's CPU and the masters'
//    CPU (INFO cpu) per run, RUNS runs each. `PER_SEGMENT=1` asks every segment (REAP to each, as
//    without the DUE question) for comparison.
// 2. A full run: 20,000 entries expired at once, a listener on this node; the run removes at most
//    REAP_PER_SEGMENT per segment. Time, entries removed, and the longest event-loop delay meanwhile.
// 3. From a read through node A that finds an entry expired to a listener on node B hearing it
//    (two clients, two event feeds): p50, p99, max over LATENCY_KEYS keys, one read at a time.
// 4. Two grid processes (`bin/grid start --engine redis`), a cache reaped every second, an SSE
//    listener on node A: HTTP_KEYS entries written through node B expire together; the slowest
//    answer of each node's health probe while both nodes reap them and A's listener hears every
//    expiry, against the same probe over as long a quiet time before.
const { join } = require('node:path');
const { monitorEventLoopDelay } = require('node:perf_hooks');
const { mkdtempSync } = require('node:fs');
const lib = require('./lib');

const { ROOT, withThrowawayCluster } = lib;

const { RedisEntries, REAP_PER_SEGMENT } = require(join(ROOT, 'dist/src/store/redis/redis-entries.js'));
const { EntryEventFeed } = require(join(ROOT, 'dist/src/store/redis/entry-event-feed.js'));
const { RedisCacheData } = require(join(ROOT, 'dist/src/grid/redis-cache-data.js'));
const { ManualClock, systemClock } = require(join(ROOT, 'dist/src/util/clock.js'));

const RUNS = Number(process.env.RUNS ?? 50);
/** Expired entries per segment a run removes (REAP_PER_SEGMENT unless given). */
const LIMIT = Number(process.env.LIMIT ?? 0);
const KEYS = 20000;
const LATENCY_KEYS = Number(process.env.LATENCY_KEYS ?? 300);
const HTTP_KEYS = Number(process.env.HTTP_KEYS ?? 20000);
const EXPIRES_IN_S = Number(process.env.EXPIRES_IN_S ?? 40);
const VALUE = Buffer.alloc(100, 'v');
const key = (i) => Buffer.from(`key-${i}`);
const round = (n) => Math.round(n * 100) / 100;

async function fill(data, lifespan) {
  for (let i = 0; i < KEYS; i += 250) await Promise.all(Array.from({ length: 250 }, (_, j) => data.put(key(i + j), VALUE, null, { lifespan, maxIdle: -1 }, 0)));
}

/** CPU seconds the masters spent so far (INFO cpu, user + sys). */
async function mastersCpu(client) {
  let total = 0;
  for (const node of client.nodes('master')) {
    const info = await node.info('cpu');
    for (const field of ['used_cpu_sys', 'used_cpu_user']) total += Number(new RegExp(`${field}:([0-9.]+)`).exec(info)[1]);
  }
  return total;
}

async function idle(client, label, lifespan) {
  const entries = new RedisEntries(client, `idle-${label}`);
  if (process.env.PER_SEGMENT === '1') entries.dueSegments = async () => entries.segments; // every segment asked: REAP to each
  const data = new RedisCacheData(entries, systemClock);
  if (lifespan !== undefined) await fill(data, lifespan);
  await data.reapExpired(); // the scripts loaded on every master
  const walls = [];
  const redisBefore = await mastersCpu(client);
  const cpuBefore = process.cpuUsage();
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    const removed = await data.reapExpired();
    walls.push(performance.now() - t);
    if (removed !== 0) throw new Error(`an idle run removed ${removed}`);
  }
  const cpu = process.cpuUsage(cpuBefore);
  const redisCpuMs = ((await mastersCpu(client)) - redisBefore) * 1000 / RUNS;
  walls.sort((a, b) => a - b);
  console.log(JSON.stringify({
    phase: 'idle run', cache: label, runs: RUNS, medianMs: round(walls[walls.length >> 1]), maxMs: round(walls[walls.length - 1]),
    nodeCpuMs: round((cpu.user + cpu.system) / 1000 / RUNS), mastersCpuMs: round(redisCpuMs),
  }));
}

async function full(client) {
  const clock = new ManualClock();
  const data = new RedisCacheData(new RedisEntries(client, 'full', undefined, undefined, 'bench-node-00001'), clock);
  await fill(data, 1000);
  clock.advance(1000);
  let heard = 0;
  // roughly what an SSE listener does with an event: its text
  const stop = data.listeners.add((e) => { heard += `event: ${e.type}\ndata: ${e.key.toString()}\n\n`.length > 0 ? 1 : 0; });
  const delay = monitorEventLoopDelay({ resolution: 1 });
  let run = 0;
  for (let left = KEYS; left > 0; run++) {
    delay.reset();
    delay.enable();
    const t = performance.now();
    const cpu = process.cpuUsage();
    const removed = await (LIMIT ? data.store.reap(clock.now(), false, LIMIT) : data.reapExpired());
    const ms = performance.now() - t;
    const used = process.cpuUsage(cpu);
    delay.disable();
    left -= removed;
    console.log(JSON.stringify({
      phase: 'full run', run, removed, ms: Math.round(ms), nodeCpuMs: Math.round((used.user + used.system) / 1000), longestLoopDelayMs: round(delay.max / 1e6),
      limitPerSegment: LIMIT || REAP_PER_SEGMENT,
    }));
  }
  stop();
  if (heard !== KEYS) throw new Error(`heard ${heard} of ${KEYS}`);
}

async function latency(connect) {
  const [ca, cb] = [await connect(), await connect()];
  const feeds = [new EntryEventFeed(ca, 'bench-node-a0001'), new EntryEventFeed(cb, 'bench-node-b0001')];
  try {
    const clock = new ManualClock();
    const [a, b] = feeds.map((feed, i) => new RedisCacheData(new RedisEntries([ca, cb][i], 'latency', undefined, undefined, feed.node), clock, feed));
    const heardAt = new Map();
    const stop = b.listeners.add((e) => { if (e.type === 'cache-entry-expired') heardAt.set(e.key.toString(), performance.now()); });
    await new Promise((r) => setTimeout(r, 500)); // the subscriptions in place
    for (let i = 0; i < LATENCY_KEYS; i++) await a.put(key(i), VALUE, null, { lifespan: 1000, maxIdle: -1 }, 0);
    clock.advance(1000);
    const delays = [];
    for (let i = 0; i < LATENCY_KEYS; i++) {
      const t = performance.now();
      await a.get(key(i), 0);
      while (!heardAt.has(`key-${i}`)) await new Promise((r) => setImmediate(r));
      delays.push(heardAt.get(`key-${i}`) - t);
    }
    stop();
    delays.sort((x, y) => x - y);
    const at = (q) => round(delays[Math.min(delays.length - 1, Math.floor(q * delays.length))]);
    console.log(JSON.stringify({ phase: 'read on A to listener on B', keys: LATENCY_KEYS, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: round(delays[delays.length - 1]) }));
  } finally {
    for (const f of feeds) f.close();
    ca.disconnect();
    cb.disconnect();
  }
}

/** Asks a node's anonymous health probe one request after the other; `stop` gives the slowest answer (ms). */
function healthProbe(url) {
  let running = true;
  let worst = 0;
  const done = (async () => {
    while (running) {
      const t = performance.now();
      await (await fetch(`${url}/rest/v2/container/health/status`)).text();
      worst = Math.max(worst, performance.now() - t);
      await new Promise((r) => setTimeout(r, 5));
    }
  })();
  return { stop: async () => { running = false; await done; return Math.round(worst); } };
}

/** Counts the `cache-entry-expired` events of an SSE listener. */
async function listen(url, cache) {
  const abort = new AbortController();
  const response = await fetch(`${url}/rest/v2/caches/${cache}?action=listen`, { headers: { Authorization: lib.AUTH }, signal: abort.signal });
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const counts = { expired: 0 };
  let text = '';
  (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      text += decoder.decode(value, { stream: true });
      const blocks = text.split('\n\n');
      text = blocks.pop();
      for (const b of blocks) if (b.includes('event: cache-entry-expired')) counts.expired++;
    }
  })().catch(() => undefined);
  return { counts, close: () => abort.abort() };
}

/** Over HTTP on two redis-engine nodes — or, without `cluster`, on one node of the local engine (A and B the same) for comparison. */
async function overHttp(cluster, seeds) {
  const nodes = [];
  try {
    for (let i = 0; i < (cluster ? 2 : 1); i++) {
      const engine = cluster ? ['--engine', 'redis', '--redis', seeds.join(','), '--redis-password-file', cluster.passwordFile] : [];
      nodes.push(await lib.startServer(['start', '--port', '0', '--data', mkdtempSync(join(lib.TMP, 'node-')), ...engine, '--durability', 'process'],
        { APP_USER: 'bench', APP_PASS: 'bench-pw' }, join(ROOT, 'bin', 'grid'), { pinned: false }));
    }
    const [a, b = a] = nodes;
    await lib.request(a.url, 'POST', '/rest/v2/caches/mortal', '{"local-cache":{"expiration":{"interval":"1000"}}}', { 'Content-Type': 'application/json' });
    await new Promise((r) => setTimeout(r, 500)); // B adopts the cache
    const listener = await listen(a.url, 'mortal');
    // every entry expires within the same second or so, EXPIRES_IN_S after the fill began
    const t0 = performance.now();
    const at = t0 + EXPIRES_IN_S * 1000;
    const value = 'v'.repeat(100);
    for (let i = 0; i < HTTP_KEYS; i += 64) {
      const ttl = String(Math.round((at - performance.now()) / 1000));
      await Promise.all(Array.from({ length: Math.min(64, HTTP_KEYS - i) }, (_, j) => lib.request(b.url, 'PUT', `/rest/v2/caches/mortal/k${i + j}`, value, { timeToLiveSeconds: ttl })));
    }
    const quiet = at - performance.now() - 1000;
    if (quiet < 3000) throw new Error(`the fill took ${Math.round(performance.now() - t0)} ms: too long for EXPIRES_IN_S=${EXPIRES_IN_S}`);
    let probes = [healthProbe(a.url), healthProbe(b.url)];
    await new Promise((r) => setTimeout(r, quiet));
    const before = await Promise.all(probes.map((p) => p.stop()));
    probes = [healthProbe(a.url), healthProbe(b.url)];
    const t1 = performance.now();
    while (listener.counts.expired < HTTP_KEYS) await new Promise((r) => setTimeout(r, 50));
    const heardMs = performance.now() - t1;
    const during = await Promise.all(probes.map((p) => p.stop()));
    listener.close();
    console.log(JSON.stringify({
      phase: 'over HTTP', engine: cluster ? 'redis, two nodes' : 'sqlite, one node', entries: HTTP_KEYS, quietMs: Math.round(quiet), slowestHealthQuietMs: before, allHeardWithinMs: Math.round(heardMs), slowestHealthReapingMs: during,
      loadAverage: lib.loadAverage(),
    }));
  } finally {
    await Promise.all(nodes.map((n) => n.stop()));
  }
}

withThrowawayCluster(async ({ cluster, seeds, setFsync, connect }) => {
  const client = await connect();
  try {
    await setFsync('everysec');
    // PHASES=http: the HTTP phases alone
    if (process.env.PHASES !== 'http') {
      await idle(client, 'empty');
      await idle(client, '20,000 immortal', -1);
      await idle(client, '20,000 mortal, none expired', 3_600_000);
      await full(client);
      await latency(connect);
    }
    await overHttp(cluster, seeds);
    if (process.env.SQLITE !== '0') await overHttp();
  } finally {
    client.disconnect();
  }
}).catch((err) => {
  console.error(err);
  process.exitCode = 1;
});

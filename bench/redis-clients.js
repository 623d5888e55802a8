'use strict';
// `node bench/redis-clients.js` (after `npm run build`; needs redis-server): ioredis against
// node-redis (npm `redis`) in cluster mode, on one throwaway 3-master + 3-replica cluster, in the
// same run — docs/scale-out.md "Client library" holds the figures and the choice. The machine is
// shared: compare the two clients' figures of one round, not figures across runs.
//
// Per round (ROUNDS, default 3), phase by phase, in slices that alternate between the two clients:
// sequential SET/GET, SET/GET with 256 in flight and per-master pipelines of 1000; then both clients under load at
// once (32 in flight each, SET and GET of random keys) while a master is killed with SIGKILL (errors
// seen; time from the kill to the first success on the dead master's slots; the longest operation),
// and again while 500 slots move (`redis-cli --cluster reshard`: failed operations). Last, node-redis's
// RESP3 client-side cache: cold and warm GETs, and how soon another client's SET invalidates it.
// Each client runs with its recommended settings (ioredis: enableAutoPipelining off, its default).
// The nodes run with `appendfsync everysec` here, so that a SET measures the client, not an fsync.
const { join } = require('node:path');
const IORedis = require('ioredis');
const { createCluster } = require('redis');

const ROOT = join(__dirname, '..');
const { withThrowawayCluster } = require('./lib');
const { redisCli, runningPid, sleep, startRedisNode } = require(join(ROOT, 'dist/src/cli/local-redis-node.js'));

const ROUNDS = Number(process.env.ROUNDS ?? 3);
const SEQUENTIAL = Number(process.env.SEQUENTIAL ?? 3000);
// both divisible by SLICES
const CONCURRENT = Number(process.env.CONCURRENT ?? 30000);
const KEYS = 20000;
const VALUE = 'v'.repeat(100);
const OP_DEADLINE_MS = 10_000;
// IOREDIS_AUTOPIPELINING=1: ioredis with enableAutoPipelining on, to see what it costs during a reshard
const AUTOPIPELINING = process.env.IOREDIS_AUTOPIPELINING === '1';

// ---- slots (CRC16/XMODEM of the key, or of its {hash tag}, mod 16384) ----
const CRC = new Uint16Array(256).map((_, i) => {
  let c = i << 8;
  for (let j = 0; j < 8; j++) c = c & 0x8000 ? (c << 1) ^ 0x1021 : c << 1;
  return c & 0xffff;
});
function slotOf(key) {
  const open = key.indexOf('{');
  const close = open < 0 ? -1 : key.indexOf('}', open + 1);
  const tagged = close > open + 1 ? key.slice(open + 1, close) : key;
  let crc = 0;
  for (const b of Buffer.from(tagged)) crc = ((crc << 8) ^ CRC[((crc >> 8) ^ b) & 0xff]) & 0xffff;
  return crc % 16384;
}
const key = (i) => `bench:${i}`;

/** `CLUSTER NODES` of a live node: masters with their ids and slot ranges. */
async function masters(cluster) {
  const live = cluster.nodes.find((n) => runningPid(cluster.dir, n.port) !== undefined);
  const text = await redisCli(live.port, ['CLUSTER', 'NODES'], cluster.password);
  return text.split('\n').map((l) => l.trim().split(' ')).filter(([, , flags]) => flags.includes('master') && !flags.includes('fail')).map((parts) => {
    const [id, addr, , , , , , , ...slots] = parts;
    const ranges = slots.filter((s) => !s.startsWith('[')).map((s) => s.split('-').map(Number)).map(([a, b]) => [a, b ?? a]);
    return { id, address: addr.split('@')[0], ranges };
  });
}
const owner = (ms, slot) => ms.find((m) => m.ranges.some(([a, b]) => slot >= a && slot <= b));

// ---- the two clients behind one face ----
const CLIENTS = {
  async ioredis(cluster, seeds) {
    const c = new IORedis.Cluster(seeds.map((a) => ({ host: a.split(':')[0], port: Number(a.split(':')[1]) })), {
      redisOptions: { password: cluster.password }, enableAutoPipelining: AUTOPIPELINING,
    });
    await new Promise((resolve, reject) => { c.once('ready', resolve); c.once('error', reject); });
    c.on('error', () => {}); // reported per operation
    return {
      set: (k, v) => c.set(k, v), get: (k) => c.get(k),
      async pipeline(keys, write, master) {
        const p = c.nodes('master').find((n) => `${n.options.host}:${n.options.port}` === master).pipeline();
        for (const k of keys) write ? p.set(k, VALUE) : p.get(k);
        return (await p.exec()).filter(([err]) => err).length;
      },
      close: () => c.quit(),
    };
  },
  async 'node-redis'(cluster, seeds, extra = {}) {
    const c = createCluster({ rootNodes: seeds.map((a) => ({ url: `redis://${a}` })), defaults: { password: cluster.password }, ...extra });
    c.on('error', () => {});
    await c.connect();
    return {
      raw: c,
      set: (k, v) => c.set(k, v), get: (k) => c.get(k),
      async pipeline(keys, write, master) {
        const node = c.masters.find((m) => `${m.host}:${m.port}` === master);
        const m = (await c.nodeClient(node)).multi();
        for (const k of keys) write ? m.set(k, VALUE) : m.get(k);
        return (await m.execAsPipeline()).filter((r) => r instanceof Error).length;
      },
      close: () => c.close(),
    };
  },
};

function withDeadline(promise) {
  let timer;
  return Promise.race([promise, new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`no answer within ${OP_DEADLINE_MS} ms`)), OP_DEADLINE_MS); })])
    .finally(() => clearTimeout(timer));
}

const perSecond = (n, ms) => Math.round(n / (ms / 1000));
async function timed(fn) {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

/**
 * Throughput phases measure slices: `slices(n)` returns the phase cut in SLICES parts, and `race`
 * runs them alternately for the two clients (ioredis slice, node-redis slice, …), adding up each
 * client's time — so both see the same load from the rest of a shared machine.
 */
const SLICES = 6;
async function race(clients, names, phase) {
  const ms = Object.fromEntries(names.map((n) => [n, 0]));
  let ops = 0;
  for (let s = 0; s < SLICES; s++) {
    for (const name of s % 2 ? names : [...names].reverse()) {
      const t0 = performance.now();
      ops = await phase(clients[name], s);
      ms[name] += performance.now() - t0;
    }
  }
  return Object.fromEntries(names.map((n) => [n, perSecond(ops * SLICES, ms[n])]));
}

async function sequential(client, write, slice) {
  const n = SEQUENTIAL / SLICES;
  for (let i = slice * n; i < (slice + 1) * n; i++) await (write ? client.set(key(i), VALUE) : client.get(key(i)));
  return n;
}

async function inFlight(client, write, slice, width = 256) {
  const n = CONCURRENT / SLICES;
  let next = slice * n;
  const end = next + n;
  const worker = async () => {
    while (next < end) {
      const i = next++;
      await (write ? client.set(key(i % KEYS), VALUE) : client.get(key(i % KEYS)));
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
  return n;
}

async function pipelines(client, ms, write, slice) {
  const n = CONCURRENT / SLICES;
  const groups = new Map(ms.map((m) => [m.address, []]));
  for (let i = slice * n; i < (slice + 1) * n; i++) groups.get(owner(ms, slotOf(key(i % KEYS))).address).push(key(i % KEYS));
  let failed = 0;
  await Promise.all([...groups].map(async ([master, keys]) => {
    for (let i = 0; i < keys.length; i += 1000) failed += await client.pipeline(keys.slice(i, i + 1000), write, master);
  }));
  if (failed) throw new Error(`${failed} pipelined commands failed on a healthy cluster`);
  return n;
}

/** 32 workers of SET/GET on random keys until `stop()`; every operation's outcome, timed. */
function load(client, width = 32) {
  const ops = [];
  let running = true;
  const worker = async () => {
    for (let n = 0; running; n++) {
      const k = key(Math.floor(Math.random() * KEYS));
      const start = performance.now();
      let error;
      try {
        await withDeadline(n % 2 ? client.get(k) : client.set(k, VALUE));
      } catch (err) {
        error = String(err && err.message).split('\n')[0].replace(/\d+\.\d+\.\d+\.\d+:\d+/g, 'ADDR').replace(/\d+/g, 'N').slice(0, 80);
      }
      ops.push({ slot: slotOf(k), start, end: performance.now(), error });
    }
  };
  const done = Promise.all(Array.from({ length: width }, worker));
  return { ops, stop: () => { running = false; return done; } };
}

function errorKinds(ops) {
  const kinds = {};
  for (const o of ops) if (o.error) kinds[o.error] = (kinds[o.error] ?? 0) + 1;
  return kinds;
}

async function failover(cluster, clients, names) {
  const ms = await masters(cluster);
  const victim = ms[Math.floor(Math.random() * ms.length)];
  const port = Number(victim.address.split(':')[1]);
  const inVictim = (slot) => victim.ranges.some(([a, b]) => slot >= a && slot <= b);
  const loads = clients.map((c) => load(c));
  await sleep(1000);
  const killedAt = performance.now();
  process.kill(runningPid(cluster.dir, port), 'SIGKILL');
  const recoveredAt = (ops) => Math.min(...ops.filter((o) => !o.error && o.start >= killedAt && inVictim(o.slot)).map((o) => o.end));
  for (const end = killedAt + 30_000; performance.now() < end; await sleep(200)) {
    if (loads.every((l) => Number.isFinite(recoveredAt(l.ops)))) break;
  }
  await sleep(2000);
  await Promise.all(loads.map((l) => l.stop()));
  const out = Object.fromEntries(names.map((name, i) => {
    const after = loads[i].ops.filter((o) => o.end >= killedAt);
    return [name, {
      ops: after.length, errors: after.filter((o) => o.error).length, recoveryMs: Math.round(recoveredAt(loads[i].ops) - killedAt),
      longestMs: Math.round(Math.max(...after.map((o) => o.end - o.start))), kinds: errorKinds(after),
    }];
  }));
  // the killed node comes back on its directory, as a replica of whoever took its slots
  await startRedisNode(cluster.dir, cluster.nodes.find((n) => n.port === port), { cluster: true, password: cluster.password, detached: false });
  for (const end = Date.now() + 30_000; Date.now() < end; await sleep(200)) {
    const info = await redisCli(port, ['INFO', 'replication'], cluster.password);
    if (/master_link_status:up/.test(info)) break;
  }
  return out;
}

async function reshard(cluster, clients, names) {
  const ms = await masters(cluster);
  const [from, to] = [ms[0], ms[1]];
  const loads = clients.map((c) => load(c));
  await sleep(500);
  const t0 = performance.now();
  await redisCli(Number(from.address.split(':')[1]), ['--cluster', 'reshard', from.address, '--cluster-from', from.id, '--cluster-to', to.id,
    '--cluster-slots', '500', '--cluster-yes'], cluster.password, 120_000);
  const tookMs = Math.round(performance.now() - t0);
  await sleep(1000);
  await Promise.all(loads.map((l) => l.stop()));
  return Object.fromEntries(names.map((name, i) => [name, {
    ops: loads[i].ops.length, errors: loads[i].ops.filter((o) => o.error).length, reshardMs: tookMs, kinds: errorKinds(loads[i].ops),
  }]));
}

async function clientSideCache(cluster, seeds) {
  const cached = await CLIENTS['node-redis'](cluster, seeds, { RESP: 3, clientSideCache: { ttl: 0, maxEntries: 10_000 } });
  const writer = await CLIENTS.ioredis(cluster, seeds);
  try {
    const n = 1000;
    const cold = await timed(async () => { for (let i = 0; i < n; i++) await cached.get(key(i)); });
    const warm = await timed(async () => { for (let i = 0; i < n; i++) await cached.get(key(i)); });
    const seen = [];
    for (let i = 0; i < 20; i++) {
      const k = key(i);
      const fresh = `changed-${Date.now()}-${i}`;
      await writer.set(k, fresh);
      const t0 = performance.now();
      while ((await cached.get(k)) !== fresh) {
        if (performance.now() - t0 > 5000) throw new Error(`the cache still served the old value of ${k} after 5 s`);
        await sleep(1);
      }
      seen.push(performance.now() - t0);
    }
    return { coldMsPer1000: Math.round(cold), warmMsPer1000: Math.round(warm * 10) / 10, invalidationMaxMs: Math.round(Math.max(...seen) * 10) / 10 };
  } finally {
    await cached.close();
    await writer.close();
  }
}

const ratio = (a, b) => (b ? Math.round((a / b) * 100) / 100 : NaN);

async function main() {
  await withThrowawayCluster(async ({ cluster, seeds, setFsync }) => {
  // the clients, not the disk: with `appendfsync always` every SET waits for an fsync
  await setFsync('everysec');
  const names = Object.keys(CLIENTS);
  const summary = [];
  {
    const prefill = await CLIENTS.ioredis(cluster, seeds);
    for (let s = 0; s < SLICES; s++) await inFlight(prefill, true, s); // every key exists: the reshard moves keys, not only slots
    await prefill.close();
    for (let round = 1; round <= ROUNDS; round++) {
      const clients = Object.fromEntries(await Promise.all(names.map(async (n) => [n, await CLIENTS[n](cluster, seeds)])));
      const ms = await masters(cluster);
      const phases = {
        seqSet: (c, s) => sequential(c, true, s), seqGet: (c, s) => sequential(c, false, s),
        set256: (c, s) => inFlight(c, true, s), get256: (c, s) => inFlight(c, false, s),
        pipeSet: (c, s) => pipelines(c, ms, true, s), pipeGet: (c, s) => pipelines(c, ms, false, s),
      };
      const figures = Object.fromEntries(names.map((n) => [n, {}]));
      for (const [phase, run] of Object.entries(phases)) {
        const perClient = await race(clients, names, run);
        for (const n of names) figures[n][phase] = perClient[n];
      }
      const ratios = Object.fromEntries(Object.keys(figures.ioredis).map((k) => [k, ratio(figures['node-redis'][k], figures.ioredis[k])]));
      const fail = await failover(cluster, names.map((n) => clients[n]), names);
      const moved = await reshard(cluster, names.map((n) => clients[n]), names);
      await Promise.all(names.map((n) => clients[n].close()));
      const row = { round, ops_per_s: figures, 'node-redis/ioredis': ratios, failover: fail, reshard: moved };
      console.log(JSON.stringify(row));
      summary.push(row);
    }
    console.log(JSON.stringify({ clientSideCache: await clientSideCache(cluster, seeds) }));
  }
  });
}

main().then(() => process.exit(0), (err) => { console.error(err); process.exit(1); });

'use strict';
// `node bench/redis-bounded.js` (after `npm run build`; needs redis-server): a bounded cache
// (memory.max-count) against an unbounded one on a throwaway 3-master + 3-replica cluster, through
// RedisCacheData from one process (`appendfsync everysec`: the engine, not the disk) —
// docs/scale-out.md "Bounded caches" holds the figures.
//
// 1. put/get operations per second (100-byte values, 20,000 keys): sequential and 256 in flight,
//    ROUNDS rounds; the bounded cache holds 5,000, so at steady state each put of a new key evicts one.
// 2. A bound lowered from 20,000 to 10: the time of the one write that evicts 19,991 entries (in
//    scripts of at most EVICT_PER_SCRIPT), and the longest PING of the cache's master meanwhile.
const { join } = require('node:path');
const calculateSlot = require('cluster-key-slot');
const { ROOT, inFlight, sequential, withThrowawayCluster } = require('./lib');

const { RedisEntries } = require(join(ROOT, 'dist/src/store/redis/redis-entries.js'));
const { segmentKeysOf } = require(join(ROOT, 'dist/src/store/redis/entry-layout.js'));
const { RedisCacheData } = require(join(ROOT, 'dist/src/grid/redis-cache-data.js'));
const { systemClock } = require(join(ROOT, 'dist/src/util/clock.js'));

const ROUNDS = Number(process.env.ROUNDS ?? 3);
const SEQUENTIAL = Number(process.env.SEQUENTIAL ?? 3000);
const CONCURRENT = Number(process.env.CONCURRENT ?? 30000);
const KEYS = 20000;
const VALUE = Buffer.alloc(100, 'v');
const IMMORTAL = { lifespan: -1, maxIdle: -1 };
const key = (i) => Buffer.from(`key-${i % KEYS}`);

async function throughput(data, label) {
  for (let i = 0; i < KEYS; i += 256) await Promise.all(Array.from({ length: 256 }, (_, j) => data.put(key(i + j), VALUE, null, IMMORTAL, 0)));
  for (let round = 1; round <= ROUNDS; round++) {
    const row = {
      seqPut: await sequential(SEQUENTIAL, (i) => data.put(key(i * 7), VALUE, null, IMMORTAL, 0)),
      seqGet: await sequential(SEQUENTIAL, (i) => data.get(key(i * 7), 0)),
      put256: await inFlight(CONCURRENT, 256, (i) => data.put(key(i * 7), VALUE, null, IMMORTAL, 0)),
      get256: await inFlight(CONCURRENT, 256, (i) => data.get(key(i * 7), 0)),
    };
    console.log(JSON.stringify({ phase: 'throughput', cache: label, round, ...row }));
  }
}

async function lowered(client) {
  let bounds = { maxCount: KEYS, maxSize: -1, refuse: false };
  const data = new RedisCacheData(new RedisEntries(client, 'lowered', undefined, undefined, '', { bounds: () => bounds }), systemClock);
  for (let i = 0; i < KEYS; i += 256) await Promise.all(Array.from({ length: 256 }, (_, j) => data.put(key(i + j), VALUE, null, IMMORTAL, 0)));
  const slot = calculateSlot(segmentKeysOf('lowered', 1)[0].keys);
  const master = client.nodes('master').find((n) => client.slots[slot][0] === `${n.options.host}:${n.options.port}`);
  let longestPing = 0;
  let probing = true;
  const probe = (async () => {
    while (probing) {
      const t = performance.now();
      await master.ping();
      longestPing = Math.max(longestPing, performance.now() - t);
    }
  })();
  bounds = { maxCount: 10, maxSize: -1, refuse: false };
  const t = performance.now();
  await data.put(Buffer.from('last'), VALUE, null, IMMORTAL, 0);
  const ms = performance.now() - t;
  probing = false;
  await probe;
  console.log(JSON.stringify({ phase: 'lowered', evicted: KEYS + 1 - 10, size: await data.size(0), writeMs: Math.round(ms), longestPingMs: Math.round(longestPing * 10) / 10 }));
}

withThrowawayCluster(async ({ setFsync, connect }) => {
  const client = await connect();
  try {
    await setFsync('everysec');
    await throughput(new RedisCacheData(new RedisEntries(client, 'unbounded'), systemClock), 'unbounded');
    await throughput(new RedisCacheData(new RedisEntries(client, 'bounded', undefined, undefined, '', { bounds: () => ({ maxCount: 5000, maxSize: -1, refuse: false }) }), systemClock), 'max-count 5000');
    await lowered(client);
  } finally {
    client.disconnect();
  }
}).catch((err) => {
  console.error(err);
  process.exitCode = 1;
});

'use strict';
// `node --expose-gc bench/redis-entries.js` (after `npm run build`; needs redis-server): the entries
// of a cache on a throwaway 3-master + 3-replica cluster, through RedisCacheData from one process —
// docs/scale-out.md "Entries" holds the figures.
//
// 1. get/put operations per second (100-byte values): sequential (`await` each) and 256 in flight,
//    ROUNDS rounds; the nodes run with `appendfsync everysec` (the engine, not the disk), then one
//    round of put with `appendfsync always` (what `--durability power` needs).
// 2. A listing of 20,000 entries of 4 KB: size, keys, entries (time; the process's RSS growth from a
//    collected heap; the Buffers still held, sampled after full collections along a second walk), clear.
// 3. The layout: each segment's key indexes (what grid does) against none, the whole-cache
//    operations then being a SCAN of every master with MATCH on the cache's prefix and HMGETs in
//    per-master pipelines of 256 — put rate, memory per entry, size and listing times, with the
//    cache alone on the cluster and again after 200,000 keys of other data were added.
const { join } = require('node:path');
const { ROOT, inFlight, sequential, withThrowawayCluster } = require('./lib');

const { RedisEntries } = require(join(ROOT, 'dist/src/store/redis/redis-entries.js'));
const { entryKeyOf, segmentKeysOf, segmentOf } = require(join(ROOT, 'dist/src/store/redis/entry-layout.js'));
const { RedisCacheData } = require(join(ROOT, 'dist/src/grid/redis-cache-data.js'));
const { etagOf } = require(join(ROOT, 'dist/src/model/etag.js'));
const { systemClock } = require(join(ROOT, 'dist/src/util/clock.js'));

const ROUNDS = Number(process.env.ROUNDS ?? 3);
const SEQUENTIAL = Number(process.env.SEQUENTIAL ?? 3000);
const CONCURRENT = Number(process.env.CONCURRENT ?? 30000);
const KEYS = 20000;
const LISTED = 20000;
const OTHER_KEYS = 200000;
const VALUE = Buffer.alloc(100, 'v');
const IMMORTAL = { lifespan: -1, maxIdle: -1 };
const key = (i) => Buffer.from(`key-${i % KEYS}`);

// PUT as grid's, less the index lines (the pruning, ZADD/ZREM of the two sorted sets): the layout
// without per-segment indexes, for the comparison
const PLAIN_PUT = `#!lua
local function expiresAt(c, u, l, i)
  local at = nil
  if l >= 0 then at = c + l end
  if i >= 0 and (at == nil or u + i < at) then at = u + i end
  return at
end
local now = tonumber(ARGV[2])
local cur = redis.call('HMGET', KEYS[1], 'c', 'u', 'l', 'i', 'e')
local live = false
if cur[1] then
  local at = expiresAt(tonumber(cur[1]), tonumber(cur[2]), tonumber(cur[3]), tonumber(cur[4]))
  live = at == nil or at > now
end
if live and (ARGV[10] == 'absent' or (ARGV[10] == 'unless-etag' and cur[5] == ARGV[11])) then return 0 end
redis.call('HSET', KEYS[1], 'v', ARGV[3], 'c', ARGV[5], 'u', ARGV[6], 'l', ARGV[7], 'i', ARGV[8], 'e', ARGV[9])
if ARGV[4] == '' then redis.call('HDEL', KEYS[1], 't') else redis.call('HSET', KEYS[1], 't', ARGV[4]) end
local at = expiresAt(tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7]), tonumber(ARGV[8]))
if at then redis.call('PEXPIREAT', KEYS[1], at) else redis.call('PERSIST', KEYS[1]) end
if live then return 2 end
return 1
`;

const mb = (n) => (n / 1024 / 1024).toFixed(1);

async function collectGarbage() {
  for (let i = 0; i < 3; i++) {
    await new Promise((resolve) => setImmediate(resolve));
    global.gc?.();
  }
}

/** The masters' used_memory, once no UNLINKed value is still being freed in the background. */
async function usedMemory(client) {
  const pending = async () => (await Promise.all(client.nodes('master').map((n) => n.info('memory'))))
    .some((text) => Number(/lazyfree_pending_objects:(\d+)/.exec(text)[1]) > 0);
  while (await pending()) await new Promise((resolve) => setTimeout(resolve, 50));
  const infos = await Promise.all(client.nodes('master').map((n) => n.info('memory')));
  return infos.reduce((sum, text) => sum + Number(/used_memory:(\d+)/.exec(text)[1]), 0);
}

/** The SCAN layout's whole-cache walk: every master, MATCH on the prefix; with `values`, HMGETs in pipelines of 256. */
async function scanWalk(client, prefix, values) {
  let count = 0;
  await Promise.all(client.nodes('master').map(async (node) => {
    let cursor = '0';
    do {
      const [next, keys] = await node.scanBuffer(cursor, 'MATCH', prefix, 'COUNT', 1000);
      cursor = next.toString();
      if (!values) {
        count += keys.length;
        continue;
      }
      for (let i = 0; i < keys.length; i += 256) {
        const p = node.pipeline();
        for (const k of keys.slice(i, i + 256)) p.hmgetBuffer(k, 'v', 't', 'c', 'u', 'l', 'i');
        const found = (await p.exec()).filter(([err, f]) => !err && f[0]).length;
        count += found;
      }
    } while (cursor !== '0');
  }));
  return count;
}

async function timed(fn) {
  const t = performance.now();
  const result = await fn();
  return { result, ms: Math.round(performance.now() - t) };
}

async function throughput(data, label) {
  for (let i = 0; i < KEYS; i += 256) await Promise.all(Array.from({ length: 256 }, (_, j) => data.put(key(i + j), VALUE, null, IMMORTAL, 0)));
  for (let round = 1; round <= ROUNDS; round++) {
    const row = {
      seqPut: await sequential(SEQUENTIAL, (i) => data.put(key(i), VALUE, null, IMMORTAL, 0)),
      seqGet: await sequential(SEQUENTIAL, (i) => data.get(key(i), 0)),
      put256: await inFlight(CONCURRENT, 256, (i) => data.put(key(i), VALUE, null, IMMORTAL, 0)),
      get256: await inFlight(CONCURRENT, 256, (i) => data.get(key(i), 0)),
    };
    console.log(JSON.stringify({ phase: 'throughput', appendfsync: label, round, ...row }));
  }
}

async function listing(client) {
  const data = new RedisCacheData(new RedisEntries(client, 'listing'), systemClock);
  const value = Buffer.alloc(4096, 'x');
  for (let i = 0; i < LISTED; i += 256) await Promise.all(Array.from({ length: Math.min(256, LISTED - i) }, (_, j) => data.put(Buffer.from(`entry-${i + j}`), value, null, IMMORTAL, 0)));
  const size = await timed(() => data.size(0));
  const keys = await timed(async () => {
    let n = 0;
    for await (const _ of data.keysAsync()) n++;
    return n;
  });
  await collectGarbage();
  const base = process.memoryUsage.rss();
  const buffersBase = process.memoryUsage().arrayBuffers;
  let peak = base;
  let buffersPeak = buffersBase;
  const entries = await timed(async () => {
    let n = 0;
    for await (const _ of data.entriesAsync()) if (++n % 100 === 0) peak = Math.max(peak, process.memoryUsage.rss());
    return n;
  });
  // the same walk again, pausing every 2,000 entries for a full collection: what it holds, not what it left to collect
  let n = 0;
  for await (const _ of data.entriesAsync()) {
    if (++n % 2000 === 0) {
      await collectGarbage();
      buffersPeak = Math.max(buffersPeak, process.memoryUsage().arrayBuffers);
    }
  }
  const clear = await timed(() => data.clear());
  console.log(JSON.stringify({
    phase: 'listing', entries: LISTED, valueBytes: value.length, sizeMs: size.ms, keysMs: keys.ms, entriesMs: entries.ms, clearMs: clear.ms,
    counted: [size.result, keys.result, entries.result], rssBeforeMB: mb(base), rssPeakGrowthMB: mb(peak - base), heldBuffersPeakGrowthMB: mb(buffersPeak - buffersBase),
  }));
}

async function layout(client) {
  client.defineCommand('benchPlainPut', { lua: PLAIN_PUT, numberOfKeys: 3 });
  const indexed = new RedisEntries(client, 'indexed');
  const plainSegments = segmentKeysOf('plain');
  const now = Date.now();
  const entry = (i) => {
    const k = Buffer.from(`key-${i}`);
    return { key: k, value: VALUE, valueType: null, created: now, lastUsed: now, lifespan: -1, maxIdle: -1, etag: etagOf(VALUE) };
  };
  const plainPut = (e) => {
    const s = plainSegments[segmentOf(e.key)];
    return client.benchPlainPutBuffer(entryKeyOf(s, e.key), s.keys, s.expiries, e.key, now, e.value, '', e.created, e.lastUsed, e.lifespan, e.maxIdle, e.etag, '', '', s.entryPrefix);
  };
  // alternating rounds of 20,000 new entries each, the cache's own key set per round
  for (let round = 1; round <= ROUNDS; round++) {
    const row = { phase: 'layout-writes', round, entries: KEYS };
    for (const [name, write] of [['Plain', plainPut], ['Indexed', (e) => indexed.write(e, now)]]) {
      const before = await usedMemory(client);
      row[`putPerSec${name}`] = await inFlight(KEYS, 256, (i) => write(entry(round * KEYS + i)));
      row[`bytesPerEntry${name}`] = Math.round((await usedMemory(client) - before) / KEYS);
    }
    console.log(JSON.stringify(row));
  }
  const walks = async (others) => {
    const sizeIndexed = await timed(() => indexed.count(Date.now()));
    const sizeScan = await timed(() => scanWalk(client, 'e:{plain:*', false));
    const listIndexed = await timed(async () => {
      let n = 0;
      for await (const _ of indexed.entries(() => Date.now())) n++;
      return n;
    });
    const listScan = await timed(() => scanWalk(client, 'e:{plain:*', true));
    console.log(JSON.stringify({
      phase: 'layout-walks', otherKeys: others, sizeMsIndexed: sizeIndexed.ms, sizeMsScan: sizeScan.ms, listMsIndexed: listIndexed.ms, listMsScan: listScan.ms,
      counted: [sizeIndexed.result, sizeScan.result, listIndexed.result, listScan.result],
    }));
  };
  await walks(0);
  await inFlight(OTHER_KEYS, 256, (i) => client.set(`other:${i}`, VALUE));
  await walks(OTHER_KEYS);
}

async function main() {
  await withThrowawayCluster(async ({ setFsync, connect }) => {
    const client = await connect();
    try {
      await setFsync('everysec');
      const data = new RedisCacheData(new RedisEntries(client, 'bench'), systemClock);
      await throughput(data, 'everysec');
      await listing(client);
      await layout(client);
      await setFsync('always');
      const put = await inFlight(CONCURRENT, 256, (i) => data.put(key(i), VALUE, null, IMMORTAL, 0));
      const seqPut = await sequential(SEQUENTIAL, (i) => data.put(key(i), VALUE, null, IMMORTAL, 0));
      console.log(JSON.stringify({ phase: 'throughput', appendfsync: 'always', seqPut, put256: put }));
    } finally {
      client.disconnect();
    }
  });
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});

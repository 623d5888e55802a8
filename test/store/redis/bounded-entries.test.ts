import { expect } from 'chai';
import type { Cluster } from 'ioredis';
import fc from 'fast-check';
import { MemoryTier } from '../../../src/grid/memory-tier';
import { etagOf } from '../../../src/model/etag';
import { entrySize } from '../../../src/model/stored-entry';
import { EVICT_PER_SCRIPT } from '../../../src/store/redis/bounded-entry-scripts';
import { entryKeyOf, segmentKeysOf } from '../../../src/store/redis/entry-layout';
import { type EntryBounds, type EntryRecord, RedisEntries } from '../../../src/store/redis/redis-entries';
import { itemsOf } from '../../support/pages';
import { useClusterClients } from '../../support/redis-client';
import { throwawayCluster } from '../../support/redis-cluster';

// A bounded cache's entries on a real 3+3 Redis Cluster (docs/scale-out.md, "Bounded caches"):
// one segment, and each write keeps max-count and max-size exactly, as the local memory tier does.

let cacheIds = 0;

/** A bounded cache whose bound the test may change between writes; `evicted` adds up what the writes report. */
function boundedCache(client: Cluster, initial: EntryBounds, id = `b${++cacheIds}`) {
  const state = { bounds: initial, evicted: 0 };
  const entries = new RedisEntries(client, id, undefined, undefined, '', { bounds: () => state.bounds, evicted: (n) => { state.evicted += n; } });
  return { id, entries, state, segment: segmentKeysOf(id, 1)[0] };
}

function record(key: string, value: Buffer | string, now: number, expiry: { lifespan?: number; maxIdle?: number } = {}): EntryRecord {
  const v = Buffer.from(value);
  return { key: Buffer.from(key), value: v, valueType: null, created: now, lastUsed: now, lifespan: expiry.lifespan ?? -1, maxIdle: expiry.maxIdle ?? -1, etag: etagOf(v) };
}

const weight = (key: string, valueBytes: number) => entrySize({ key: Buffer.from(key), value: Buffer.alloc(valueBytes) });

describe('RedisEntries of a bounded cache on Redis Cluster', function () {
  this.timeout(120_000);
  const redis = throwawayCluster();
  const clients = useClusterClients(redis);

  /** What the segment holds, read by the test itself: keys (sorted), recency order, expiries, the weight sum, and the entries' hashes. */
  async function heldBy(c: ReturnType<typeof boundedCache>) {
    const { client } = clients;
    const keys = (await client.zrangeBuffer(c.segment.keys, 0, '-1')).map((k) => k.toString());
    const recency = (await client.zrangeBuffer(c.segment.recency, 0, '-1')).map((k) => k.toString());
    const expiries = (await client.zrangeBuffer(c.segment.expiries, 0, '-1')).map((k) => k.toString());
    const bytes = Number(await client.hget(c.segment.sums, 's') ?? 0);
    const hashes = await Promise.all(keys.map(async (k) => {
      const value = await client.hgetBuffer(entryKeyOf(c.segment, Buffer.from(k)), 'v');
      return value && weight(k, value.length);
    }));
    return { keys, recency, expiries, bytes, weighed: hashes.reduce<number>((n, w) => n + (w ?? 0), 0), missing: hashes.filter((w) => w === null).length };
  }

  it('puts every key of the cache in its one segment, one hash slot', async () => {
    const c = boundedCache(clients.client, { maxCount: 100, maxSize: -1, refuse: false });
    const now = Date.now();
    for (let i = 0; i < 50; i++) await c.entries.write(record(`k${i}`, 'v', now), now);
    const slot = await clients.client.cluster('KEYSLOT', c.segment.keys) as number;
    for (const name of [c.segment.recency, c.segment.sums, c.segment.expiries, entryKeyOf(c.segment, Buffer.from('k7'))]) {
      expect(await clients.client.cluster('KEYSLOT', name)).to.equal(slot);
    }
    expect((await heldBy(c)).keys).to.have.length(50);
    expect(await c.entries.count(now)).to.equal(50);
    const listed: Buffer[] = [];
    for await (const k of itemsOf(c.entries.keys(() => now))) listed.push(k);
    expect(listed).to.have.length(50);
  });

  it('holds, after every put, read, peek and remove, exactly the entries the local memory tier holds, with their weight summed', async () => {
    // the local engine's tier (src/grid/memory-tier.ts) is the reference: the same limits, the same operations
    await fc.assert(fc.asyncProperty(
      fc.record({ maxCount: fc.integer({ min: 1, max: 6 }), maxSize: fc.constantFrom(-1, 600, 1500) }),
      fc.array(fc.tuple(fc.constantFrom('put', 'put', 'put', 'get', 'get', 'peek', 'remove'), fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 700 })), { minLength: 20, maxLength: 60 }),
      async ({ maxCount, maxSize }, ops) => {
        const c = boundedCache(clients.client, { maxCount, maxSize, refuse: false });
        const tier = new MemoryTier({ maxCount, maxSize });
        let tierEvicted = 0;
        const now = Date.now();
        for (const [op, k, bytes] of ops) {
          const key = `k${k}`;
          if (op === 'put') {
            const e = record(key, Buffer.alloc(bytes, 1), now);
            await c.entries.write(e, now);
            tierEvicted += tier.set(key, e).length;
          } else if (op === 'get' || op === 'peek') {
            const read = await c.entries.read(Buffer.from(key), now, op === 'get');
            const local = op === 'get' ? tier.get(key) : tier.peek(key);
            expect(read?.value.length).to.equal(local?.value.length);
          } else {
            await c.entries.remove(Buffer.from(key), now);
            tier.delete(key);
          }
          const held = await heldBy(c);
          const expected = [...tier.entries()].map(([id]) => id); // least recently used first
          expect(held.recency).to.deep.equal(expected);
          expect(held.keys).to.deep.equal([...expected].sort());
          expect(held.bytes).to.equal(tier.usedBytes);
          expect(held.weighed).to.equal(tier.usedBytes);
          expect(held.missing).to.equal(0);
        }
        expect(c.state.evicted).to.equal(tierEvicted);
      },
    ), { numRuns: 30 });
  });

  it('evicts the least recently used: a read (from another client, another node) makes an entry recent, a peek does not', async () => {
    const c = boundedCache(clients.client, { maxCount: 3, maxSize: -1, refuse: false });
    const otherNode = new RedisEntries(clients.other, c.id, undefined, undefined, '', { bounds: () => c.state.bounds });
    const now = Date.now();
    for (const k of ['a', 'b', 'c']) await c.entries.write(record(k, k, now), now);
    expect(await otherNode.read(Buffer.from('a'), now, true)).to.not.equal(undefined);
    expect(await otherNode.read(Buffer.from('b'), now, false)).to.not.equal(undefined);
    expect(await c.entries.write(record('d', 'd', now), now)).to.equal('created');
    expect((await heldBy(c)).recency).to.deep.equal(['c', 'a', 'd']);
    expect(await otherNode.write(record('e', 'e', now), now)).to.equal('created');
    expect((await heldBy(c)).recency).to.deep.equal(['a', 'd', 'e']);
    expect(c.state.evicted).to.equal(1); // the other node's eviction was told to it, not here
  });

  it('evicts at once an entry heavier than max-size on its own, keeping the others; replacing a key so removes its old entry too', async () => {
    const c = boundedCache(clients.client, { maxCount: -1, maxSize: 1000, refuse: false });
    const now = Date.now();
    await c.entries.write(record('small', 'x'.repeat(200), now), now);
    await c.entries.write(record('k', 'x'.repeat(100), now), now);
    expect(await c.entries.write(record('big', 'x'.repeat(5000), now), now)).to.equal('created');
    expect(await c.entries.read(Buffer.from('big'), now, false)).to.equal(undefined);
    expect(await c.entries.write(record('k', 'x'.repeat(5000), now), now)).to.equal('replaced');
    const held = await heldBy(c);
    expect(held.keys).to.deep.equal(['small']);
    expect(held.bytes).to.equal(weight('small', 200));
    expect(c.state.evicted).to.equal(2);
  });

  it('keeps count and bytes right through expiry: expired entries leave with the next write and take no room', async () => {
    const c = boundedCache(clients.client, { maxCount: 4, maxSize: -1, refuse: false });
    const t0 = Date.now();
    await c.entries.write(record('m1', 'v', t0, { lifespan: 1000 }), t0);
    await c.entries.write(record('m2', 'vv', t0, { maxIdle: 1000 }), t0);
    await c.entries.write(record('keep1', 'v', t0), t0);
    await c.entries.write(record('keep2', 'v', t0), t0);
    expect(await clients.client.pttl(entryKeyOf(c.segment, Buffer.from('m1')))).to.equal(-1); // no Redis expiry: the scripts remove it, keeping the sum
    // a read moves the idle entry's expiry (and its recency)
    await c.entries.read(Buffer.from('m2'), t0 + 900, true);
    expect(Number(await clients.client.zscore(c.segment.expiries, 'm2'))).to.equal(t0 + 1900);
    const t1 = t0 + 1000; // m1 expired; m2 lives until t0 + 1900
    expect(await c.entries.count(t1)).to.equal(3);
    await c.entries.write(record('new', 'v', t1), t1); // the expired entry goes: nothing live is evicted
    let held = await heldBy(c);
    expect(held.keys).to.deep.equal(['keep1', 'keep2', 'm2', 'new']);
    expect(held.bytes).to.equal(weight('keep1', 1) + weight('keep2', 1) + weight('m2', 2) + weight('new', 1));
    expect(c.state.evicted).to.equal(0);
    const t2 = t0 + 1900;
    await c.entries.write(record('new2', 'v', t2), t2);
    held = await heldBy(c);
    expect(held.keys).to.deep.equal(['keep1', 'keep2', 'new', 'new2']);
    expect(held.expiries).to.deep.equal([]);
    expect(held.bytes).to.equal(held.weighed);
    expect(c.state.evicted).to.equal(0);
  });

  it('reaps expired entries with their weight, at most `limit` a run, each told once, a read finding one removes it too', async () => {
    const c = boundedCache(clients.client, { maxCount: 100, maxSize: -1, refuse: false });
    const told: string[] = [];
    c.entries.expired.add((k) => told.push(k.toString()));
    const t0 = Date.now();
    for (let i = 0; i < 5; i++) await c.entries.write(record(`m${i}`, 'v'.repeat(i + 1), t0, { lifespan: 1000 }), t0);
    await c.entries.write(record('idle', 'v', t0, { maxIdle: 1000 }), t0);
    await c.entries.write(record('keep', 'v', t0), t0);
    const t1 = t0 + 1000;
    expect(await c.entries.read(Buffer.from('idle'), t1, true)).to.equal(undefined);
    expect(await c.entries.reap(t1, false, 2)).to.equal(2);
    expect(await c.entries.reap(t1, false, 2)).to.equal(2);
    expect(await c.entries.reap(t1, false, 2)).to.equal(1);
    expect(await c.entries.reap(t1, false, 2)).to.equal(0);
    expect([...told].sort()).to.deep.equal(['idle', 'm0', 'm1', 'm2', 'm3', 'm4']);
    const held = await heldBy(c);
    expect([held.keys, held.recency, held.expiries]).to.deep.equal([['keep'], ['keep'], []]);
    expect(held.bytes).to.equal(weight('keep', 1));
    expect(held.missing).to.equal(0);
  });

  it('refuses a write past the bound with when-full EXCEPTION and changes nothing; a replace within it and a remove go on', async () => {
    const c = boundedCache(clients.client, { maxCount: 2, maxSize: -1, refuse: true });
    const now = Date.now();
    await c.entries.write(record('a', '1', now), now);
    await c.entries.write(record('b', '2', now), now);
    const before = await heldBy(c);
    const dump = async () => Promise.all([c.segment.keys, c.segment.recency, c.segment.sums, c.segment.expiries].map((k) => clients.client.dumpBuffer(k)));
    const raw = await dump();
    expect(await c.entries.write(record('c', '3', now), now)).to.equal('full');
    expect(await c.entries.write(record('c', '3', now), now, { absent: true })).to.equal('full');
    expect(await heldBy(c)).to.deep.equal(before);
    expect(await dump()).to.deep.equal(raw);
    expect(await clients.client.exists(entryKeyOf(c.segment, Buffer.from('c')))).to.equal(0);
    expect(await c.entries.write(record('a', 'replaced', now), now)).to.equal('replaced');
    expect(await c.entries.remove(Buffer.from('b'), now)).to.equal('removed');
    expect(await c.entries.write(record('c', '3', now), now)).to.equal('created');
    expect((await heldBy(c)).keys).to.deep.equal(['a', 'c']);
    expect(c.state.evicted).to.equal(0);

    // by bytes: a replace that would grow past max-size is refused too, and expired entries make room
    const s = boundedCache(clients.client, { maxCount: -1, maxSize: weight('a', 100) + weight('b', 100), refuse: true });
    await s.entries.write(record('a', 'x'.repeat(100), now), now);
    await s.entries.write(record('b', 'x'.repeat(100), now, { lifespan: 10 }), now);
    expect(await s.entries.write(record('a', 'x'.repeat(101), now), now)).to.equal('full');
    expect(await s.entries.write(record('a', 'x'.repeat(200), now + 10), now + 10)).to.equal('replaced'); // b expired at now + 10
    expect(await heldBy(s)).to.deep.include({ keys: ['a'], bytes: weight('a', 200) });
  });

  it('applies a lowered bound at the next write, evicting down to it', async () => {
    const c = boundedCache(clients.client, { maxCount: 10, maxSize: -1, refuse: false });
    const now = Date.now();
    for (let i = 0; i < 10; i++) await c.entries.write(record(`k${i}`, 'v', now), now);
    c.state.bounds = { maxCount: 3, maxSize: -1, refuse: false };
    expect(await c.entries.count(now)).to.equal(10); // nothing happens before a write
    await c.entries.write(record('k10', 'v', now), now);
    expect((await heldBy(c)).recency).to.deep.equal(['k8', 'k9', 'k10']);
    expect(c.state.evicted).to.equal(8);
  });

  it('makes room for one write in scripts of at most EVICT_PER_SCRIPT evictions each, so no script holds the master for long', async () => {
    const calls: number[] = [];
    const id = `b${++cacheIds}`;
    let bounds: EntryBounds = { maxCount: 700, maxSize: -1, refuse: false };
    const entries = new RedisEntries(clients.client, id, undefined, undefined, '', { bounds: () => bounds, evicted: (n) => calls.push(n) });
    const now = Date.now();
    for (let from = 0; from < 700; from += 100) await Promise.all(Array.from({ length: 100 }, (_, i) => entries.write(record(`k${from + i}`, 'v', now), now)));
    bounds = { maxCount: 5, maxSize: -1, refuse: false };
    expect(await entries.write(record('last', 'v', now), now)).to.equal('created');
    expect(calls).to.deep.equal([EVICT_PER_SCRIPT, EVICT_PER_SCRIPT, 700 + 1 - 5 - 2 * EVICT_PER_SCRIPT]);
    expect(await entries.count(now)).to.equal(5);
  });

  it('clears every structure of the segment: entries, keys, recency, expiries and the weight', async () => {
    const c = boundedCache(clients.client, { maxCount: 1000, maxSize: -1, refuse: false });
    const now = Date.now();
    for (let i = 0; i < 300; i++) await c.entries.write(record(`k${i}`, 'v', now, i % 2 ? { lifespan: 60_000 } : {}), now);
    expect(await c.entries.clear()).to.equal(300);
    expect(await heldBy(c)).to.deep.equal({ keys: [], recency: [], expiries: [], bytes: 0, weighed: 0, missing: 0 });
    expect(await clients.client.exists(entryKeyOf(c.segment, Buffer.from('k1')))).to.equal(0);
    await c.entries.write(record('after', 'v', now), now);
    expect((await heldBy(c)).bytes).to.equal(weight('after', 1));
  });

  it('never holds more than max-count while eight writers on two clients put different keys at once', async () => {
    const c = boundedCache(clients.client, { maxCount: 5, maxSize: -1, refuse: false });
    const other = new RedisEntries(clients.other, c.id, undefined, undefined, '', { bounds: () => c.state.bounds });
    let most = 0;
    await Promise.all(Array.from({ length: 8 }, async (_, w) => {
      for (let i = 0; i < 40; i++) {
        const now = Date.now();
        await (w % 2 ? other : c.entries).write(record(`w${w}-${i}`, 'v'.repeat(i), now), now);
        most = Math.max(most, await clients.client.zcard(c.segment.keys));
      }
    }));
    expect(most).to.equal(5);
    const held = await heldBy(c);
    expect(held.keys).to.have.length(5);
    expect(held.bytes).to.equal(held.weighed);
  });
});

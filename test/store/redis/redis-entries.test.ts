import { expect } from 'chai';
import type { Pages } from '../../../src/util/pages';
import { itemsOf } from '../../support/pages';
import type { Cluster } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { etagOf } from '../../../src/model/etag';
import { entryKeyOf, segmentKeysOf, segmentOf } from '../../../src/store/redis/entry-layout';
import { type EntryRecord, type FeedPosition, type Paging, RedisEntries } from '../../../src/store/redis/redis-entries';
import { EntryEventFeed } from '../../../src/store/redis/entry-event-feed';
import { eventually } from '../../support/poll';
import { clusterClient, useClusterClients, masterAddresses, masterOfSlot } from '../../support/redis-client';
import { throwawayCluster } from '../../support/redis-cluster';

// The entries of a cache on a real 3+3 Redis Cluster (docs/scale-out.md, "Entries").

let cacheIds = 0;
const newCache = (client: Cluster, paging?: Paging) => {
  const id = `t${++cacheIds}`;
  return { id, entries: new RedisEntries(client, id, paging) };
};

function record(key: Buffer | string, value: Buffer | string, now: number, expiry: { lifespan?: number; maxIdle?: number } = {}, valueType: string | null = null): EntryRecord {
  const v = Buffer.from(value);
  return { key: Buffer.from(key), value: v, valueType, created: now, lastUsed: now, lifespan: expiry.lifespan ?? -1, maxIdle: expiry.maxIdle ?? -1, etag: etagOf(v) };
}

async function collect<T>(pages: Pages<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of itemsOf(pages)) out.push(item);
  return out;
}

/** Keys of the cache's entries on one master: SCAN of that node alone (the test's own view, not the engine's). */
async function entryKeysOn(client: Cluster, address: string, cacheId: string): Promise<number> {
  const node = client.nodes('master').find((n) => `${n.options.host}:${n.options.port}` === address)!;
  let count = 0;
  let cursor = '0';
  do {
    const [next, keys] = await node.scan(cursor, 'MATCH', `e:{${cacheId}:*`, 'COUNT', 1000);
    cursor = next;
    count += keys.length;
  } while (cursor !== '0');
  return count;
}

describe('RedisEntries: the entries of a cache on Redis Cluster', function () {
  this.timeout(60_000);
  const redis = throwawayCluster();
  const clients = useClusterClients(redis);

  describe('layout', () => {
    it('hashes a key to its segment with 32-bit FNV-1a mod 256, the same on every node and run', () => {
      expect(segmentOf(Buffer.alloc(0))).to.equal(0xc5); // the FNV offset basis 0x811c9dc5
      expect(segmentOf(Buffer.from('a'))).to.equal(0x2c); // FNV-1a('a') = 0xe40c292c
      expect(segmentOf(Buffer.from('foobar'))).to.equal(0x68); // 0xbf9cf968
    });

    it('puts each segment in a slot of its own and spreads a cache\'s 256 segments over every master', async () => {
      const segments = segmentKeysOf('c42');
      const slots = await Promise.all(segments.map((s) => clients.client.cluster('KEYSLOT', s.keys) as Promise<number>));
      for (const [i, s] of segments.entries()) {
        expect(await clients.client.cluster('KEYSLOT', s.expiries)).to.equal(slots[i]);
        expect(await clients.client.cluster('KEYSLOT', entryKeyOf(s, randomBytes(8)))).to.equal(slots[i]);
      }
      const perMaster = new Map<string, number>();
      for (const slot of slots) perMaster.set(masterOfSlot(clients.client, slot), (perMaster.get(masterOfSlot(clients.client, slot)) ?? 0) + 1);
      expect([...perMaster.keys()].sort()).to.deep.equal(masterAddresses(clients.client).sort());
      console.log(`      segments per master: ${[...perMaster.values()].join(', ')}`);
    });

    it('refuses a cache id that would break the hash tag', () => {
      expect(() => new RedisEntries(clients.client, 'a}b')).to.throw(/no braces/);
      expect(() => new RedisEntries(clients.client, '')).to.throw(/at least one character/);
    });
  });

  describe('one entry', () => {
    it('reads back binary keys and values as written: every byte value, an empty value, 1 MB, braces in the key', async () => {
      const { entries } = newCache(clients.client);
      const now = Date.now();
      const everyByte = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
      const cases: Array<[Buffer, Buffer]> = [
        [everyByte, everyByte], [Buffer.from('empty'), Buffer.alloc(0)], [Buffer.from('{x}:}{'), Buffer.from('braces')],
        [Buffer.from([0, 0xff, 0x0a]), randomBytes(1024 * 1024)], [Buffer.alloc(0), Buffer.from('the empty key')],
      ];
      for (const [key, value] of cases) expect(await entries.write(record(key, value, now, {}, 'application/octet-stream'), now)).to.equal('created');
      for (const [key, value] of cases) {
        const read = await entries.read(key, now, true);
        expect(read?.value.equals(value), key.toString('hex')).to.equal(true);
        expect(read).to.deep.include({ valueType: 'application/octet-stream', created: now, lastUsed: now, lifespan: -1, maxIdle: -1, etag: etagOf(value) });
        expect((await entries.read(key, now, false))?.value.equals(value)).to.equal(true);
      }
      expect(await entries.read(Buffer.from('missing'), now, true)).to.equal(undefined);
    });

    it('keeps a null media type as null and replaces an entry whole (type, times, expiry)', async () => {
      const { id, entries } = newCache(clients.client);
      const now = Date.now();
      expect(await entries.write(record('k', 'one', now, { lifespan: 60_000 }, 'text/plain'), now)).to.equal('created');
      expect(await entries.write(record('k', 'two', now + 1, {}, null), now + 1)).to.equal('replaced');
      expect(await entries.read(Buffer.from('k'), now + 1, false)).to.deep.equal(record('k', 'two', now + 1));
      const segment = segmentKeysOf(id)[segmentOf(Buffer.from('k'))];
      expect(await clients.client.pttl(entryKeyOf(segment, Buffer.from('k')))).to.equal(-1); // the old lifespan went with the old entry
    });

    it('removes an entry: removed, then absent', async () => {
      const { entries } = newCache(clients.client);
      const now = Date.now();
      await entries.write(record('k', 'v', now), now);
      expect(await entries.remove(Buffer.from('k'), now)).to.equal('removed');
      expect(await entries.remove(Buffer.from('k'), now)).to.equal('absent');
      expect(await entries.read(Buffer.from('k'), now, true)).to.equal(undefined);
    });
  });

  describe('expiry', () => {
    const expiryOf = async (id: string, key: string) => clients.client.pexpiretime(entryKeyOf(segmentKeysOf(id)[segmentOf(Buffer.from(key))], Buffer.from(key)));

    it('gives an entry with a lifespan its absolute expiry in Redis, which removes it by itself', async () => {
      const { id, entries } = newCache(clients.client);
      const now = Date.now();
      await entries.write(record('short', 'v', now, { lifespan: 200 }), now);
      await entries.write(record('long', 'v', now, { lifespan: 600_000, maxIdle: 300_000 }), now);
      expect(await expiryOf(id, 'short')).to.equal(now + 200);
      expect(await expiryOf(id, 'long')).to.equal(now + 300_000); // min(created + lifespan, lastUsed + maxIdle)
      const segment = segmentKeysOf(id)[segmentOf(Buffer.from('short'))];
      await eventually(async () => (await clients.client.exists(entryKeyOf(segment, Buffer.from('short')))) === 0, 10_000, 'Redis to expire the entry');
      expect(await entries.read(Buffer.from('short'), Date.now(), true)).to.equal(undefined);
    });

    it('refreshes max-idle on a read, in the entry and in Redis, and not on a peek', async () => {
      const { id, entries } = newCache(clients.client);
      const t0 = Date.now();
      const key = Buffer.from('idle');
      await entries.write(record(key, 'v', t0, { maxIdle: 100_000 }), t0);
      expect(await expiryOf(id, 'idle')).to.equal(t0 + 100_000);

      expect((await entries.read(key, t0 + 60_000, false))?.lastUsed).to.equal(t0); // a peek
      expect(await expiryOf(id, 'idle')).to.equal(t0 + 100_000);

      expect((await entries.read(key, t0 + 60_000, true))?.lastUsed).to.equal(t0 + 60_000); // a read
      expect(await expiryOf(id, 'idle')).to.equal(t0 + 160_000);
      expect((await entries.read(key, t0 + 120_000, false))?.lastUsed).to.equal(t0 + 60_000); // alive only thanks to the read

      expect((await entries.read(key, t0 + 30_000, true))?.lastUsed).to.equal(t0 + 60_000); // a node whose clock is behind moves nothing back
      expect(await expiryOf(id, 'idle')).to.equal(t0 + 160_000);

      expect(await entries.read(key, t0 + 160_000, false)).to.equal(undefined); // expired from that millisecond on
      expect(await entries.read(key, t0 + 160_000, true)).to.equal(undefined);
    });

    it('caps a refreshed max-idle at the lifespan', async () => {
      const { id, entries } = newCache(clients.client);
      const t0 = Date.now();
      await entries.write(record('k', 'v', t0, { lifespan: 120_000, maxIdle: 100_000 }), t0);
      await entries.read(Buffer.from('k'), t0 + 60_000, true);
      expect(await expiryOf(id, 'k')).to.equal(t0 + 120_000);
      expect(await entries.read(Buffer.from('k'), t0 + 119_999, false)).to.not.equal(undefined);
      expect(await entries.read(Buffer.from('k'), t0 + 120_000, false)).to.equal(undefined);
    });

    it('lets Redis remove an entry whose idle time ran out (real time)', async () => {
      const { id, entries } = newCache(clients.client);
      const now = Date.now();
      await entries.write(record('k', 'v', now, { maxIdle: 150 }), now);
      const segment = segmentKeysOf(id)[segmentOf(Buffer.from('k'))];
      await eventually(async () => (await clients.client.exists(entryKeyOf(segment, Buffer.from('k')))) === 0, 10_000, 'Redis to expire the idle entry');
      expect(await entries.count(Date.now())).to.equal(0);
      expect(await collect(entries.keys(() => Date.now()))).to.deep.equal([]);
    });
  });

  describe('expired entries in the indexes', () => {
    const keysOfSegment = (segment: number, count: number, prefix: string) => {
      const out: Buffer[] = [];
      for (let i = 0; out.length < count; i++) if (segmentOf(Buffer.from(`${prefix}${i}`)) === segment) out.push(Buffer.from(`${prefix}${i}`));
      return out;
    };

    it('skips them in size and listings, and the segment\'s next write removes 16 of them with their entries', async () => {
      const { id, entries } = newCache(clients.client);
      const segment = segmentKeysOf(id)[7];
      const now = Date.now();
      const mortal = keysOfSegment(7, 20, 'm');
      for (const k of mortal) await entries.write(record(k, 'v', now, { lifespan: 60_000 }), now);
      const later = now + 60_000; // expired by the rule; Redis still holds them
      expect(await entries.count(later)).to.equal(0);
      expect(await collect(entries.keys(() => later))).to.deep.equal([]);
      expect(await collect(entries.entries(() => later))).to.deep.equal([]);
      expect(await clients.client.zcard(segment.keys)).to.equal(20);

      const [fresh] = keysOfSegment(7, 1, 'fresh');
      await entries.write(record(fresh, 'v', later), later);
      expect(await clients.client.zcard(segment.keys)).to.equal(20 - 16 + 1);
      expect(await clients.client.zcard(segment.expiries)).to.equal(4);
      const held = await Promise.all(mortal.map((k) => clients.client.exists(entryKeyOf(segment, k))));
      expect(held.filter((n) => n === 1)).to.have.length(4);
      expect(await entries.count(later)).to.equal(1);
    });

    it('lists no key whose entry is gone from Redis while its index still names it', async () => {
      const { id, entries } = newCache(clients.client);
      const now = Date.now();
      const [kept, dropped] = keysOfSegment(3, 2, 'k');
      await entries.write(record(kept, 'v', now), now);
      await entries.write(record(dropped, 'v', now), now);
      await clients.client.del(entryKeyOf(segmentKeysOf(id)[3], dropped)); // as an eviction would: behind grid's back
      expect((await collect(entries.keys(() => now))).map(String)).to.deep.equal([kept.toString()]);
      expect((await collect(entries.entries(() => now))).map((e) => e.key.toString())).to.deep.equal([kept.toString()]);
    });
  });

  describe('expired entries found: removed, published and told once', () => {
    const keysOfSegment = (segment: number, count: number, prefix: string) => {
      const out: Buffer[] = [];
      for (let i = 0; out.length < count; i++) if (segmentOf(Buffer.from(`${prefix}${i}`)) === segment) out.push(Buffer.from(`${prefix}${i}`));
      return out;
    };
    /** The cache `id` through a client as a grid node sends it: its id published with each event, the expired keys it is told. */
    const nodeOf = (client: Cluster, id: string, node: string) => {
      const entries = new RedisEntries(client, id, undefined, undefined, node);
      const told: string[] = [];
      entries.expired.add((k) => told.push(k.toString()));
      return { entries, told };
    };
    /** What another node hears on the cache's channels: `kind key` each (`expired` alone: the expiries' keys). */
    async function hearing(id: string): Promise<{ heard: string[]; expired: string[]; stop: () => Promise<void> }> {
      const feed = new EntryEventFeed(clients.other, 'listening-node-0');
      const heard: string[] = [];
      const expired: string[] = [];
      const stop = await feed.follow(segmentKeysOf(id).map((s) => s.events), (e) => {
        heard.push(`${e.type} ${e.key.toString()}`);
        if (e.type === 'cache-entry-expired') expired.push(e.key.toString());
      });
      return { heard, expired, stop: async () => { await stop(); feed.close(); } };
    }

    it('reaps at most `limit` per segment a run, the rest in the next runs; publishes and feeds each, leaves the live ones', async () => {
      const id = `t${++cacheIds}`;
      const a = nodeOf(clients.client, id, 'reaping-node-a01');
      const listener = await hearing(id);
      try {
        const now = Date.now();
        const in7 = keysOfSegment(7, 12, 'm');
        const in9 = keysOfSegment(9, 3, 'm');
        for (const k of [...in7.slice(0, 10), ...in9]) await a.entries.write(record(k, 'v', now, { lifespan: 1000 }), now);
        await a.entries.write(record(in7[10], 'v', now), now); // immortal
        await a.entries.write(record(in7[11], 'v', now, { lifespan: 5000 }), now); // expires later
        const later = now + 1000;
        expect(await a.entries.reap(later, true, 4)).to.equal(4 + 3);
        expect(await a.entries.reap(later, true, 4)).to.equal(4);
        expect(await a.entries.reap(later, true, 4)).to.equal(2);
        expect(await a.entries.reap(later, true, 4)).to.equal(0);
        const expired = [...in7.slice(0, 10), ...in9].map(String);
        expect([...a.told].sort()).to.deep.equal([...expired].sort());
        const segment = segmentKeysOf(id)[7];
        expect((await clients.client.zrangeBuffer(segment.keys, 0, '-1')).map(String).sort()).to.deep.equal([in7[10], in7[11]].map(String).sort());
        expect((await clients.client.zrangeBuffer(segment.expiries, 0, '-1')).map(String)).to.deep.equal([in7[11].toString()]);
        expect(await Promise.all(in7.slice(0, 10).map((k) => clients.client.exists(entryKeyOf(segment, k))))).to.deep.equal(Array(10).fill(0));
        expect(await a.entries.count(later)).to.equal(2);
        // the feed names each (every node's index drops its document), with no live entry
        const [read] = await a.entries.readFeeds([{ segment: 7, from: { id: '0-0', seen: 0 } }], later);
        expect([...read.changes].map((c) => [c.key.toString(), c.entry]).sort()).to.deep.equal(in7.slice(0, 10).map((k) => [k.toString(), undefined]).sort());
        await eventually(() => listener.expired.length === expired.length, 5_000, 'every expiry to be heard');
        expect([...listener.expired].sort()).to.deep.equal([...expired].sort());
        // a cache without index feeds nothing
        const other = nodeOf(clients.client, `t${++cacheIds}`, 'reaping-node-a01');
        await other.entries.write(record(in7[0], 'v', now, { lifespan: 1000 }), now);
        expect(await other.entries.reap(later)).to.equal(1);
        expect(await clients.client.exists(segmentKeysOf(`t${cacheIds}`)[7].feed)).to.equal(0);
      } finally {
        await listener.stop();
      }
    });

    it('expires each entry once when two nodes reap at once', async () => {
      const id = `t${++cacheIds}`;
      const nodes = [nodeOf(clients.client, id, 'reaping-node-a01'), nodeOf(clients.other, id, 'reaping-node-b01')];
      const listener = await hearing(id);
      try {
        const now = Date.now();
        const keys = Array.from({ length: 600 }, (_, i) => Buffer.from(`k${i}`));
        await Promise.all(keys.map((k) => nodes[0].entries.write(record(k, 'v', now, { lifespan: 1000 }), now)));
        const later = now + 1000;
        const reapAll = async (n: { entries: RedisEntries }) => {
          while (await n.entries.reap(later, false, 2) > 0); // small runs, so that the two nodes' runs interleave
        };
        await Promise.all(nodes.map(reapAll));
        const told = [...nodes[0].told, ...nodes[1].told];
        expect(told).to.have.length(keys.length);
        expect(new Set(told).size).to.equal(keys.length);
        expect(nodes[0].told.length * nodes[1].told.length, 'both nodes reaped some').to.be.above(0);
        await eventually(() => listener.expired.length >= keys.length, 5_000, 'every expiry to be heard');
        expect(new Set(listener.expired).size).to.equal(keys.length);
        expect(listener.expired).to.have.length(keys.length);
        expect(await nodes[1].entries.count(later)).to.equal(0);
      } finally {
        await listener.stop();
      }
    });

    it('asks each master once which segments hold expired entries, and reaps those alone; every segment when the client placed them wrong', async () => {
      const c = await clusterClient(redis);
      try {
        const id = `t${++cacheIds}`;
        const a = nodeOf(c, id, 'reaping-node-a01');
        const now = Date.now();
        const calls = async () => {
          let n = 0;
          // a script a master lacks is sent again as EVAL (the EVALSHA refused is no call)
          for (const node of c.nodes('master')) for (const m of (await node.info('commandstats')).matchAll(/cmdstat_eval(?:sha)?:calls=(\d+)/g)) n += Number(m[1]);
          return n;
        };
        await a.entries.write(record('warm', 'v', now), now);
        await a.entries.reap(now); // the scripts loaded
        let before = await calls();
        expect(await a.entries.reap(now)).to.equal(0);
        expect(await calls() - before, 'one call per master for 256 segments with nothing due').to.equal(c.nodes('master').length);
        const keys = Array.from({ length: 40 }, (_, i) => `k${i}`);
        for (const k of keys) await a.entries.write(record(k, 'v', now, { lifespan: 1000 }), now);
        const due = new Set(keys.map((k) => segmentOf(Buffer.from(k)))).size;
        before = await calls();
        expect(await a.entries.reap(now + 1000)).to.equal(keys.length);
        expect(await calls() - before).to.equal(c.nodes('master').length + due);
        // the client believes one master serves every slot: its call names other masters' sets, fails, and every segment is reaped alone
        for (const k of keys) await a.entries.write(record(k, 'v', now, { lifespan: 1000 }), now);
        const first = c.slots[0];
        for (let slot = 0; slot < c.slots.length; slot++) c.slots[slot] = first;
        expect(await a.entries.reap(now + 1000)).to.equal(keys.length);
        expect(a.told).to.have.length(2 * keys.length);
      } finally {
        await c.quit();
      }
    });

    it('removes an expired entry a read finds (not a peek), a remove finds or a write of its key finds, and tells it once, before the write', async () => {
      const id = `t${++cacheIds}`;
      const a = nodeOf(clients.client, id, 'reaping-node-a01');
      const listener = await hearing(id);
      try {
        const now = Date.now();
        for (const k of ['read', 'removed', 'written']) await a.entries.write(record(k, 'v', now, { lifespan: 1000 }), now);
        const later = now + 1000;
        expect(await a.entries.read(Buffer.from('read'), later, false)).to.equal(undefined); // a peek changes nothing
        expect(a.told).to.deep.equal([]);
        expect(await a.entries.read(Buffer.from('read'), later, true)).to.equal(undefined);
        expect(await a.entries.read(Buffer.from('read'), later, true)).to.equal(undefined);
        expect(await a.entries.remove(Buffer.from('removed'), later)).to.equal('absent');
        expect(await a.entries.remove(Buffer.from('removed'), later)).to.equal('absent');
        expect(await a.entries.write(record('written', 'again', later), later)).to.equal('created');
        expect(a.told).to.deep.equal(['read', 'removed', 'written']);
        await eventually(() => listener.heard.length === 7, 5_000, 'the events to be heard');
        expect(listener.heard.slice(3)).to.deep.equal(['cache-entry-expired read', 'cache-entry-expired removed', 'cache-entry-expired written', 'cache-entry-created written']);
        expect(await a.entries.count(later)).to.equal(1);
      } finally {
        await listener.stop();
      }
    });
  });

  describe('conditional writes', () => {
    it('puts unless the live entry has the ETag given', async () => {
      const { entries } = newCache(clients.client);
      const now = Date.now();
      const first = record('k', 'first', now);
      await entries.write(first, now);
      expect(await entries.write(record('k', 'second', now), now, { unlessEtag: first.etag })).to.equal('kept');
      expect((await entries.read(Buffer.from('k'), now, false))?.value.toString()).to.equal('first');
      expect(await entries.write(record('k', 'second', now), now, { unlessEtag: etagOf(Buffer.from('other')) })).to.equal('replaced');
      expect((await entries.read(Buffer.from('k'), now, false))?.value.toString()).to.equal('second');
      expect(await entries.write(record('new', 'v', now), now, { unlessEtag: first.etag })).to.equal('created');
    });

    it('puts if absent only when there is no live entry (an expired one counts as absent)', async () => {
      const { entries } = newCache(clients.client);
      const now = Date.now();
      expect(await entries.write(record('k', 'first', now, { lifespan: 60_000 }), now, { absent: true })).to.equal('created');
      expect(await entries.write(record('k', 'second', now), now, { absent: true })).to.equal('kept');
      expect((await entries.read(Buffer.from('k'), now, false))?.value.toString()).to.equal('first');
      const later = now + 60_000; // expired by the rule, still held by Redis until its own clock gets there
      expect(await entries.write(record('k', 'third', later), later, { absent: true })).to.equal('created');
      expect((await entries.read(Buffer.from('k'), later, false))?.value.toString()).to.equal('third');
    });

    it('removes only the entry whose ETag is given', async () => {
      const { entries } = newCache(clients.client);
      const now = Date.now();
      const e = record('k', 'v', now);
      await entries.write(e, now);
      expect(await entries.remove(Buffer.from('k'), now, '12345')).to.equal('etag-differs');
      expect(await entries.read(Buffer.from('k'), now, false)).to.not.equal(undefined);
      expect(await entries.remove(Buffer.from('k'), now, e.etag)).to.equal('removed');
      expect(await entries.remove(Buffer.from('k'), now, e.etag)).to.equal('absent');
    });

    it('lets exactly one of many concurrent put-if-absent win, per key, from two separate clients', async () => {
      const id = `race${++cacheIds}`;
      const sides = [new RedisEntries(clients.client, id), new RedisEntries(clients.other, id)];
      const keys = 300;
      const attempts = 8;
      const now = Date.now();
      const outcomes = await Promise.all(Array.from({ length: keys * attempts }, (_, n) => {
        const k = n % keys;
        const a = Math.floor(n / keys);
        return sides[a % 2].write(record(`key-${k}`, `value-${k}-${a}`, now), now, { absent: true }).then((o) => ({ k, a, o }));
      }));
      for (let k = 0; k < keys; k++) {
        const winners = outcomes.filter((x) => x.k === k && x.o === 'created');
        expect(winners, `key-${k}`).to.have.length(1);
        expect(outcomes.filter((x) => x.k === k && x.o === 'kept')).to.have.length(attempts - 1);
        expect((await sides[1].read(Buffer.from(`key-${k}`), now, false))?.value.toString()).to.equal(`value-${k}-${winners[0].a}`);
      }
    });
  });

  describe('the whole cache', () => {
    const N = 20_000;
    const VALUE_BYTES = 2048;
    let id: string;
    let entries: RedisEntries;
    let now: number;

    before(async function () {
      this.timeout(120_000);
      ({ id, entries } = newCache(clients.client));
      now = Date.now();
      const value = (i: number) => Buffer.alloc(VALUE_BYTES, i % 251);
      for (let i = 0; i < N; i += 256) {
        await Promise.all(Array.from({ length: Math.min(256, N - i) }, (_, j) => entries.write(record(`key-${i + j}`, value(i + j), now), now)));
      }
      // mortal entries that expire by the rule: gone from size and listings at `now + 60 s`, though Redis still holds them
      await Promise.all(Array.from({ length: 100 }, (_, i) => entries.write(record(`mortal-${i}`, 'v', now, { lifespan: 60_000 }), now)));
    });

    it('spreads the entries over every master', async () => {
      const counts = await Promise.all(masterAddresses(clients.client).map((a) => entryKeysOn(clients.client, a, id)));
      console.log(`      entries per master: ${counts.join(', ')}`);
      expect(counts).to.have.length(3);
      for (const c of counts) expect(c).to.be.greaterThan(0);
      expect(counts.reduce((a, b) => a + b)).to.equal(N + 100);
    });

    it('counts the live entries', async () => {
      expect(await entries.count(now)).to.equal(N + 100);
      expect(await entries.count(now + 60_000)).to.equal(N);
    });

    it('lists every live key once, and every live entry with its value and times', async () => {
      const later = () => now + 60_000;
      const keys = await collect(entries.keys(later));
      expect(keys).to.have.length(N);
      expect(new Set(keys.map((k) => k.toString()))).to.have.property('size', N);
      let count = 0;
      for await (const e of itemsOf(entries.entries(later))) {
        const i = Number(e.key.toString().slice('key-'.length));
        expect(e.value.length).to.equal(VALUE_BYTES);
        expect(e.value[0]).to.equal(i % 251);
        expect(e).to.deep.include({ valueType: null, created: now, lastUsed: now, lifespan: -1, maxIdle: -1 });
        count++;
      }
      expect(count).to.equal(N);
      expect(await collect(entries.keys(() => now))).to.have.length(N + 100);
    });

    it('reads pages bounded by their key count and their bytes (plus one entry)', async () => {
      for (let segment = 0; segment < 4; segment++) {
        const keyPage = await entries.keyPage(segment, undefined, now, 10);
        expect(keyPage.items.length).to.be.at.most(10);
        const page = await entries.entryPage(segment, undefined, now, 256, 5 * VALUE_BYTES);
        expect(page.items.length).to.be.within(1, 5);
        const rest = await entries.entryPage(segment, page.next, now, 256, 5 * VALUE_BYTES);
        expect(rest.items.map((e) => e.key.toString())).to.not.include.members(page.items.map((e) => e.key.toString()));
      }
    });

    it('walks with small pages and a small window to the same keys', async () => {
      const small = new RedisEntries(clients.client, id, { keys: 7, bytes: 3 * VALUE_BYTES, window: 2, parallel: 3 });
      const keys = await collect(small.keys(() => now));
      expect(keys).to.have.length(N + 100);
      let count = 0;
      for await (const _ of itemsOf(small.entries(() => now))) count++;
      expect(count).to.equal(N + 100);
      expect(await small.count(now)).to.equal(N + 100);
    });

    it('clears every entry and the indexes with it', async function () {
      this.timeout(60_000);
      expect(await entries.clear()).to.equal(N + 100);
      expect(await entries.count(now)).to.equal(0);
      expect(await collect(entries.keys(() => now))).to.deep.equal([]);
      const left = await Promise.all(masterAddresses(clients.client).map((a) => entryKeysOn(clients.client, a, id)));
      expect(left).to.deep.equal([0, 0, 0]);
      const indexes = await Promise.all(segmentKeysOf(id).map((s) => clients.client.exists(s.keys, s.expiries)));
      expect(indexes.every((n) => n === 0)).to.equal(true);
    });
  });

  describe('the feed of changes (indexed caches)', () => {
    const feedOf = (id: string, key: string) => segmentKeysOf(id)[segmentOf(Buffer.from(key))].feed;
    const start = { id: '0-0', seen: 0 };
    const readFeed = async (entries: RedisEntries, segment: number, from: FeedPosition, now: number) => {
      const [read] = await entries.readFeeds([{ segment, from }], now);
      return { ...read, changes: [...read.changes] };
    };
    const feedEnd = async (entries: RedisEntries, segment: number) => (await entries.feedEnds())[segment];

    it('gets each fed write and removal in the same step, and gives each key once with its live entry as it is now', async () => {
      const { id, entries } = newCache(clients.client);
      const now = Date.now();
      const s = segmentOf(Buffer.from('k'));
      await entries.write(record('k', 'one', now), now, undefined, { fed: true });
      await entries.write(record('k', 'two', now), now, undefined, { fed: true });
      await entries.write(record('quiet', 'v', now), now); // not fed: a cache without index pays nothing
      expect(await clients.client.xlen(feedOf(id, 'quiet'))).to.equal(segmentOf(Buffer.from('quiet')) === s ? 2 : 0);
      const read = await readFeed(entries, s, start, now);
      expect(read.changes.map((c) => [c.key.toString(), c.entry?.value.toString()])).to.deep.equal([['k', 'two']]);
      expect([read.next.seen, read.stop]).to.deep.equal([2, undefined]);
      expect(read.next.id).to.equal(read.end);

      await entries.remove(Buffer.from('k'), now, undefined, { fed: true });
      const after = await readFeed(entries, s, read.next, now);
      expect(after.changes.map((c) => [c.key.toString(), c.entry])).to.deep.equal([['k', undefined]]);
      expect(after.next.seen).to.equal(3);
      expect((await readFeed(entries, s, after.next, now)).changes).to.deep.equal([]);
    });

    it('stops at a marker: a cleared segment, a reindex or an index clear asked for', async () => {
      const { entries } = newCache(clients.client);
      const now = Date.now();
      const s = segmentOf(Buffer.from('k'));
      await entries.write(record('k', 'v', now), now, undefined, { fed: true });
      await entries.mark('r');
      await entries.clear(true);
      const first = await readFeed(entries, s, start, now);
      expect([first.changes.map((c) => c.key.toString()), first.stop]).to.deep.equal([['k'], 'r']);
      const second = await readFeed(entries, s, first.next, now);
      expect([second.changes, second.stop]).to.deep.equal([[], 'c']);
      expect((await feedEnd(entries, s)).end).to.deep.equal(second.next);
    });

    it('says when changes after a reader\'s place were trimmed away, and where the feed ends', async () => {
      const { entries } = newCache(clients.client);
      const now = Date.now();
      const s = segmentOf(Buffer.from('k'));
      await entries.write(record('k', 'v0', now), now, undefined, { fed: true });
      const early = await readFeed(entries, s, start, now);
      expect((await feedEnd(entries, s)).whole).to.equal(true);
      for (let i = 1; i <= 1_200; i++) await entries.write(record('k', `v${i}`, now), now, undefined, { fed: true });
      const end = await feedEnd(entries, s);
      expect([end.whole, end.end.seen]).to.deep.equal([false, 1_201]);
      const behind = await readFeed(entries, s, early.next, now);
      expect([behind.stop, behind.changes, behind.next]).to.deep.equal(['gap', [], end.end]);
      // from the end on, nothing is missing
      await entries.write(record('k', 'last', now), now, undefined, { fed: true });
      const caught = await readFeed(entries, s, end.end, now);
      expect([caught.stop, caught.changes.map((c) => c.entry?.value.toString())]).to.deep.equal([undefined, ['last']]);
    });

    it('reads the segments of one master with one call, and one by one when the client placed them wrong', async () => {
      const c = await clusterClient(redis);
      try {
        const { id, entries } = newCache(c);
        const now = Date.now();
        const keys = Array.from({ length: 40 }, (_, i) => `k${i}`);
        for (const k of keys) await entries.write(record(k, `v-${k}`, now), now, undefined, { fed: true });
        const reads = segmentKeysOf(id).map((_, segment) => ({ segment, from: start }));
        const valuesOf = (found: Awaited<ReturnType<RedisEntries['readFeeds']>>) => found.flatMap((r) => [...r.changes].map((ch) => ch.entry!.value.toString())).sort();
        const expected = keys.map((k) => `v-${k}`).sort();
        expect(valuesOf(await entries.readFeeds(reads, now))).to.deep.equal(expected);
        // the client believes one master serves every slot: each call names feeds of other masters, fails, and its reads are made alone
        const first = c.slots[0];
        for (let slot = 0; slot < c.slots.length; slot++) c.slots[slot] = first;
        expect(valuesOf(await entries.readFeeds(reads, now))).to.deep.equal(expected);
      } finally {
        await c.quit();
      }
    });
  });
});

import { expect } from 'chai';
import { itemsOf } from '../../support/pages';
import type { Cluster } from 'ioredis';
import { randomBytes } from 'node:crypto';
import type { EntryEvent } from '../../../src/grid/entry-events';
import { RedisCacheData } from '../../../src/grid/redis-cache-data';
import { etagOf } from '../../../src/model/etag';
import { NO_FLAGS, SKIP_LISTENER_NOTIFICATION } from '../../../src/model/flags';
import { entryKeyOf, SEGMENTS, segmentKeysOf, segmentOf } from '../../../src/store/redis/entry-layout';
import { DEFAULT_PAGING, RedisEntries } from '../../../src/store/redis/redis-entries';
import { ManualClock, systemClock, type Clock } from '../../../src/util/clock';
import { collectGarbage } from '../../support/gc';
import { eventually } from '../../support/poll';
import { useClusterClients, killNode, masterOfSlot } from '../../support/redis-client';
import { throwawayCluster } from '../../support/redis-cluster';

// The entry seam (src/grid/cache-data.ts) on a real 3+3 Redis Cluster: what the services will see
// of a cache on the redis engine (docs/scale-out.md, "Entries").

const IMMORTAL = { lifespan: -1, maxIdle: -1 };
let caches = 0;

describe('RedisCacheData: the entry seam on Redis Cluster', function () {
  this.timeout(60_000);
  const redis = throwawayCluster();
  const clients = useClusterClients(redis);

  const dataOn = (c: Cluster, clock: Clock = systemClock, id = `d${++caches}`) => new RedisCacheData(new RedisEntries(c, id), clock);

  describe('get, peek, put, remove', () => {
    it('round-trips binary keys and values, an empty value and 1 MB, with their ETag', async () => {
      const data = dataOn(clients.client);
      const cases: Array<[Buffer, Buffer]> = [
        [Buffer.from([0, 1, 0xfe, 0xff]), Buffer.from([0xff, 0, 0x80])], [Buffer.from('empty'), Buffer.alloc(0)],
        [randomBytes(32), randomBytes(1024 * 1024)],
      ];
      for (const [key, value] of cases) {
        const written = await data.put(key, value, 'application/octet-stream', IMMORTAL, NO_FLAGS);
        expect(written).to.deep.include({ valueType: 'application/octet-stream', etag: etagOf(value) });
      }
      for (const [key, value] of cases) {
        const read = await data.get(key, NO_FLAGS);
        expect(read?.value.equals(value)).to.equal(true);
        expect(read?.etag).to.equal(etagOf(value));
        expect((await data.peek(key, NO_FLAGS))?.value.equals(value)).to.equal(true);
      }
      expect(await data.remove(cases[0][0], NO_FLAGS)).to.equal('removed');
      expect(await data.get(cases[0][0], NO_FLAGS)).to.equal(undefined);
      expect(await data.remove(cases[0][0], NO_FLAGS)).to.equal('absent');
    });

    it('resolves a write once Redis acknowledged it: another client reads and lists it at once', async () => {
      const id = `d${++caches}`;
      const a = dataOn(clients.client, systemClock, id);
      const b = dataOn(clients.other, systemClock, id);
      await a.put(Buffer.from('k'), Buffer.from('v'), null, IMMORTAL, NO_FLAGS);
      expect((await b.get(Buffer.from('k'), NO_FLAGS))?.value.toString()).to.equal('v');
      const listed: string[] = [];
      for await (const key of itemsOf(b.keys())) listed.push(key.toString());
      expect(listed).to.deep.equal(['k']);
    });
  });

  describe('expiry', () => {
    it('lets Redis itself expire an entry at the end of its lifespan', async () => {
      const id = `d${++caches}`;
      const data = dataOn(clients.client, systemClock, id);
      const key = Buffer.from('brief');
      await data.put(key, Buffer.from('v'), null, { lifespan: 200, maxIdle: -1 }, NO_FLAGS);
      const redisKey = entryKeyOf(segmentKeysOf(id)[segmentOf(key)], key);
      await eventually(async () => (await clients.client.exists(redisKey)) === 0, 10_000, 'Redis to expire the entry');
      expect(await data.get(key, NO_FLAGS)).to.equal(undefined);
      expect(await data.size(NO_FLAGS)).to.equal(0);
    });

    it('refreshes max-idle on get and not on peek (a clock the test moves)', async () => {
      const clock = new ManualClock();
      const data = dataOn(clients.client, clock);
      const key = Buffer.from('idle');
      await data.put(key, Buffer.from('v'), null, { lifespan: -1, maxIdle: 100_000 }, NO_FLAGS);
      clock.advance(60_000);
      expect(await data.peek(key, NO_FLAGS)).to.not.equal(undefined);
      clock.advance(40_000);
      expect(await data.peek(key, NO_FLAGS), 'the peek moved nothing').to.equal(undefined);

      await data.put(key, Buffer.from('v'), null, { lifespan: -1, maxIdle: 100_000 }, NO_FLAGS);
      clock.advance(60_000);
      expect((await data.get(key, NO_FLAGS))?.lastUsed).to.equal(clock.now());
      clock.advance(60_000);
      expect(await data.peek(key, NO_FLAGS), 'the get moved the idle time').to.not.equal(undefined);
      clock.advance(40_000);
      expect(await data.get(key, NO_FLAGS)).to.equal(undefined);
    });
  });

  describe('conditional writes', () => {
    it('puts unless the ETag matches, and removes only the ETag given', async () => {
      const data = dataOn(clients.client);
      const key = Buffer.from('k');
      const first = (await data.put(key, Buffer.from('first'), null, IMMORTAL, NO_FLAGS))!;
      expect(await data.put(key, Buffer.from('second'), null, IMMORTAL, NO_FLAGS, first.etag)).to.equal(undefined);
      expect((await data.get(key, NO_FLAGS))?.value.toString()).to.equal('first');
      const second = await data.put(key, Buffer.from('second'), null, IMMORTAL, NO_FLAGS, etagOf(Buffer.from('x')));
      expect(second?.value.toString()).to.equal('second');
      expect(await data.remove(key, NO_FLAGS, first.etag)).to.equal('etag-differs');
      expect(await data.remove(key, NO_FLAGS, second!.etag)).to.equal('removed');
    });

    it('lets exactly one put-if-absent win per key when two nodes race for many keys', async () => {
      const id = `d${++caches}`;
      const nodes = [dataOn(clients.client, systemClock, id), dataOn(clients.other, systemClock, id)];
      const keys = 200;
      const attempts = 6;
      const tries = await Promise.all(Array.from({ length: keys * attempts }, async (_, n) => {
        const k = n % keys;
        const a = Math.floor(n / keys);
        const won = await nodes[a % 2].putIfAbsent(Buffer.from(`k${k}`), Buffer.from(`v${a}`), null, IMMORTAL, NO_FLAGS);
        return { k, a, won: won !== undefined };
      }));
      for (let k = 0; k < keys; k++) {
        const winners = tries.filter((t) => t.k === k && t.won);
        expect(winners, `k${k}`).to.have.length(1);
        expect((await nodes[0].get(Buffer.from(`k${k}`), NO_FLAGS))?.value.toString()).to.equal(`v${winners[0].a}`);
      }
      expect(await nodes[1].size(NO_FLAGS)).to.equal(keys);
    });
  });

  describe('listeners', () => {
    it('hear the writes made through this node: created, modified, removed; none with SKIP_LISTENER_NOTIFICATION', async () => {
      const data = dataOn(clients.client);
      const heard: EntryEvent[] = [];
      const stop = data.listeners.add((e) => heard.push(e));
      const key = Buffer.from('k');
      await data.put(key, Buffer.from('1'), null, IMMORTAL, NO_FLAGS);
      await data.put(key, Buffer.from('2'), null, IMMORTAL, NO_FLAGS);
      expect(await data.putIfAbsent(key, Buffer.from('3'), null, IMMORTAL, NO_FLAGS)).to.equal(undefined);
      await data.put(key, Buffer.from('4'), null, IMMORTAL, SKIP_LISTENER_NOTIFICATION);
      await data.remove(key, NO_FLAGS, 'not-its-etag');
      await data.remove(key, NO_FLAGS);
      await data.remove(key, NO_FLAGS);
      stop();
      expect(heard.map((e) => `${e.type} ${e.key.toString()}`)).to.deep.equal([
        'cache-entry-created k', 'cache-entry-modified k', 'cache-entry-removed k',
      ]);
    });
  });

  describe('expiry events', () => {
    it('tell this node\'s listeners of an entry a get finds expired (not a peek) and of those its reaper removes, once each, SKIP_LISTENER_NOTIFICATION or not', async () => {
      const clock = new ManualClock();
      const data = dataOn(clients.client, clock);
      const heard: string[] = [];
      const stop = data.listeners.add((e) => heard.push(`${e.type} ${e.key.toString()}`));
      for (const k of ['got', 'reaped', 'idle']) {
        await data.put(Buffer.from(k), Buffer.from('v'), null, k === 'idle' ? { lifespan: -1, maxIdle: 1000 } : { lifespan: 1000, maxIdle: -1 }, SKIP_LISTENER_NOTIFICATION);
      }
      clock.advance(1000);
      expect(await data.peek(Buffer.from('got'), NO_FLAGS)).to.equal(undefined);
      expect(heard).to.deep.equal([]);
      expect(await data.get(Buffer.from('got'), NO_FLAGS)).to.equal(undefined);
      expect(await data.reapExpired()).to.equal(2);
      expect(await data.reapExpired()).to.equal(0);
      expect(await data.get(Buffer.from('got'), NO_FLAGS)).to.equal(undefined);
      stop();
      expect(heard.slice(0, 1)).to.deep.equal(['cache-entry-expired got']);
      expect(heard.slice(1).sort()).to.deep.equal(['cache-entry-expired idle', 'cache-entry-expired reaped']);
    });
  });

  describe('size, keys, entries and clear of 20,000 entries', () => {
    const N = 20_000;
    const VALUE_BYTES = 4096;
    const data = () => dataOn(clients.client, systemClock, 'big');

    before(async function () {
      this.timeout(180_000);
      const big = data();
      for (let i = 0; i < N; i += 256) {
        await Promise.all(Array.from({ length: Math.min(256, N - i) }, (_, j) => big.put(Buffer.from(`key-${i + j}`), Buffer.alloc(VALUE_BYTES, (i + j) % 251), null, IMMORTAL, NO_FLAGS)));
      }
    });

    it('counts them and lists each key once', async () => {
      expect(await data().size(NO_FLAGS)).to.equal(N);
      const seen = new Set<string>();
      for await (const key of itemsOf(data().keys())) seen.add(key.toString());
      expect(seen.size).to.equal(N);
    });

    it('lists every entry a bounded page at a time: the Buffers the process holds stay within a few pages', async function () {
      this.timeout(120_000);
      // by construction a walk holds at most window + 1 pages of at most `bytes` plus one entry
      const held = (DEFAULT_PAGING.window + 1) * (DEFAULT_PAGING.bytes + VALUE_BYTES);
      expect(held).to.be.below(4 * 1024 * 1024);
      // the bytes of Buffers still reachable after a full collection, sampled along the walk (RSS would also count garbage not yet collected)
      const reachable = async () => {
        await collectGarbage(2);
        return process.memoryUsage().arrayBuffers;
      };
      const base = await reachable();
      const rssBase = process.memoryUsage.rss();
      let peak = base;
      let rssPeak = rssBase;
      let count = 0;
      let bytes = 0;
      const started = Date.now();
      for await (const e of itemsOf(data().entries())) {
        expect(e.value[0]).to.equal(Number(e.key.toString().slice(4)) % 251);
        bytes += e.value.length;
        if (++count % 100 === 0) rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
        if (count % 2000 === 0) peak = Math.max(peak, await reachable());
      }
      const ms = Date.now() - started;
      const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
      console.log(`      listed ${count} entries (${mb(bytes)} MB of values) in ${ms} ms; reachable Buffers grew by ${mb(peak - base)} MB at most, RSS by ${mb(rssPeak - rssBase)} MB`);
      expect(count).to.equal(N);
      expect(peak - base).to.be.below(3 * held);
    });

    it('clears them: nothing left to count, list or find', async () => {
      await data().clear();
      expect(await data().size(NO_FLAGS)).to.equal(0);
      for await (const _ of itemsOf(data().keys())) expect.fail('a key survived the clear');
      expect(await data().get(Buffer.from('key-7'), NO_FLAGS)).to.equal(undefined);
    });
  });

  describe('a master killed (SIGKILL) while writes run', () => {
    const victimCluster = throwawayCluster({ own: true }); // a master of its own to kill
    const killing = useClusterClients(victimCluster);

    it('recovers by itself once its replica took over: writes succeed again, and every write acknowledged since is readable', async function () {
      this.timeout(90_000);
      const id = 'failover';
      const data = dataOn(killing.client, systemClock, id);
      const slotOf = new Map<number, number>();
      for (let s = 0; s < SEGMENTS; s++) slotOf.set(s, await killing.client.cluster('KEYSLOT', segmentKeysOf(id)[s].keys) as number);
      const victim = masterOfSlot(killing.client, slotOf.get(0)!);
      const victimSegments = new Set([...slotOf].filter(([, slot]) => masterOfSlot(killing.client, slot) === victim).map(([s]) => s));
      const onVictim = (key: Buffer) => victimSegments.has(segmentOf(key));
      const victimKey = Array.from({ length: 1000 }, (_, i) => Buffer.from(`probe-${i}`)).find(onVictim)!;

      const acked = new Map<string, { value: string; victim: boolean; phase: 'before' | 'during' | 'after' }>();
      let phase: 'before' | 'during' | 'after' = 'before';
      let failures = 0;
      let stop = false;
      const writer = async (w: number) => {
        for (let n = 0; !stop; n++) {
          const key = Buffer.from(`w${w}-${n}`);
          const value = `${w}:${n}:${phase}`;
          const at = phase;
          try {
            await data.put(key, Buffer.from(value), null, IMMORTAL, NO_FLAGS);
            acked.set(key.toString(), { value, victim: onVictim(key), phase: at });
          } catch {
            failures++;
            await new Promise((r) => setTimeout(r, 20));
          }
        }
      };
      const writers = Array.from({ length: 8 }, (_, w) => writer(w));
      try {
        await eventually(() => acked.size >= 400, 20_000, 'writes before the kill');
        killNode(victimCluster, victim);
        const killedAt = Date.now();
        phase = 'during';
        await eventually(async () => {
          try {
            return (await data.put(victimKey, Buffer.from('back'), null, IMMORTAL, NO_FLAGS)) !== undefined;
          } catch {
            return false;
          }
        }, 30_000, "a replica to serve the killed master's slots");
        const recoveredAfter = Date.now() - killedAt;
        phase = 'after';
        const afterCount = () => [...acked.values()].filter((a) => a.phase === 'after' && a.victim).length;
        await eventually(() => afterCount() >= 100, 20_000, 'writes to the new master');
        stop = true;
        await Promise.all(writers);

        const reader = dataOn(killing.other, systemClock, id);
        const lost: string[] = [];
        for (const [key, a] of acked) {
          const read = await reader.get(Buffer.from(key), NO_FLAGS);
          if (read?.value.toString() === a.value) continue;
          lost.push(key);
          // only what the killed master acknowledged itself may be lost: its replica had not got it yet
          expect(a.victim && a.phase === 'before', `${key} (written ${a.phase} the kill, ${a.victim ? 'on' : 'not on'} the killed master's slots) is lost`).to.equal(true);
        }
        console.log(`      writes served again ${recoveredAfter} ms after the kill; ${acked.size} acknowledged, ${failures} failed, ${lost.length} acknowledged before the takeover lost (no WAIT)`);
        expect((await reader.get(victimKey, NO_FLAGS))?.value.toString()).to.equal('back');
      } finally {
        stop = true;
        await Promise.all(writers);
      }
    });
  });
});

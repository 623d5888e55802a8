import { expect } from 'chai';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { ManualClock } from '../../src/util/clock';
import { useServer, withServer } from '../support/server';
import { type SseEvent, SseReader } from '../support/sse';
import { eventually } from '../support/poll';

const basic = (user: string) => ({ Authorization: 'Basic ' + Buffer.from(`${user}:${user}-pw`).toString('base64') });
const JSON_TYPE = { 'Content-Type': 'application/json' };
const MAX_IDLE_REFUSED = 'ISPN000651: Max idle is not allowed while using a store without passivation';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function sorted(events: SseEvent[]): SseEvent[] {
  return [...events].sort((a, b) => a.data.localeCompare(b.data));
}

/** Events that arrive within `ms` (none expected); the reader is spent afterwards, so only at the end of a test. */
async function quietFor(sse: SseReader, ms: number): Promise<SseEvent[]> {
  try {
    return await sse.next(1, ms);
  } catch {
    return [];
  }
}

describe('entry expiration', () => {
  const clock = new ManualClock();
  // the server-wide reaper runs every 20 ms: caches that set no interval of their own follow it
  const server = useServer({ clock, expirationInterval: 20 });
  const admin = server.as('admin');

  async function listen(cache: string): Promise<SseReader> {
    return SseReader.open(`${server.url}/rest/v2/caches/${cache}?action=listen`, basic('admin'));
  }

  /** r1 and g1 (1 s lifespan) pushed out of a one-entry memory by z: only the store holds them. */
  async function storeOnlyEntries(cache: string, sse: SseReader): Promise<void> {
    for (const key of ['r1', 'g1']) expect((await admin.put(`/rest/v2/caches/${cache}/${key}`, 'v', { timeToLiveSeconds: '1' })).status).to.equal(204);
    expect((await admin.put(`/rest/v2/caches/${cache}/z`, 'v')).status).to.equal(204);
    expect((await sse.next(3)).map((e) => e.event)).to.deep.equal(['cache-entry-created', 'cache-entry-created', 'cache-entry-created']);
  }

  describe('GET /rest/v2/caches/{cacheName}?action=listen (cache-entry-expired)', () => {
    for (const passivation of [false, true]) {
      it(`tells of entries that expire while only the store holds them (passivation ${passivation})`, async () => {
        const cache = `store-only-${passivation}`;
        await admin.createCache(cache, { 'local-cache': { memory: { 'max-count': '1' }, persistence: { passivation, 'file-store': {} } } });
        const sse = await listen(cache);
        try {
          await storeOnlyEntries(cache, sse);
          clock.advance(2000);
          expect(sorted(await sse.next(2))).to.deep.equal([
            { event: 'cache-entry-expired', data: 'g1' },
            { event: 'cache-entry-expired', data: 'r1' },
          ]);
          expect(await quietFor(sse, 300)).to.deep.equal([]); // once each
          expect(JSON.parse((await admin.get(`/rest/v2/caches/${cache}?action=keys`)).text)).to.deep.equal(['z']);
          expect((await admin.get(`/rest/v2/caches/${cache}/r1`)).status).to.equal(404);
        } finally {
          sse.close();
        }
      });
    }

    it('tells of an entry only the store held when a GET finds it expired', async () => {
      const cache = 'store-only-get';
      await admin.createCache(cache, { 'local-cache': { memory: { 'max-count': '1' }, expiration: { interval: '-1' }, persistence: { 'file-store': {} } } });
      const sse = await listen(cache);
      try {
        await storeOnlyEntries(cache, sse);
        clock.advance(2000);
        expect((await admin.get(`/rest/v2/caches/${cache}/r1`)).status).to.equal(404);
        expect(await sse.next(1)).to.deep.equal([{ event: 'cache-entry-expired', data: 'r1' }]);
        expect((await admin.get(`/rest/v2/caches/${cache}/r1`)).status).to.equal(404);
        expect(await quietFor(sse, 200)).to.deep.equal([]); // g1 waits for its own read: the reaper is off
      } finally {
        sse.close();
      }
    });

    it('deletes expired store rows also when nobody listens', async () => {
      const cache = 'store-only-quiet';
      await admin.createCache(cache, { 'local-cache': { memory: { 'max-count': '1' }, persistence: { 'file-store': {} } } });
      for (const key of ['r1', 'g1']) await admin.put(`/rest/v2/caches/${cache}/${key}`, 'v', { timeToLiveSeconds: '1' });
      await admin.put(`/rest/v2/caches/${cache}/z`, 'v');
      clock.advance(2000);
      const db = new Database(join(server.dataDir, 'grid.db'), { readonly: true });
      try {
        const id = server.running.services.manager.require(cache).cache.id;
        const rows = () => (db.prepare('SELECT count(*) AS n FROM entries WHERE cache_id = ?').get(id) as { n: number }).n;
        await eventually(() => rows() === 1, 10_000, 'the expired rows to be deleted');
      } finally {
        db.close();
      }
    });
  });

  describe('expiration.interval of a cache', () => {
    it('reaps the cache at its own interval, not the server\'s', async () => {
      await withServer({ clock, expirationInterval: 3_600_000 }, async (slow) => {
        await slow.as('admin').createCache('own', { 'local-cache': { expiration: { interval: '50' } } });
        await slow.as('admin').createCache('default', { 'local-cache': {} });
        const own = await SseReader.open(`${slow.url}/rest/v2/caches/own?action=listen`, basic('admin'));
        const fallback = await SseReader.open(`${slow.url}/rest/v2/caches/default?action=listen`, basic('admin'));
        try {
          await slow.as('admin').put('/rest/v2/caches/own/k', 'v', { timeToLiveSeconds: '1' });
          await slow.as('admin').put('/rest/v2/caches/default/k', 'v', { timeToLiveSeconds: '1' });
          await own.next(1);
          await fallback.next(1);
          clock.advance(2000);
          expect(await own.next(1, 2000)).to.deep.equal([{ event: 'cache-entry-expired', data: 'k' }]);
          expect(await quietFor(fallback, 300)).to.deep.equal([]); // the server's hourly reaper
        } finally {
          own.close();
          fallback.close();
        }
      });
    });

    it('-1 turns the reaper off for the cache; a change takes effect without restart', async () => {
      const cache = 'no-reaper';
      await admin.createCache(cache, { 'local-cache': { expiration: { interval: '-1' } } });
      const sse = await listen(cache);
      try {
        await admin.put(`/rest/v2/caches/${cache}/k`, 'v', { timeToLiveSeconds: '1' });
        await sse.next(1);
        clock.advance(2000);
        await sleep(300);
        // not reaped: memory still holds the expired entry (reading the stream here would lose events)
        expect(server.running.services.manager.require(cache).cache.memoryEntryCount).to.equal(1);
        const set = await admin.post(`/rest/v2/caches/${cache}?action=set-mutable-attribute&attribute-name=expiration.interval&attribute-value=30`);
        expect(set.status).to.equal(200);
        expect(await sse.next(1, 2000)).to.deep.equal([{ event: 'cache-entry-expired', data: 'k' }]);
      } finally {
        sse.close();
      }
    });

    it('answers 400 for an interval that is no time quantity', async () => {
      const r = await admin.post('/rest/v2/caches/bad-interval', JSON.stringify({ 'local-cache': { expiration: { interval: 'soon' } } }), JSON_TYPE);
      expect(r.status).to.equal(400);
      expect(r.text).to.contain('ISPN000686').and.to.contain("'interval'");
    });
  });

  describe('max-idle with a store', () => {
    const writeThrough = { 'local-cache': { expiration: { 'max-idle': '200' }, persistence: { 'file-store': {} } } };

    it('refuses max-idle with a store and no passivation (create, 400)', async () => {
      const r = await admin.post('/rest/v2/caches/idle-store', JSON.stringify(writeThrough), JSON_TYPE);
      expect(r.status).to.equal(400);
      expect(r.text).to.equal(MAX_IDLE_REFUSED);
      expect((await admin.head('/rest/v2/caches/idle-store')).status).to.equal(404);
    });

    it('refuses an update that adds max-idle to a write-through cache (400), and keeps the old definition', async () => {
      await admin.createCache('idle-update', { 'local-cache': { persistence: { 'file-store': {} } } });
      const r = await admin.put('/rest/v2/caches/idle-update', JSON.stringify(writeThrough), JSON_TYPE);
      expect(r.status).to.equal(400);
      expect(r.text).to.equal(MAX_IDLE_REFUSED);
      const set = await admin.post('/rest/v2/caches/idle-update?action=set-mutable-attribute&attribute-name=expiration.max-idle&attribute-value=200');
      expect(set.status).to.equal(400);
      expect(set.text).to.equal(MAX_IDLE_REFUSED);
      const config = JSON.parse((await admin.get('/rest/v2/caches/idle-update?action=config')).text);
      expect(config['idle-update']['local-cache'].expiration).to.equal(undefined);
    });

    it('accepts max-idle with passivation, a read-only store or no store', async () => {
      await admin.createCache('idle-passivation', { 'local-cache': { expiration: { 'max-idle': '200' }, persistence: { passivation: true, 'file-store': {} } } });
      await admin.createCache('idle-read-only', { 'local-cache': { expiration: { 'max-idle': '200' }, persistence: { 'file-store': { 'read-only': true } } } });
      await admin.createCache('idle-memory', { 'local-cache': { expiration: { 'max-idle': '200' } } });
    });

    it('answers 400 with the parser\'s message for a max-idle that is no time quantity', async () => {
      const r = await admin.post('/rest/v2/caches/idle-bad', JSON.stringify({ 'local-cache': { expiration: { 'max-idle': 'often' }, persistence: { 'file-store': {} } } }), JSON_TYPE);
      expect(r.status).to.equal(400);
      expect(r.text).to.contain('ISPN000686');
    });

    it('still starts a cache already stored that way, with its entries', async () => {
      await withServer({}, async (other) => {
        await other.as('admin').createCache('legacy', { 'local-cache': { persistence: { 'file-store': {} } } });
        expect((await other.as('admin').put('/rest/v2/caches/legacy/k', 'kept')).status).to.equal(204);
        await other.stop();
        const db = new Database(join(other.dataDir, 'grid.db'));
        db.prepare('UPDATE caches SET config = ? WHERE name = ?').run(JSON.stringify({ legacy: writeThrough }), 'legacy');
        db.close();
        await other.start();
        const r = await other.as('admin').get('/rest/v2/caches/legacy/k');
        expect(r.status).to.equal(200);
        expect(r.text).to.equal('kept');
      });
    });
  });

  describe('GET /rest/v2/caches/{cacheName}?action=stats', () => {
    it('does not count expired entries in memory', async () => {
      await withServer({ clock, expirationInterval: 3_600_000 }, async (slow) => {
        const a = slow.as('admin');
        await a.createCache('counted', { 'local-cache': { statistics: true } });
        await a.put('/rest/v2/caches/counted/short', 'v', { timeToLiveSeconds: '1' });
        await a.put('/rest/v2/caches/counted/long', 'v');
        const before = JSON.parse((await a.get('/rest/v2/caches/counted?action=stats')).text);
        expect(before.current_number_of_entries_in_memory).to.equal(2);
        clock.advance(2000);
        const stats = JSON.parse((await a.get('/rest/v2/caches/counted?action=stats')).text);
        expect(stats.current_number_of_entries).to.equal(1);
        expect(stats.current_number_of_entries_in_memory).to.equal(1);
        const details = JSON.parse((await a.get('/rest/v2/caches/counted')).text);
        expect(details.stats.current_number_of_entries_in_memory).to.equal(1);
        const container = JSON.parse((await a.get('/rest/v2/container/stats')).text);
        expect(container.current_number_of_entries_in_memory).to.be.at.most(container.current_number_of_entries);
      });
    });

    it('answers 404 for a missing cache', async () => {
      expect((await admin.get('/rest/v2/caches/nope?action=stats')).status).to.equal(404);
    });
  });
});

import Database from 'better-sqlite3';
import { expect } from 'chai';
import { join } from 'node:path';
import { ManualClock } from '../../src/util/clock';
import { useServer, withServer } from '../support/server';
import { eventually } from '../support/poll';

const PERSISTENT = { 'local-cache': { persistence: { 'file-store': {} } } };

describe('memory bounds and persistence', () => {
  const server = useServer();
  const admin = server.as('admin');
  let n = 0;
  const fresh = () => `p${++n}`;

  it('evicts the least recently used entry past max-count (when-full REMOVE)', async () => {
    const c = fresh();
    await admin.createCache(c, { 'local-cache': { statistics: true, memory: { 'max-count': '3', 'when-full': 'REMOVE' } } });
    for (const k of ['a', 'b', 'c']) await admin.put(`/rest/v2/caches/${c}/${k}`, k);
    await admin.get(`/rest/v2/caches/${c}/a`);
    await admin.put(`/rest/v2/caches/${c}/d`, 'd');
    expect((await admin.get(`/rest/v2/caches/${c}/b`)).status).to.equal(404);
    for (const k of ['a', 'c', 'd']) expect((await admin.get(`/rest/v2/caches/${c}/${k}`)).status, k).to.equal(200);
    // the details' statistics are the cluster's (summed over the nodes); ?action=stats are the answering node's own
    const { stats } = (await admin.get(`/rest/v2/caches/${c}`)).json<{ stats: Record<string, number> }>();
    expect(stats.evictions).to.equal(1);
  });

  it('evicts by max-size in bytes', async () => {
    const c = fresh();
    await admin.createCache(c, { 'local-cache': { memory: { 'max-size': '1KB', 'when-full': 'REMOVE' } } });
    for (let i = 0; i < 10; i++) await admin.put(`/rest/v2/caches/${c}/k${i}`, 'x'.repeat(200));
    const size = (await admin.get(`/rest/v2/caches/${c}?action=size`)).json<number>();
    expect(size).to.be.greaterThan(0).and.lessThan(10);
    expect((await admin.get(`/rest/v2/caches/${c}/k9`)).status).to.equal(200);
  });

  it('evicts at once an entry heavier than max-size, keeping the others (as the original\'s memory container)', async () => {
    const c = fresh();
    await admin.createCache(c, { 'local-cache': { memory: { 'max-size': '1KB', 'when-full': 'REMOVE' } } });
    await admin.put(`/rest/v2/caches/${c}/small`, 'x'.repeat(200));
    expect((await admin.put(`/rest/v2/caches/${c}/big`, 'x'.repeat(5000))).status).to.equal(204);
    expect((await admin.get(`/rest/v2/caches/${c}/big`)).status).to.equal(404);
    expect((await admin.get(`/rest/v2/caches/${c}/small`)).status).to.equal(200);
    expect((await admin.get(`/rest/v2/caches/${c}?action=size`)).json<number>()).to.equal(1);
  });

  it('refuses writes when full with when-full EXCEPTION, keeping what is stored', async () => {
    const c = fresh();
    await admin.createCache(c, { 'local-cache': { memory: { 'max-count': '2', 'when-full': 'EXCEPTION' } } });
    await admin.put(`/rest/v2/caches/${c}/a`, '1');
    await admin.put(`/rest/v2/caches/${c}/b`, '2');
    const r = await admin.put(`/rest/v2/caches/${c}/c`, '3');
    expect(r.status).to.equal(500);
    expect(r.text).to.equal('ISPN000514: Container eviction limit 2 reached, write operation(s) is blocked');
    expect((await admin.put(`/rest/v2/caches/${c}/a`, 'replaced')).status).to.equal(204);
    expect((await admin.get(`/rest/v2/caches/${c}?action=keys`)).json<string[]>().sort()).to.deep.equal(['a', 'b']);
  });

  it('reads evicted entries of a persistent cache back from the store', async () => {
    const c = fresh();
    await admin.createCache(c, { 'local-cache': { memory: { 'max-count': '2' }, persistence: { 'file-store': {} } } });
    for (let i = 0; i < 10; i++) await admin.put(`/rest/v2/caches/${c}/k${i}`, `v${i}`);
    for (let i = 0; i < 10; i++) expect((await admin.get(`/rest/v2/caches/${c}/k${i}`)).text).to.equal(`v${i}`);
    expect((await admin.get(`/rest/v2/caches/${c}?action=size`)).json()).to.equal(10);
    expect((await admin.get(`/rest/v2/caches/${c}?action=keys`)).json<string[]>()).to.have.length(10);
  });

  it('with passivation, writes evicted entries to the store and reads them back', async () => {
    const c = fresh();
    await admin.createCache(c, { 'local-cache': { memory: { 'max-count': '2' }, persistence: { passivation: true, 'file-store': {} } } });
    for (let i = 0; i < 6; i++) await admin.put(`/rest/v2/caches/${c}/k${i}`, `v${i}`);
    expect((await admin.get(`/rest/v2/caches/${c}?action=size`)).json()).to.equal(6);
    for (let i = 0; i < 6; i++) expect((await admin.get(`/rest/v2/caches/${c}/k${i}`)).text).to.equal(`v${i}`);
    expect((await admin.get(`/rest/v2/caches/${c}?action=size`)).json()).to.equal(6);
    expect((await admin.delete(`/rest/v2/caches/${c}/k0`)).status).to.equal(204);
    expect((await admin.get(`/rest/v2/caches/${c}?action=keys`)).json<string[]>().sort()).to.deep.equal(['k1', 'k2', 'k3', 'k4', 'k5']);
  });

  it('never serves a removed entry from the store, even while the removal commits', async () => {
    const c = fresh();
    await admin.createCache(c, PERSISTENT);
    await admin.put(`/rest/v2/caches/${c}/k`, 'v');
    const [del, get] = await Promise.all([admin.delete(`/rest/v2/caches/${c}/k`), admin.get(`/rest/v2/caches/${c}/k`)]);
    expect(del.status).to.equal(204);
    expect([200, 404]).to.include(get.status);
    expect((await admin.get(`/rest/v2/caches/${c}/k`)).status).to.equal(404);
  });

  it('refuses a write whose commit fails with 500 and keeps serving the last committed value', async () => {
    const c = fresh();
    await admin.createCache(c, PERSISTENT);
    await admin.put(`/rest/v2/caches/${c}/k`, 'committed');
    const db = new Database(join(server.dataDir, 'grid.db'));
    db.exec("CREATE TRIGGER refuse_writes BEFORE INSERT ON entries BEGIN SELECT RAISE(ABORT, 'disk full'); END");
    try {
      const r = await admin.put(`/rest/v2/caches/${c}/k`, 'lost');
      expect(r.status).to.equal(500);
      expect(r.text).to.equal('Internal server error');
      expect((await admin.get(`/rest/v2/caches/${c}/k`)).text).to.equal('committed');
    } finally {
      db.exec('DROP TRIGGER refuse_writes');
      db.close();
    }
    expect((await admin.put(`/rest/v2/caches/${c}/k`, 'next')).status).to.equal(204);
    expect((await admin.get(`/rest/v2/caches/${c}/k`)).text).to.equal('next');
  });

  it('gives every one of many concurrent writes its own value', async () => {
    const c = fresh();
    await admin.createCache(c, PERSISTENT);
    const writes = Array.from({ length: 200 }, (_, i) => admin.put(`/rest/v2/caches/${c}/k${i}`, `v${i}`));
    expect((await Promise.all(writes)).every((r) => r.status === 204)).to.equal(true);
    expect((await admin.get(`/rest/v2/caches/${c}?action=size`)).json()).to.equal(200);
    expect((await admin.get(`/rest/v2/caches/${c}/k137`)).text).to.equal('v137');
  });
});

describe('expiration reaper', () => {
  it('removes expired entries without anyone reading them', async () => {
    const clock = new ManualClock();
    await withServer({ clock, expirationInterval: 20 }, async (server) => {
      const admin = server.as('admin');
      await admin.createCache('mem');
      await admin.createCache('disk', PERSISTENT);
      for (const c of ['mem', 'disk']) {
        await admin.put(`/rest/v2/caches/${c}/short`, 'v', { timeToLiveSeconds: '1' });
        await admin.put(`/rest/v2/caches/${c}/long`, 'v');
      }
      clock.advance(1_500);
      const mem = server.running.services.manager.require('mem').cache;
      const db = new Database(join(server.dataDir, 'grid.db'), { readonly: true });
      try {
        const stored = () => (db.prepare('SELECT key FROM entries WHERE cache_id = ?').all(server.running.services.manager.require('disk').cache.id) as Array<{ key: Buffer }>)
          .map((r) => r.key.toString());
        await eventually(() => mem.memoryEntryCount === 1 && stored().length === 1, 10_000, 'the reaper to remove the expired entries');
        expect(stored()).to.deep.equal(['long']);
      } finally {
        db.close();
      }
    });
  });
});

describe('restart in process (clean shutdown)', () => {
  it('keeps persistent entries and definitions, forgets memory entries and VOLATILE caches', async () => {
    const clock = new ManualClock();
    await withServer({ clock }, async (server) => {
      const admin = server.as('admin');
      await admin.createCache('durable', PERSISTENT);
      await admin.createCache('passive', { 'local-cache': { persistence: { passivation: true, 'file-store': {} } } });
      await admin.createCache('memory');
      await admin.post('/rest/v2/caches/temp', '{"local-cache":{}}', { 'Content-Type': 'application/json', flags: 'VOLATILE' });
      await admin.put('/rest/v2/caches/durable/k', 'v', { timeToLiveSeconds: '100' });
      await admin.put('/rest/v2/caches/passive/k', 'p');
      await admin.put('/rest/v2/caches/memory/k', 'm');
      await server.stop();

      clock.advance(50_000);
      await server.start();
      const names = (await admin.get('/rest/v2/caches')).json<string[]>();
      expect(names).to.include.members(['durable', 'passive', 'memory']);
      const inMemory = (await admin.get('/rest/v2/caches/durable')).json<{ size: number }>();
      expect(inMemory.size).to.equal(1);
      expect(server.running.services.manager.require('durable').cache.memoryEntryCount, 'nothing loaded at start').to.equal(0);
      expect(names).to.not.include('temp');
      const r = await admin.get('/rest/v2/caches/durable/k');
      expect(r.text).to.equal('v');
      expect(r.headers.get('timetoliveseconds')).to.equal('100');
      expect((await admin.get('/rest/v2/caches/passive/k')).text).to.equal('p');
      expect((await admin.get('/rest/v2/caches/memory/k')).status).to.equal(404);
      clock.advance(50_000);
      expect((await admin.get('/rest/v2/caches/durable/k')).status).to.equal(404);
    });
  });
});

import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { Client } from '../support/client';
import { spawnServer, waitForExit } from '../support/process';
import { tempDir, useServer } from '../support/server';
import { SseReader } from '../support/sse';

const basic = (user: string) => ({ Authorization: 'Basic ' + Buffer.from(`${user}:${user}-pw`).toString('base64') });
const PERSISTENT = (maxCount?: number) => ({
  'local-cache': { statistics: true, persistence: { 'file-store': {} }, ...(maxCount ? { memory: { 'max-count': String(maxCount) } } : {}) },
});

// The `flags` header is applied to the operation (docs/reference/data-plane.md#flags).
describe('flags header on entry operations', () => {
  const server = useServer();
  const admin = server.as('admin');
  let n = 0;
  const fresh = () => `flags-${++n}`;

  describe('SKIP_CACHE_LOAD', () => {
    it('GET and HEAD of an entry evicted from memory answer 404; without the flag it is read from the store', async () => {
      const c = fresh();
      await admin.createCache(c, PERSISTENT(1));
      await admin.put(`/rest/v2/caches/${c}/old`, 'v-old');
      await admin.put(`/rest/v2/caches/${c}/new`, 'v-new'); // evicts `old` from memory
      for (const base of [`/rest/v2/caches/${c}`, `/rest/${c}`]) {
        expect((await admin.get(`${base}/old`, { flags: 'SKIP_CACHE_LOAD' })).status, base).to.equal(404);
        expect((await admin.head(`${base}/old`, { flags: 'SKIP_CACHE_LOAD' })).status, base).to.equal(404);
      }
      expect((await admin.get(`/rest/v2/caches/${c}/new`, { flags: 'SKIP_CACHE_LOAD' })).text).to.equal('v-new');
      expect((await admin.get(`/rest/v2/caches/${c}/old`)).text).to.equal('v-old');
    });

    it('DELETE of an entry held only by the store answers 404 and leaves it', async () => {
      const c = fresh();
      await admin.createCache(c, PERSISTENT(1));
      await admin.put(`/rest/v2/caches/${c}/a`, 'va');
      await admin.put(`/rest/v2/caches/${c}/b`, 'vb');
      expect((await admin.delete(`/rest/v2/caches/${c}/a`, { flags: 'SKIP_CACHE_LOAD' })).status).to.equal(404);
      expect((await admin.get(`/rest/v2/caches/${c}/a`)).text).to.equal('va');
    });
  });

  describe('SKIP_CACHE_STORE', () => {
    it('PUT and DELETE change memory only: an evicted entry comes back from the store as it was', async () => {
      const c = fresh();
      await admin.createCache(c, PERSISTENT(1));
      await admin.put(`/rest/v2/caches/${c}/k`, 'stored');
      expect((await admin.put(`/rest/v2/caches/${c}/k`, 'memory', { flags: 'SKIP_CACHE_STORE' })).status).to.equal(204);
      expect((await admin.get(`/rest/v2/caches/${c}/k`)).text).to.equal('memory');
      await admin.put(`/rest/v2/caches/${c}/other`, 'x'); // evicts k: memory's version is gone
      expect((await admin.get(`/rest/v2/caches/${c}/k`)).text).to.equal('stored');
      expect((await admin.delete(`/rest/${c}/k`, { flags: 'SKIP_CACHE_STORE' })).status).to.equal(204);
      await admin.put(`/rest/v2/caches/${c}/other`, 'y');
      expect((await admin.get(`/rest/v2/caches/${c}/k`)).text).to.equal('stored');
    });
  });

  describe('SKIP_STATISTICS', () => {
    it('leaves reads, writes and removals out of ?action=stats', async () => {
      const c = fresh();
      await admin.createCache(c, { 'local-cache': { statistics: true } });
      const skip = { flags: 'SKIP_STATISTICS' };
      await admin.put(`/rest/v2/caches/${c}/k`, 'v', skip);
      await admin.post(`/rest/v2/caches/${c}/p`, 'v', skip);
      await admin.get(`/rest/v2/caches/${c}/k`, skip);
      await admin.head(`/rest/${c}/k`, skip);
      await admin.get(`/rest/v2/caches/${c}/missing`, skip);
      await admin.delete(`/rest/v2/caches/${c}/k`, skip);
      const stats = (await admin.get(`/rest/v2/caches/${c}?action=stats`)).json<Record<string, number>>();
      expect(stats).to.include({ hits: 0, misses: 0, stores: 0, remove_hits: 0, remove_misses: 0 });
      await admin.get(`/rest/v2/caches/${c}/p`);
      await admin.put(`/rest/v2/caches/${c}/k2`, 'v');
      expect((await admin.get(`/rest/v2/caches/${c}?action=stats`)).json<Record<string, number>>()).to.include({ hits: 1, stores: 1 });
    });
  });

  describe('SKIP_LISTENER_NOTIFICATION', () => {
    it('sends no event for writes and removals that carry it', async () => {
      const c = fresh();
      await admin.createCache(c);
      const sse = await SseReader.open(`${server.url}/rest/v2/caches/${c}?action=listen`, basic('admin'));
      try {
        const skip = { flags: 'SKIP_LISTENER_NOTIFICATION' };
        await admin.put(`/rest/v2/caches/${c}/quiet`, 'v', skip);
        await admin.post(`/rest/${c}/quiet2`, 'v', skip);
        await admin.delete(`/rest/v2/caches/${c}/quiet`, skip);
        await admin.put(`/rest/v2/caches/${c}/heard`, 'v');
        expect(await sse.next(1)).to.deep.equal([{ event: 'cache-entry-created', data: 'heard' }]);
        await admin.delete(`/rest/v2/caches/${c}/quiet2`);
        expect(await sse.next(1)).to.deep.equal([{ event: 'cache-entry-removed', data: 'quiet2' }]);
      } finally {
        sse.close();
      }
    });
  });

  it('applies several flags at once, and still refuses an unknown one with 400', async () => {
    const c = fresh();
    await admin.createCache(c, { 'local-cache': { statistics: true } });
    expect((await admin.put(`/rest/v2/caches/${c}/k`, 'v', { flags: 'SKIP_LOCKING,SKIP_STATISTICS' })).status).to.equal(204);
    expect((await admin.get(`/rest/v2/caches/${c}?action=stats`)).json<Record<string, number>>()).to.include({ stores: 0 });
    const bad = await admin.put(`/rest/v2/caches/${c}/k`, 'v', { flags: 'SKIP_STATISTICS,skip_cache_store' });
    expect(bad.status).to.equal(400);
    expect(bad.text).to.equal('No enum constant org.infinispan.context.Flag.skip_cache_store');
  });

  describe('SKIP_INDEXING', () => {
    const ITEM_PROTO = 'package flags;\n/* @Indexed */\nmessage Item {\n  /* @Basic */\n  optional string name = 1;\n}\n';
    it('keeps the write out of the index: an indexed query does not find it, the entry is still there; a later write indexes it', async () => {
      expect((await admin.put('/rest/v2/schemas/flags-item', ITEM_PROTO)).status).to.be.oneOf([200, 201]);
      const c = fresh();
      await admin.createCache(c, { 'local-cache': { encoding: { 'media-type': 'application/x-protostream' }, indexing: { enabled: true, 'indexed-entities': ['flags.Item'] } } });
      const put = (key: string, name: string, flags?: string) => admin.put(`/rest/v2/caches/${c}/${key}`, JSON.stringify({ _type: 'flags.Item', name }),
        { 'Content-Type': 'application/json', ...(flags ? { flags } : {}) });
      const hits = async (name: string) => (await admin.get(`/rest/v2/caches/${c}?action=search&query=${encodeURIComponent(`FROM flags.Item WHERE name = '${name}'`)}`))
        .json<{ hit_count: number }>().hit_count;
      expect((await put('skipped', 'ghost', 'SKIP_INDEXING,SKIP_CACHE_LOAD')).status).to.equal(204);
      expect((await put('indexed', 'seen')).status).to.equal(204);
      expect(await hits('ghost')).to.equal(0);
      expect(await hits('seen')).to.equal(1);
      expect((await admin.get(`/rest/v2/caches/${c}/skipped`, { Accept: 'application/json' })).json()).to.deep.include({ name: 'ghost' });
      expect((await put('skipped', 'ghost')).status).to.equal(204);
      expect(await hits('ghost')).to.equal(1);
    });
  });

  describe('GET ?action=size', () => {
    it('counts memory only with SKIP_CACHE_LOAD, as the original\'s size with the request\'s flags; 400 for an unknown flag', async () => {
      const c = fresh();
      await admin.createCache(c, PERSISTENT(3));
      for (let i = 0; i < 10; i++) await admin.put(`/rest/v2/caches/${c}/k${i}`, `v${i}`);
      expect((await admin.get(`/rest/v2/caches/${c}?action=size`)).json()).to.equal(10);
      expect((await admin.get(`/rest/v2/caches/${c}?action=size`, { flags: 'SKIP_CACHE_LOAD' })).json()).to.equal(3);
      expect((await admin.get(`/rest/v2/caches/${c}?action=size`, { flags: 'SKIP_STATISTICS' })).json()).to.equal(10);
      const bad = await admin.get(`/rest/v2/caches/${c}?action=size`, { flags: 'SKIP_EVERYTHING' });
      expect([bad.status, bad.text]).to.deep.equal([400, 'No enum constant org.infinispan.context.Flag.SKIP_EVERYTHING']);
    });
  });

  it('drops empty entries of the list, as the original does: `SKIP_CACHE_LOAD,` is SKIP_CACHE_LOAD, `,` is none', async () => {
    const c = fresh();
    await admin.createCache(c, PERSISTENT(1));
    await admin.put(`/rest/v2/caches/${c}/old`, 'v-old');
    await admin.put(`/rest/v2/caches/${c}/new`, 'v-new'); // evicts `old` from memory
    for (const flags of ['SKIP_CACHE_LOAD,', ',SKIP_CACHE_LOAD', 'SKIP_CACHE_LOAD,,SKIP_STATISTICS']) {
      expect((await admin.get(`/rest/v2/caches/${c}/old`, { flags })).status, flags).to.equal(404);
    }
    expect((await admin.get(`/rest/v2/caches/${c}/old`, { flags: ',' })).text).to.equal('v-old');
    expect((await admin.put(`/rest/v2/caches/${c}/k`, 'v', { flags: 'SKIP_STATISTICS,,bogus' })).status).to.equal(400);
  });
});

describe('flags: SKIP_CACHE_STORE across kill -9 (bin/grid start)', function () {
  this.timeout(60_000);

  it('keeps a write made with the flag in memory only: after a restart the stored value is back', async () => {
    const dataDir = tempDir();
    try {
      let proc = await spawnServer(['--data', dataDir], { APP_USER: 'ops', APP_PASS: 'ops-pw' });
      let client = new Client(proc.url, { user: 'ops', password: 'ops-pw' });
      await client.createCache('durable', PERSISTENT());
      await client.put('/rest/v2/caches/durable/both', 'stored');
      expect((await client.put('/rest/v2/caches/durable/both', 'memory', { flags: 'SKIP_CACHE_STORE' })).status).to.equal(204);
      expect((await client.put('/rest/v2/caches/durable/fresh', 'memory', { flags: 'SKIP_CACHE_STORE' })).status).to.equal(204);
      expect((await client.post('/rest/durable/posted', 'memory', { flags: 'SKIP_CACHE_STORE' })).status).to.equal(204);
      await client.put('/rest/v2/caches/durable/kept', 'stored');
      expect((await client.delete('/rest/v2/caches/durable/kept', { flags: 'SKIP_CACHE_STORE' })).status).to.equal(204);
      expect((await client.get('/rest/v2/caches/durable/fresh')).text).to.equal('memory');
      proc.child.kill('SIGKILL');
      await waitForExit(proc.child);

      proc = await spawnServer(['--data', dataDir]);
      client = new Client(proc.url, { user: 'ops', password: 'ops-pw' });
      try {
        expect((await client.get('/rest/v2/caches/durable/both')).text).to.equal('stored');
        expect((await client.get('/rest/v2/caches/durable/fresh')).status).to.equal(404);
        expect((await client.get('/rest/v2/caches/durable/posted')).status).to.equal(404);
        expect((await client.get('/rest/v2/caches/durable/kept')).text).to.equal('stored');
      } finally {
        proc.child.kill('SIGTERM');
        expect(await waitForExit(proc.child)).to.equal(0);
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

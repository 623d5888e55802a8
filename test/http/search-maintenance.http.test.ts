import Database from 'better-sqlite3';
import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Client, type Reply } from '../support/client';
import { spawnServer, waitForExit } from '../support/process';
import { GAME_PROTO, PERSON, PERSON_PROTO, people } from '../support/query-fixtures';
import { putAllJson, putJson, registerSchema, searchOk } from '../support/search';
import { tempDir, useServer, withServer } from '../support/server';
import { ManualClock } from '../../src/util/clock';

const PROTOSTREAM = { encoding: { 'media-type': 'application/x-protostream' } };
const INDEXING = { indexing: { enabled: true, 'indexed-entities': ['Game'] } };
const KINDS: Record<string, unknown> = {
  memory: { 'local-cache': { ...PROTOSTREAM, ...INDEXING } },
  persistent: { 'local-cache': { ...PROTOSTREAM, ...INDEXING, persistence: { 'file-store': {} } } },
  passivating: { 'local-cache': { ...PROTOSTREAM, ...INDEXING, memory: { 'max-count': '5' }, persistence: { passivation: true, 'file-store': {} } } },
};

const game = (name: string, description: string) => ({ _type: 'Game', name, description });
const names = async (client: Client, cache: string, where: string): Promise<string[]> =>
  (await searchOk(client, cache, `select name from Game where ${where} order by name`, { max_results: 1000 })).hits.map((h) => String(h.hit.name));

describe('index maintenance: the index follows every change of the cache', () => {
  const clock = new ManualClock();
  const server = useServer({ clock });
  const admin = server.as('admin');

  before(async () => {
    await registerSchema(admin, 'game.proto', GAME_PROTO);
    await registerSchema(admin, 'person.proto', PERSON_PROTO);
  });

  for (const [kind, config] of Object.entries(KINDS)) {
    describe(`PUT, DELETE, clear and expiry on a ${kind} indexed cache`, () => {
      const cache = `maint-${kind}`;
      before(() => admin.createCache(cache, config));

      it('replaces what a key indexed when it is written again (BaseRestSearchTest: PUT key 10 twice)', async () => {
        await putJson(admin, cache, '10', game('first', 'an old story'));
        await putJson(admin, cache, '10', game('second', 'a new story'));
        expect(await names(admin, cache, "description : 'new'")).to.deep.equal(['second']);
        expect(await names(admin, cache, "description : 'old' or name = 'first'")).to.deep.equal([]);
        expect(JSON.parse((await admin.get(`/rest/v2/caches/${cache}/10`, { Accept: 'application/json' })).text).name).to.equal('second');
      });

      it('forgets removed entries, and a cleared cache', async () => {
        await putAllJson(admin, cache, Array.from({ length: 12 }, (_, i) => [`r${i}`, game(`r${i}`, 'removable')]));
        expect(await names(admin, cache, "description : 'removable'")).to.have.length(12);
        expect((await admin.delete(`/rest/v2/caches/${cache}/r3`)).status).to.equal(204);
        expect(await names(admin, cache, "description : 'removable'")).to.not.include('r3');
        expect((await admin.post(`/rest/v2/caches/${cache}?action=clear`)).status).to.equal(204);
        expect(await names(admin, cache, "description : 'removable' or name is not null")).to.deep.equal([]);
      });

      it('stops finding an entry once it expires (DistributedQueryExpiredEntitiesTest)', async () => {
        await putJson(admin, cache, 'mortal', game('mortal', 'enlightenment'), { timeToLiveSeconds: '60' });
        expect(await names(admin, cache, "description : 'enlightenment'")).to.deep.equal(['mortal']);
        clock.advance(61_000);
        expect(await names(admin, cache, "description : 'enlightenment'")).to.deep.equal([]);
        expect((await searchOk(admin, cache, "from Game where description : 'enlightenment'", { max_results: 0 })).hit_count).to.equal(0);
        server.running.services.manager.reapExpired();
        expect(await names(admin, cache, "description : 'enlightenment'")).to.deep.equal([]);
      });
    });
  }

  it('drops entries evicted from a bounded memory-only cache from its index', async () => {
    await admin.createCache('bounded', { 'local-cache': { ...PROTOSTREAM, ...INDEXING, memory: { 'max-count': '3' } } });
    for (let i = 0; i < 5; i++) await putJson(admin, 'bounded', `b${i}`, game(`b${i}`, 'bounded'));
    expect(await names(admin, 'bounded', "description : 'bounded'")).to.deep.equal(['b2', 'b3', 'b4']);
  });

  it('keeps passivated entries findable: they stay in the cache', async () => {
    await admin.createCache('passive', KINDS.passivating);
    await putAllJson(admin, 'passive', Array.from({ length: 10 }, (_, i) => [`p${i}`, game(`p${i}`, 'passive')]), 1);
    expect(await names(admin, 'passive', "description : 'passive'")).to.have.length(10);
  });

  it('starts a re-created cache with an empty index', async () => {
    await admin.createCache('recreated', KINDS.persistent);
    await putJson(admin, 'recreated', 'x', game('x', 'ghost'));
    expect((await admin.delete('/rest/v2/caches/recreated')).status).to.equal(200);
    await admin.createCache('recreated', KINDS.persistent);
    expect(await names(admin, 'recreated', "description : 'ghost'")).to.deep.equal([]);
  });
});

describe('indexes across kill -9 and restart (bin/grid start)', function () {
  this.timeout(60_000);

  it('keeps a persistent cache index consistent with its entries; a memory-only one starts empty', async () => {
    const dataDir = tempDir();
    try {
      let proc = await spawnServer(['--data', dataDir], { APP_USER: 'ops', APP_PASS: 'ops-pw' });
      let client = new Client(proc.url, { user: 'ops', password: 'ops-pw' });
      await registerSchema(client, 'game.proto', GAME_PROTO);
      await client.createCache('durable', KINDS.persistent);
      await client.createCache('volatile', KINDS.memory);
      await putAllJson(client, 'durable', Array.from({ length: 200 }, (_, i) => [`d${i}`, game(`d${i}`, i % 2 ? 'odd one' : 'even one')]));
      await putJson(client, 'volatile', 'v', game('v', 'odd one'));
      expect((await client.delete('/rest/v2/caches/durable/d1')).status).to.equal(204);
      proc.child.kill('SIGKILL');
      await waitForExit(proc.child);

      proc = await spawnServer(['--data', dataDir]);
      client = new Client(proc.url, { user: 'ops', password: 'ops-pw' });
      try {
        expect((await searchOk(client, 'durable', "from Game where description : 'odd'", { max_results: 0 })).hit_count).to.equal(99);
        expect((await searchOk(client, 'durable', "from Game where name = 'd1' or name = 'd3'")).hits.map((h) => h.hit.name)).to.deep.equal(['d3']);
        expect((await searchOk(client, 'volatile', "from Game where description : 'odd'")).hit_count).to.equal(0);
      } finally {
        proc.child.kill('SIGTERM');
        await waitForExit(proc.child);
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('drops from a passivating cache\'s index the entries a crash lost with memory, and keeps the passivated ones', async () => {
    const dataDir = tempDir();
    try {
      let proc = await spawnServer(['--data', dataDir], { APP_USER: 'ops', APP_PASS: 'ops-pw' });
      let client = new Client(proc.url, { user: 'ops', password: 'ops-pw' });
      await registerSchema(client, 'game.proto', GAME_PROTO);
      await client.createCache('passive', KINDS.passivating); // memory max-count 5
      await client.createCache('durable', KINDS.persistent);
      // one at a time: p0…p14 are passivated in order, p15…p19 stay in memory
      await putAllJson(client, 'passive', Array.from({ length: 20 }, (_, i) => [`p${i}`, game(`p${i}`, 'passive')]), 1);
      // activation: p3 comes back to memory (its stored copy goes) and p15 is passivated in its place
      expect((await client.get('/rest/v2/caches/passive/p3', { Accept: 'application/json' })).status).to.equal(200);
      await putJson(client, 'durable', 'after', game('after', 'a later write, so the activation is committed'));
      expect((await searchOk(client, 'passive', "from Game where description : 'passive'", { max_results: 0 })).hit_count).to.equal(20);
      proc.child.kill('SIGKILL');
      await waitForExit(proc.child);

      proc = await spawnServer(['--data', dataDir]);
      client = new Client(proc.url, { user: 'ops', password: 'ops-pw' });
      try {
        const stored = ['p0', 'p1', 'p2', ...Array.from({ length: 12 }, (_, i) => `p${i + 4}`)].sort();
        for (const lost of ['p3', 'p16', 'p19']) expect((await client.get(`/rest/v2/caches/passive/${lost}`)).status, lost).to.equal(404);
        expect((await searchOk(client, 'passive', "from Game where description : 'passive'", { max_results: 0 })).hit_count).to.equal(stored.length);
        expect(await names(client, 'passive', "description : 'passive'")).to.deep.equal(stored);
        expect((await searchOk(client, 'passive', 'select count(g.name) from Game g')).hits[0].hit['COUNT(name)']).to.equal(stored.length);
      } finally {
        proc.child.kill('SIGTERM');
        await waitForExit(proc.child);
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('keeps a passivating cache\'s whole index across a clean shutdown, memory included', async () => {
    const dataDir = tempDir();
    try {
      let proc = await spawnServer(['--data', dataDir], { APP_USER: 'ops', APP_PASS: 'ops-pw' });
      let client = new Client(proc.url, { user: 'ops', password: 'ops-pw' });
      await registerSchema(client, 'game.proto', GAME_PROTO);
      await client.createCache('passive', KINDS.passivating);
      await putAllJson(client, 'passive', Array.from({ length: 12 }, (_, i) => [`p${i}`, game(`p${i}`, 'passive')]), 1);
      proc.child.kill('SIGTERM');
      await waitForExit(proc.child);

      proc = await spawnServer(['--data', dataDir]);
      client = new Client(proc.url, { user: 'ops', password: 'ops-pw' });
      try {
        expect((await searchOk(client, 'passive', "from Game where description : 'passive'", { max_results: 0 })).hit_count).to.equal(12);
        expect(await names(client, 'passive', "description : 'passive'")).to.have.length(12);
      } finally {
        proc.child.kill('SIGTERM');
        await waitForExit(proc.child);
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('indexes of data directories from before indexing', function () {
  this.timeout(60_000);

  it('builds, at start, the index of a persistent cache whose stored entries were never indexed', async () => {
    await withServer({}, async (server) => {
      await registerSchema(server.as('admin'), 'game.proto', GAME_PROTO);
      await server.as('admin').createCache('old', KINDS.persistent);
      await putAllJson(server.as('admin'), 'old', Array.from({ length: 30 }, (_, i) => [`o${i}`, game(`o${i}`, 'from before')]));
      await server.stop();
      const db = new Database(join(server.dataDir, 'grid.db'));
      db.exec('DELETE FROM index_values; DELETE FROM index_text; DELETE FROM index_docs; DELETE FROM index_fields; DELETE FROM index_types');
      db.close();
      await server.start();
      let count = 0;
      for (let i = 0; i < 200 && count !== 30; i++) {
        count = (await searchOk(server.as('admin'), 'old', "from Game where description : 'before'", { max_results: 0 })).hit_count;
        if (count !== 30) await new Promise((r) => setTimeout(r, 25));
      }
      expect(count).to.equal(30);
    });
  });
});

describe('indexes after backup and restore', function () {
  this.timeout(60_000);

  async function until(probe: () => Promise<Reply>): Promise<Reply> {
    for (let i = 0; i < 400; i++) {
      const r = await probe();
      if (r.status !== 202) return r;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error('still in progress');
  }

  it('rebuilds the index of an indexed cache restored into a fresh server', async () => {
    const zip = await withServer({}, async (source) => {
      const a = source.as('admin');
      await registerSchema(a, 'person.proto', PERSON_PROTO);
      await a.createCache('restored', { 'local-cache': { ...PROTOSTREAM, indexing: { enabled: true, 'indexed-entities': [PERSON] }, persistence: { 'file-store': {} } } });
      await putAllJson(a, 'restored', people());
      expect((await a.post('/rest/v2/container/backups/b', '{}', { 'Content-Type': 'application/json' })).status).to.equal(202);
      expect((await until(() => a.head('/rest/v2/container/backups/b'))).status).to.equal(200);
      return (await a.get('/rest/v2/container/backups/b')).bytes;
    });
    await withServer({}, async (target) => {
      const form = new FormData();
      form.append('backup', new Blob([zip], { type: 'application/zip' }), 'backup.zip');
      const upload = await fetch(`${target.url}/rest/v2/container/restores/r`, {
        method: 'POST', body: form, headers: { Authorization: 'Basic ' + Buffer.from('admin:admin-pw').toString('base64') },
      });
      expect(upload.status).to.equal(202);
      const t = target.as('admin');
      expect((await until(() => t.head('/rest/v2/container/restores/r'))).status).to.equal(201);
      const r = await searchOk(t, 'restored', `from ${PERSON} p where p.surname = 'Cage'`);
      expect([r.hit_count, r.hits[0].hit.name]).to.deep.equal([1, 'Luke']);
      const stats = (await t.get('/rest/v2/caches/restored/search/stats')).json<any>();
      expect(stats.index.types[PERSON].count).to.equal(50);
    });
  });
});

describe('queries and indexes per tenant (/rest/<tenant>/…)', () => {
  it('keeps each container\'s indexes apart, over v2 and v1 paths', async () => {
    await withServer({ tenants: [{ name: 't1' }] }, async (server) => {
      const admin = server.as('admin');
      for (const prefix of ['/rest', '/rest/t1']) {
        expect((await admin.put(`${prefix}/v2/schemas/game.proto`, GAME_PROTO)).status).to.be.oneOf([200, 201]);
        const r = await admin.post(`${prefix}/v2/caches/games`, JSON.stringify(KINDS.persistent), { 'Content-Type': 'application/json' });
        expect(r.status, r.text).to.equal(200);
        const put = await admin.put(`${prefix}/v2/caches/games/g`, JSON.stringify(game(prefix === '/rest' ? 'home' : 'tenant', 'shared words')), { 'Content-Type': 'application/json' });
        expect(put.status).to.equal(204);
      }
      const q = encodeURIComponent("from Game where description : 'words'");
      const home = (await admin.get(`/rest/v2/caches/games?action=search&query=${q}`)).json<{ hits: Array<{ hit: { name: string } }> }>();
      const tenant = (await admin.get(`/rest/t1/v2/caches/games?action=search&query=${q}`)).json<{ hits: Array<{ hit: { name: string } }> }>();
      expect([home.hits.map((h) => h.hit.name), tenant.hits.map((h) => h.hit.name)]).to.deep.equal([['home'], ['tenant']]);
      const v1 = (await admin.get(`/rest/t1/games?action=search&query=${q}`)).json<{ total_results: number; hits: Array<{ hit: { name: string } }> }>();
      expect([v1.total_results, v1.hits[0].hit.name]).to.deep.equal([1, 'tenant']);
      expect((await admin.get('/rest/t1/v2/caches/games/search/stats')).json<any>().index.types.Game.count).to.equal(1);
    });
  });
});

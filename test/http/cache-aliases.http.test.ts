import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { Client } from '../support/client';
import { spawnServer, waitForExit } from '../support/process';
import { tempDir, useServer } from '../support/server';

type Json = Record<string, unknown>;

describe('cache aliases (docs/reference/data-plane.md#cache-lookup, docs/reference/management-plane.md#aliases)', () => {
  const server = useServer();
  const admin = server.as('admin');
  let n = 0;
  const fresh = () => `alias-case-${++n}`;

  describe('POST /rest/v2/caches/{name} with aliases', () => {
    it('makes the alias answer in every cache path family', async () => {
      const cache = fresh();
      const alias = `${cache}-alias`;
      await admin.createCache(cache, { 'distributed-cache': { statistics: true, aliases: [alias], encoding: { 'media-type': 'text/plain' }, backups: { nyc: { backup: {} } } } });
      const a = `/rest/v2/caches/${alias}`;
      // existence and details
      expect((await admin.head(a)).status).to.equal(204);
      const details = (await admin.get(a)).json<Json>();
      expect(details.name).to.equal(cache);
      expect(details.aliases).to.deep.equal([alias]);
      // v2 entries
      expect((await admin.put(`${a}/k1`, 'v1', { 'Content-Type': 'text/plain' })).status).to.equal(204);
      expect((await admin.post(`${a}/k2`, 'v2', { 'Content-Type': 'text/plain' })).status).to.equal(204);
      expect((await admin.get(`/rest/v2/caches/${cache}/k1`)).text).to.equal('v1');
      expect((await admin.get(`${a}/k2`)).text).to.equal('v2');
      expect((await admin.head(`${a}/k1`)).status).to.equal(200);
      // v1 entries and listing
      expect((await admin.put(`/rest/${alias}/k3`, 'v3', { 'Content-Type': 'text/plain' })).status).to.equal(204);
      expect((await admin.get(`/rest/${alias}/k3`)).text).to.equal('v3');
      expect((await admin.get(`/rest/${alias}`)).text.split('\n').sort()).to.deep.equal(['k1', 'k2', 'k3']);
      // bulk and administrative actions
      expect((await admin.get(`${a}?action=keys`)).json<string[]>().sort()).to.deep.equal(['k1', 'k2', 'k3']);
      expect((await admin.get(`${a}?action=entries`)).json<unknown[]>()).to.have.length(3);
      expect((await admin.get(`${a}?action=size`)).json()).to.equal(3);
      expect((await admin.get(`${a}?action=stats`)).json<Json>().stores).to.equal(3);
      expect((await admin.get(`${a}?action=config`)).json()).to.have.key(cache);
      expect((await admin.get(`${a}?action=health`)).text).to.equal('HEALTHY');
      expect((await admin.get(`${a}?action=distribution`)).json<Json[]>()[0].total_entries).to.equal(3);
      expect((await admin.get(`${a}/k1?action=distribution`)).json<Json>().contains_key).to.equal(true);
      // cross-site state belongs to the cache, whichever name reaches it
      expect((await admin.post(`${a}/x-site/backups/nyc?action=take-offline`)).status).to.equal(200);
      expect((await admin.get(`/rest/v2/caches/${cache}/x-site/backups`)).json()).to.deep.equal({ nyc: { status: 'offline' } });
      expect((await admin.get(`${a}/x-site/backups`)).json()).to.deep.equal({ nyc: { status: 'offline' } });
      expect((await admin.delete(`${a}/k1`)).status).to.equal(204);
      expect((await admin.get(`/rest/v2/caches/${cache}/k1`)).status).to.equal(404);
      expect((await admin.post(`${a}?action=clear`)).status).to.equal(204);
      expect((await admin.get(`/rest/v2/caches/${cache}?action=size`)).json()).to.equal(0);
    });

    it('answers 503 through the alias when the cache is ignored, and refuses to delete a cache by its alias', async () => {
      const cache = fresh();
      const alias = `${cache}-alias`;
      await admin.createCache(cache, { 'local-cache': { aliases: [alias] } });
      expect((await admin.post(`/rest/v2/server/ignored-caches/${alias}`)).status).to.equal(204);
      expect((await admin.get('/rest/v2/server/ignored-caches')).json()).to.include(cache);
      const r = await admin.get(`/rest/v2/caches/${alias}/k`);
      expect(r.status).to.equal(503);
      expect((await admin.delete(`/rest/v2/server/ignored-caches/${cache}`)).status).to.equal(204);
      expect((await admin.delete(`/rest/v2/caches/${alias}`)).status).to.equal(404);
      expect((await admin.head(`/rest/v2/caches/${cache}`)).status).to.equal(204);
    });

    it('answers 400 when an alias is already used, and creates nothing', async () => {
      const owner = fresh();
      await admin.createCache(owner, { 'distributed-cache': { statistics: true, aliases: ['butch-cassidy'] } });
      const impostor = fresh();
      const r = await admin.post(`/rest/v2/caches/${impostor}`, JSON.stringify({ 'distributed-cache': { aliases: ['butch-cassidy'] } }), { 'Content-Type': 'application/json' });
      expect([r.status, r.text]).to.deep.equal([400, `The alias 'butch-cassidy' is already being used by cache '${owner}'`]);
      expect((await admin.head(`/rest/v2/caches/${impostor}`)).status).to.equal(404);
      const named = await admin.post(`/rest/v2/caches/${fresh()}`, JSON.stringify({ 'local-cache': { aliases: [owner] } }), { 'Content-Type': 'application/json' });
      expect([named.status, named.text]).to.deep.equal([400, `The alias '${owner}' is already being used by cache '${owner}'`]);
      const taken = await admin.post('/rest/v2/caches/butch-cassidy', JSON.stringify({ 'local-cache': {} }), { 'Content-Type': 'application/json' });
      expect([taken.status, taken.text]).to.deep.equal([400, 'ISPN000507: Cache butch-cassidy already exists']);
    });
  });

  describe('POST /rest/v2/caches/{name}?action=assign-alias', () => {
    it('moves the alias from one cache to another', async () => {
      const one = fresh();
      const two = fresh();
      const alias = `${one}-wu-ming`;
      await admin.createCache(one, { 'distributed-cache': { statistics: true, aliases: [alias] } });
      await admin.createCache(two, { 'distributed-cache': { statistics: true } });
      await admin.put(`/rest/v2/caches/${one}/key`, 'v1');
      await admin.put(`/rest/v2/caches/${two}/key`, 'v2');
      expect((await admin.get(`/rest/v2/caches/${alias}/key`)).text).to.equal('v1');
      const r = await admin.post(`/rest/v2/caches/${two}?action=assign-alias&alias=${alias}`);
      expect([r.status, r.text]).to.deep.equal([200, '']);
      expect((await admin.get(`/rest/v2/caches/${alias}/key`)).text).to.equal('v2');
      expect((await admin.get(`/rest/v2/caches/${one}`)).json<Json>().aliases).to.deep.equal([]);
      expect((await admin.get(`/rest/v2/caches/${two}`)).json<Json>().aliases).to.deep.equal([alias]);
      // assigning it again to its owner changes nothing
      expect((await admin.post(`/rest/v2/caches/${two}?action=assign-alias&alias=${alias}`)).status).to.equal(200);
    });

    it('answers 400 for a cache name or a missing alias, 403 for non-ADMIN, 404 for a missing cache', async () => {
      const one = fresh();
      const two = fresh();
      await admin.createCache(one);
      await admin.createCache(two);
      const r = await admin.post(`/rest/v2/caches/${two}?action=assign-alias&alias=${one}`);
      expect([r.status, r.text]).to.deep.equal([400, `The alias '${one}' is already being used by cache '${one}'`]);
      expect((await admin.post(`/rest/v2/caches/${two}?action=assign-alias`)).status).to.equal(400);
      expect((await server.as('deployer').post(`/rest/v2/caches/${two}?action=assign-alias&alias=x`)).status).to.equal(403);
      expect((await admin.post('/rest/v2/caches/nope-missing?action=assign-alias&alias=x')).status).to.equal(404);
    });
  });

  describe('aliases of a secured cache the caller cannot see (docs/security.md)', () => {
    it('cannot be taken, and no refusal names the cache', async () => {
      const vault = fresh();
      const open = fresh();
      const alias = `${vault}-a`;
      await admin.createCache(vault, { 'local-cache': { aliases: [alias], security: { authorization: { roles: ['application', 'deployer'] } } } });
      await admin.createCache(open);
      const hidden = `The alias '${alias}' is already being used`;
      const take = await admin.post(`/rest/v2/caches/${open}?action=assign-alias&alias=${alias}`);
      expect([take.status, take.text]).to.deep.equal([400, hidden]);
      const app = server.as('application');
      expect((await app.get(`/rest/v2/caches/${vault}`)).json<Json>().aliases).to.deep.equal([alias]);
      expect((await app.put(`/rest/v2/caches/${alias}/k`, 'v')).status).to.equal(204);
      expect((await admin.get(`/rest/v2/caches/${open}/k`)).status).to.equal(404);
      const create = await admin.post(`/rest/v2/caches/${fresh()}`, JSON.stringify({ 'local-cache': { aliases: [alias] } }), { 'Content-Type': 'application/json' });
      expect([create.status, create.text]).to.deep.equal([400, hidden]);
      const set = await admin.post(`/rest/v2/caches/${open}?action=set-mutable-attribute&attribute-name=aliases&attribute-value=${alias}`);
      expect([set.status, set.text]).to.deep.equal([400, hidden]);
      // a caller who may see the cache still learns its name, as in the original
      const seen = await server.as('deployer').post(`/rest/v2/caches/${fresh()}`, JSON.stringify({ 'local-cache': { aliases: [alias] } }), { 'Content-Type': 'application/json' });
      expect(seen.text).to.equal(`The alias '${alias}' is already being used by cache '${vault}'`);
    });
  });

  describe('POST /rest/v2/caches/{name}?action=set-mutable-attribute&attribute-name=aliases', () => {
    it('replaces the aliases as the console edits them, refusing one another cache uses', async () => {
      const one = fresh();
      const two = fresh();
      await admin.createCache(one, { 'local-cache': { aliases: [`${one}-x`] } });
      await admin.createCache(two);
      const set = (cache: string, value: string) => admin.post(`/rest/v2/caches/${cache}?action=set-mutable-attribute&attribute-name=aliases&attribute-value=${encodeURIComponent(value)}`);
      expect((await set(two, `${two}-a ${two}-b`)).status).to.equal(200);
      expect(JSON.parse((await admin.get(`/rest/v2/caches/${two}?action=get-mutable-attribute&attribute-name=aliases`)).text)).to.equal(`[${two}-a, ${two}-b]`);
      expect((await admin.get(`/rest/v2/caches/${two}-b`)).json<Json>().name).to.equal(two);
      const clash = await set(two, `${one}-x`);
      expect([clash.status, clash.text]).to.deep.equal([400, `The alias '${one}-x' is already being used by cache '${one}'`]);
      expect((await set(two, '')).status).to.equal(200);
      expect((await admin.head(`/rest/v2/caches/${two}-a`)).status).to.equal(404);
    });
  });

  describe('the naming rule (docs/security.md "Names") for aliases, whichever way they are given', () => {
    // a lone surrogate only through JSON: a URL cannot carry one
    const BAD = ['x\ny', 'nul\u0000byte', 'nel\u0085', '\ud800'];
    const refusal = (alias: string) => `Invalid alias name ${JSON.stringify(alias)}: a name is not empty, has no control characters (NUL, CR, LF…) and is well-formed Unicode`;

    it('refuses them in a configuration (400) and creates nothing', async () => {
      for (const alias of BAD) {
        const name = fresh();
        const r = await admin.post(`/rest/v2/caches/${name}`, JSON.stringify({ 'local-cache': { aliases: [alias] } }), { 'Content-Type': 'application/json' });
        expect([r.status, r.text], JSON.stringify(alias)).to.deep.equal([400, refusal(alias)]);
        expect((await admin.head(`/rest/v2/caches/${name}`)).status).to.equal(404);
      }
    });

    it('refuses them in assign-alias and set-mutable-attribute (400), leaving the aliases as they were', async () => {
      const cache = fresh();
      await admin.createCache(cache, { 'local-cache': { aliases: [`${cache}-ok`] } });
      for (const alias of BAD.filter((a) => a !== '\ud800')) {
        const assigned = await admin.post(`/rest/v2/caches/${cache}?action=assign-alias&alias=${encodeURIComponent(alias)}`);
        expect([assigned.status, assigned.text], JSON.stringify(alias)).to.deep.equal([400, refusal(alias)]);
        if (/\s/.test(alias)) continue; // the attribute's value is a blank-separated list: x\ny is x and y
        const set = await admin.post(`/rest/v2/caches/${cache}?action=set-mutable-attribute&attribute-name=aliases&attribute-value=${encodeURIComponent(alias)}`);
        expect([set.status, set.text], JSON.stringify(alias)).to.deep.equal([400, refusal(alias)]);
      }
      const config = (await admin.get(`/rest/v2/caches/${cache}?action=config`)).json<Json>();
      expect(JSON.stringify(config)).to.contain(`"aliases":["${cache}-ok"]`);
    });
  });

  describe('aliases after a restart', () => {
    it('keep resolving after kill -9, with assigned aliases and set attributes', async function () {
      this.timeout(60_000);
      const dataDir = tempDir();
      try {
        let proc = await spawnServer(['--data', dataDir], { APP_USER: 'ops', APP_PASS: 'ops-pw' });
        let client = new Client(proc.url, { user: 'ops', password: 'ops-pw' });
        await client.createCache('robert-parker', { 'distributed-cache': { aliases: ['butch-cassidy'], persistence: { 'file-store': {} } } });
        await client.createCache('wu-ming-2', { 'distributed-cache': {} });
        expect((await client.put('/rest/v2/caches/butch-cassidy/k', 'kept')).status).to.equal(204);
        expect((await client.post('/rest/v2/caches/wu-ming-2?action=assign-alias&alias=wu-ming')).status).to.equal(200);
        expect((await client.post('/rest/v2/caches/robert-parker?action=set-mutable-attribute&attribute-name=expiration.lifespan&attribute-value=1h')).status).to.equal(200);
        proc.child.kill('SIGKILL');
        await waitForExit(proc.child);

        proc = await spawnServer(['--data', dataDir]);
        client = new Client(proc.url, { user: 'ops', password: 'ops-pw' });
        try {
          expect((await client.get('/rest/v2/caches/butch-cassidy/k')).text).to.equal('kept');
          expect((await client.get('/rest/v2/caches/wu-ming')).json<Json>().name).to.equal('wu-ming-2');
          expect(JSON.parse((await client.get('/rest/v2/caches/butch-cassidy?action=get-mutable-attribute&attribute-name=expiration.lifespan')).text)).to.equal('1h');
          const clash = await client.post('/rest/v2/caches/impostor', JSON.stringify({ 'local-cache': { aliases: ['wu-ming'] } }), { 'Content-Type': 'application/json' });
          expect(clash.text).to.equal("The alias 'wu-ming' is already being used by cache 'wu-ming-2'");
        } finally {
          proc.child.kill('SIGTERM');
          expect(await waitForExit(proc.child)).to.equal(0);
        }
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    });
  });
});

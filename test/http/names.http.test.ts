import { expect } from 'chai';
import { until } from '../support/poll';
import { basicAuth, rawRequest } from '../support/raw-http';
import { holders } from '../support/node-files';
import { useServer, withServer } from '../support/server';

/** The names of the original's encoded-name tests (testCreateCacheEncodedName). */
const NAMES = ['a/', 'a/b/c', 'a-b-c', 'áb\\ćé/+-$', 'org.infinispan.cache', 'a%25bc'];
/** As the original's REST client sends a name (URLEncoder): one path segment, `/` as %2F. */
const seg = (name: string) => encodeURIComponent(name);
const JSON_TYPE = { 'Content-Type': 'application/json' };
const TEXT = { 'Content-Type': 'text/plain' };
const C = '/rest/v2/container';

describe('names hold anything but control characters (docs/security.md "Names")', () => {
  const server = useServer();
  const admin = server.as('admin');

  describe('caches: create, size, list, entries (v2 and v1 paths)', () => {
    for (const name of NAMES) {
      it(`"${name}"`, async () => {
        const cache = `/rest/v2/caches/${seg(name)}`;
        const created = await admin.post(cache, JSON.stringify({ 'distributed-cache': { mode: 'SYNC' } }), JSON_TYPE);
        expect([created.status, created.text]).to.deep.equal([200, '']);
        expect((await admin.get(`${cache}?action=size`)).text).to.equal('0');
        expect((await admin.get('/rest/v2/caches')).json<string[]>()).to.include(name);
        expect((await admin.post(`${cache}/key`, 'value', TEXT)).status).to.equal(204);
        expect((await admin.get(`${cache}/key`)).text).to.equal('value');
        expect((await admin.get(`/rest/${seg(name)}/key`)).text).to.equal('value');
        expect((await admin.get(`${cache}?action=config`)).json<Record<string, unknown>>()).to.have.property(name);
      });
    }

    it('a/b and a%2Fb are two caches', async () => {
      await admin.createCache('x/y');
      await admin.createCache('x%2Fy');
      await admin.put('/rest/v2/caches/x%2Fy/k', 'slash', TEXT);
      await admin.put('/rest/v2/caches/x%252Fy/k', 'percent', TEXT);
      expect((await admin.get('/rest/v2/caches/x%2Fy/k')).text).to.equal('slash');
      expect((await admin.get('/rest/v2/caches/x%252Fy/k')).text).to.equal('percent');
      expect((await admin.delete('/rest/v2/caches/x%2Fy')).status).to.equal(200);
      expect((await admin.get('/rest/v2/caches/x%252Fy/k')).text).to.equal('percent');
    });

    it('`..` and `.` are names like others: a raw request creates and reads them', async () => {
      const auth = { ...basicAuth('admin'), ...JSON_TYPE };
      for (const name of ['..', '.']) {
        const created = await rawRequest(server.url, `/rest/v2/caches/${name}`, { method: 'POST', headers: auth, body: '{"local-cache":{}}' });
        expect(created.status, name).to.equal(200);
      }
      expect((await admin.get('/rest/v2/caches')).json<string[]>()).to.include.members(['..', '.']);
      expect((await admin.post('/rest/v2/caches/%2E%2E%2Fx', '{"local-cache":{}}', JSON_TYPE)).status).to.equal(200); // the cache `../x`
      expect((await admin.get('/rest/v2/caches')).json<string[]>()).to.include('../x');
    });

    it('aliases and templates take such names too', async () => {
      await admin.createCache('aliased');
      expect((await admin.post(`/rest/v2/caches/aliased?action=assign-alias&alias=${seg('al/i.as')}`)).status).to.equal(200);
      await admin.put(`/rest/v2/caches/${seg('al/i.as')}/k`, 'through the alias', TEXT);
      expect((await admin.get('/rest/v2/caches/aliased/k')).text).to.equal('through the alias');
      for (const name of NAMES) {
        const template = `t/${name}`;
        expect((await admin.post(`/rest/v2/caches/${seg(template)}`, '{"local-cache-configuration":{"statistics":true}}', JSON_TYPE)).status).to.equal(200);
        const cache = `from ${template}`;
        expect((await admin.post(`/rest/v2/caches/${seg(cache)}?template=${seg(template)}`)).status, template).to.equal(200);
        expect((await admin.get(`/rest/v2/caches/${seg(cache)}?action=config`)).text).to.contain('"statistics":true');
      }
      const templates = (await admin.get('/rest/v2/cache-configs/templates')).json<Array<{ name: string }>>().map((t) => t.name);
      expect(templates).to.include.members(NAMES.map((n) => `t/${n}`));
    });
  });

  describe('schemas: through /schemas and ___protobuf_metadata, imports by their path', () => {
    it('registers org/example/library.proto importing org/example/base.proto; lists, reads and uses them', async () => {
      const base = await admin.post(`/rest/v2/schemas/${seg('org/example/base.proto')}`, 'package org.example; message Base { optional string id = 1; }');
      expect(base.json()).to.deep.equal({ name: 'org/example/base.proto', error: null });
      const lib = 'package org.example; import "org/example/base.proto"; message Book { optional Base base = 1; optional string title = 2; }';
      expect((await admin.put(`/rest/v2/schemas/${seg('org/example/library')}`, lib)).json()).to.deep.equal({ name: 'org/example/library.proto', error: null });
      const listed = (await admin.get('/rest/v2/schemas')).json<Array<{ name: string }>>().map((s) => s.name);
      expect(listed).to.include.members(['org/example/base.proto', 'org/example/library.proto']);
      expect((await admin.get(`/rest/v2/schemas/${seg('org/example/library.proto')}`)).text).to.equal(lib);
      expect((await admin.get('/rest/v2/schemas?action=types')).json()).to.include('org.example.Book');
      const keys = (await admin.get('/rest/v2/caches/___protobuf_metadata?action=keys')).json<string[]>();
      expect(keys).to.include.members(['org/example/base.proto', 'org/example/library.proto']);
    });

    for (const name of NAMES) {
      it(`"${name}.proto" through ___protobuf_metadata, read through /schemas`, async () => {
        const file = `${name}.proto`;
        const put = await admin.put(`/rest/v2/caches/___protobuf_metadata/${seg(file)}`, 'message A { optional string s = 1; }', TEXT);
        expect(put.status, put.text).to.equal(204);
        expect((await admin.get(`/rest/v2/schemas/${seg(name)}`)).text).to.contain('message A');
        expect((await admin.get(`/rest/v2/caches/___protobuf_metadata/${seg(file)}`)).text).to.contain('message A');
        expect((await admin.get('/rest/v2/schemas')).json<Array<{ name: string }>>().map((s) => s.name)).to.include(file);
        expect((await admin.delete(`/rest/v2/schemas/${seg(file)}`)).status).to.equal(204);
      });
    }
  });

  describe('counters and tasks', () => {
    for (const name of NAMES) {
      it(`"${name}"`, async () => {
        const counter = `/rest/v2/counters/${seg(name)}`;
        expect((await admin.post(counter, '{"weak-counter":{"initial-value":5}}', JSON_TYPE)).status).to.equal(200);
        expect((await admin.post(`${counter}?action=increment`)).status).to.equal(204);
        expect((await admin.get(counter)).text).to.equal('6');
        expect((await admin.get('/rest/v2/counters')).json<string[]>()).to.include(name);
        const task = `/rest/v2/tasks/${seg(name)}`;
        expect((await admin.put(task, `// mode=local,language=javascript\n"ran " + ${JSON.stringify(name)}`)).status).to.equal(200);
        expect((await admin.post(`${task}?action=exec`)).json()).to.equal(`ran ${name}`);
        expect((await admin.get('/rest/v2/tasks')).json<Array<{ name: string }>>().map((t) => t.name)).to.include(name);
        expect((await admin.get(`${task}?action=script`)).text).to.contain('"ran "');
      });
    }
  });

  describe('backups and restores', () => {
    it('back up such names under such a name, inside backups/, and restore every one elsewhere', async () => {
      for (const name of NAMES) {
        await admin.put(`/rest/v2/caches/${seg(name)}/restored`, `entry of ${name}`, TEXT);
      }
      await admin.createCache('org/example/library.proto'); // a cache named like a schema
      const backup = '../up/a/b';
      expect((await admin.post(`${C}/backups/${seg(backup)}`)).status).to.equal(202);
      expect((await until(() => admin.head(`${C}/backups/${seg(backup)}`))).status).to.equal(200);
      const file = '..%2Fup%2Fa%2Fb';
      expect(holders(server, 'backups', file, `${file}.zip`)).to.have.length(1); // on the node that got the request
      const got = await admin.get(`${C}/backups/${seg(backup)}`);
      expect(got.headers.get('content-disposition')).to.equal(`attachment; filename=${file}.zip`);
      expect((await admin.get(`${C}/backups`)).json<string[]>()).to.include(backup);

      await withServer({}, async (target) => {
        const t = target.as('admin');
        const form = new FormData();
        form.append('backup', new Blob([got.bytes], { type: 'application/zip' }), 'b.zip');
        const restore = 'a/b/c';
        const r = await fetch(`${target.url}${C}/restores/${seg(restore)}`, { method: 'POST', body: form, headers: basicAuth('admin') });
        expect(r.status, await r.text()).to.equal(202);
        expect((await until(() => t.head(`${C}/restores/${seg(restore)}`))).status).to.equal(201);
        expect((await t.get(`${C}/restores`)).json()).to.deep.equal([restore]);
        for (const name of NAMES) {
          expect((await t.get(`/rest/v2/caches/${seg(name)}/restored`)).text, name).to.equal(`entry of ${name}`);
          expect((await t.get(`/rest/v2/counters/${seg(name)}`)).text, name).to.equal('6');
          expect((await t.post(`/rest/v2/tasks/${seg(name)}?action=exec`)).json(), name).to.equal(`ran ${name}`);
          expect((await t.post(`/rest/v2/caches/${seg(`from t/${name}`)}?action=clear`)).status).to.equal(204);
        }
        expect((await t.get('/rest/v2/caches/x%2Fy/k')).status).to.equal(404); // deleted before the backup
        expect((await t.get('/rest/v2/caches/x%252Fy/k')).text).to.equal('percent');
        expect((await t.get(`/rest/v2/schemas/${seg('org/example/library.proto')}?action=detailed`)).json()).to.include({ error: null });
        expect((await t.get('/rest/v2/caches')).json<string[]>()).to.include.members(['..', '.', '../x', 'org/example/library.proto']);
        expect((await t.get('/rest/v2/caches/aliased')).json<{ name: string }>().name).to.equal('aliased');
        expect((await t.get(`/rest/v2/caches/${seg('al/i.as')}/k`)).text).to.equal('through the alias');
        expect((await t.delete(`${C}/restores/${seg(restore)}`)).status).to.equal(204);
      });
      expect((await admin.delete(`${C}/backups/${seg(backup)}`)).status).to.equal(204);
      expect(holders(server, 'backups', file)).to.deep.equal([]);
    });

    it('restores only the named resources when the selector names them', async () => {
      const name = 'sel/ected';
      await admin.createCache(name);
      await admin.put(`/rest/v2/caches/${seg(name)}/k`, 'v', TEXT);
      const body = JSON.stringify({ resources: { caches: [name], counters: ['a/b/c'] } });
      expect((await admin.post(`${C}/backups/only`, body, JSON_TYPE)).status).to.equal(202);
      expect((await until(() => admin.head(`${C}/backups/only`))).status).to.equal(200);
      const zip = (await admin.get(`${C}/backups/only`)).bytes;
      await withServer({}, async (target) => {
        const form = new FormData();
        form.append('backup', new Blob([zip], { type: 'application/zip' }), 'b.zip');
        form.append('resources', JSON.stringify({ caches: [name] }));
        expect((await fetch(`${target.url}${C}/restores/r`, { method: 'POST', body: form, headers: basicAuth('admin') })).status).to.equal(202);
        expect((await until(() => target.as('admin').head(`${C}/restores/r`))).status).to.equal(201);
        expect((await target.as('admin').get(`/rest/v2/caches/${seg(name)}/k`)).text).to.equal('v');
        expect((await target.as('admin').get('/rest/v2/counters')).json()).to.deep.equal([]);
      });
    });
  });
});

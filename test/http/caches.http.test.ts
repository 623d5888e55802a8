import { expect } from 'chai';
import { NO_FLAGS } from '../../src/model/flags';
import { useServer } from '../support/server';

const CACHE_XML = `<infinispan><cache-container><distributed-cache name="ignored" mode="SYNC" segments="2">
<memory max-count="20"/><expiration lifespan="30000"/></distributed-cache></cache-container></infinispan>`;
const CACHE_JSON = { 'distributed-cache': { mode: 'SYNC', segments: '2', memory: { 'max-count': 20 }, expiration: { lifespan: 30000 } } };
const CACHE_YAML = 'distributedCache:\n  mode: "SYNC"\n  segments: "2"\n  memory:\n    maxCount: "20"\n  expiration:\n    lifespan: "30000"\n';

describe('caches /rest/v2/caches', () => {
  const server = useServer();
  const admin = server.as('admin');
  let n = 0;
  const fresh = () => `cache-${++n}`;

  describe('POST /rest/v2/caches/{name}', () => {
    it('creates the same cache from XML, JSON and YAML', async () => {
      const names = [fresh(), fresh(), fresh()];
      expect((await admin.post(`/rest/v2/caches/${names[0]}`, CACHE_XML, { 'Content-Type': 'application/xml' })).status).to.equal(200);
      expect((await admin.post(`/rest/v2/caches/${names[1]}`, JSON.stringify(CACHE_JSON), { 'Content-Type': 'application/json' })).status).to.equal(200);
      expect((await admin.post(`/rest/v2/caches/${names[2]}`, CACHE_YAML, { 'Content-Type': 'application/yaml' })).status).to.equal(200);
      const configs = await Promise.all(names.map(async (name) => (await admin.get(`/rest/v2/caches/${name}?action=config`)).json<Record<string, unknown>>()[name]));
      expect(configs[1]).to.deep.equal(configs[0]);
      expect(configs[2]).to.deep.equal(configs[0]);
      expect(configs[0]).to.deep.equal({ 'distributed-cache': { mode: 'SYNC', segments: '2', expiration: { lifespan: '30000' }, memory: { 'max-count': '20' } } });
    });

    it('accepts an XML fragment and auto-detects bare text/plain', async () => {
      const a = fresh();
      const b = fresh();
      expect((await admin.post(`/rest/v2/caches/${a}`, '<local-cache statistics="true"/>', { 'Content-Type': 'application/xml' })).status).to.equal(200);
      expect((await admin.post(`/rest/v2/caches/${b}`, '{"local-cache":{"statistics":true}}', { 'Content-Type': 'text/plain' })).status).to.equal(200);
      expect((await admin.get(`/rest/v2/caches/${b}?action=config`)).json()).to.deep.equal({ [b]: { 'local-cache': { statistics: true } } });
    });

    it('creates from a built-in template and refuses an unknown one', async () => {
      const name = fresh();
      expect((await admin.post(`/rest/v2/caches/${name}?template=org.infinispan.DIST_SYNC`)).status).to.equal(200);
      const details = (await admin.get(`/rest/v2/caches/${name}`)).json<{ mode: string; statistics: boolean }>();
      expect(details.mode).to.equal('DIST_SYNC');
      expect(details.statistics).to.equal(true);
      const r = await admin.post(`/rest/v2/caches/${fresh()}?template=nope`);
      expect(r.status).to.equal(400);
      expect(r.text).to.equal(`ISPN000374: No such template 'nope' when declaring 'cache-${n}'`);
    });

    it('creates a local cache when there is no body and no template', async () => {
      const name = fresh();
      expect((await admin.post(`/rest/v2/caches/${name}`)).status).to.equal(200);
      expect((await admin.head(`/rest/v2/caches/${name}`)).status).to.equal(204);
    });

    it('answers 400 ISPN000507 when the cache exists', async () => {
      const name = fresh();
      await admin.createCache(name);
      const r = await admin.post(`/rest/v2/caches/${name}`, '{"local-cache":{}}', { 'Content-Type': 'application/json' });
      expect(r.status).to.equal(400);
      expect(r.text).to.equal(`ISPN000507: Cache ${name} already exists`);
    });

    it('answers 400 ISPN000663 for a name over 255 bytes, and accepts 255', async () => {
      const long = 'é'.repeat(128);
      const r = await admin.post(`/rest/v2/caches/${encodeURIComponent(long)}`, '{"local-cache":{}}', { 'Content-Type': 'application/json' });
      expect(r.status).to.equal(400);
      expect(r.text).to.equal(`ISPN000663: Name must be less than 256 bytes, current name '${long}' exceeds the size.`);
      expect((await admin.post(`/rest/v2/caches/${'x'.repeat(255)}`, '{"local-cache":{}}', { 'Content-Type': 'application/json' })).status).to.equal(200);
    });

    it('answers 415 naming the types it takes for a content type that is no configuration format', async () => {
      const name = fresh();
      for (const method of ['POST', 'PUT']) {
        const r = await admin.request(method, `/rest/v2/caches/${name}`, { body: 'x', headers: { 'Content-Type': 'image/png' } });
        expect([r.status, r.text], method).to.deep.equal([415,
          "Unsupported media type 'image/png' for a cache configuration: send application/json, application/xml or application/yaml (or text/plain, or no Content-Type: the format is recognised from the text)"]);
      }
      expect((await admin.head(`/rest/v2/caches/${name}`)).status).to.equal(404);
    });

    it('answers 400 for text/plain with parameters, which the original\'s reader does not auto-detect (docs/reference/management-plane.md#cache-create)', async () => {
      for (const [type, echoed] of [['text/plain; charset=utf-8', 'text/plain; charset=utf-8'], ['text/plain;charset=UTF-8', 'text/plain; charset=UTF-8']]) {
        const name = fresh();
        const r = await admin.post(`/rest/v2/caches/${name}`, '{"local-cache":{}}', { 'Content-Type': type });
        expect(r.status, type).to.equal(400);
        expect(r.text).to.equal(`java.lang.IllegalArgumentException: ${echoed}`);
        expect((await admin.head(`/rest/v2/caches/${name}`)).status).to.equal(404);
      }
      const json = fresh();
      expect((await admin.post(`/rest/v2/caches/${json}`, '{"local-cache":{}}', { 'Content-Type': 'application/json; charset=utf-8' })).status).to.equal(200);
    });

    it('answers 400 ISPN000327 for an unknown element in each format and creates nothing', async () => {
      const bodies: Array<[string, string]> = [
        ['application/xml', '<local-cache><error/></local-cache>'],
        ['application/json', '{"local-cache":{"error":{}}}'],
        ['application/yaml', 'localCache:\n  error: {}\n'],
      ];
      for (const [type, body] of bodies) {
        const name = fresh();
        const r = await admin.post(`/rest/v2/caches/${name}`, body, { 'Content-Type': type });
        expect(r.status, type).to.equal(400);
        expect(r.text).to.contain("ISPN000327: Cannot find a parser for element 'error' in namespace '' at [");
        expect((await admin.head(`/rest/v2/caches/${name}`)).status).to.equal(404);
      }
    });

    it('answers 400 for a store grid has no engine for, saying to declare file-store, in each format; creates nothing', async () => {
      const bodies: Array<[string, string, string]> = [
        ['application/json', '{"local-cache":{"persistence":{"string-keyed-jdbc-store":{"dialect":"H2"}}}}', 'string-keyed-jdbc-store'],
        ['application/xml', '<local-cache><persistence><rocksdb-store path="x"/></persistence></local-cache>', 'rocksdb-store'],
        ['application/yaml', 'localCache:\n  persistence:\n    remoteStore:\n      cache: c\n', 'remote-store'],
      ];
      for (const [type, body, store] of bodies) {
        const name = fresh();
        const r = await admin.post(`/rest/v2/caches/${name}`, body, { 'Content-Type': type });
        expect(r.status, type).to.equal(400);
        expect(r.text).to.match(new RegExp(`^ISPN000327: Cannot find a parser for element '${store}' in namespace '' at \\[\\d+,\\d+\\]\\. `));
        expect(r.text).to.contain(`grid keeps persistent entries in its own store (SQLite, in the data directory), not in a '${store}': declare 'file-store'`);
        expect(r.text).to.not.contain('classpath');
        expect((await admin.head(`/rest/v2/caches/${name}`)).status).to.equal(404);
      }
      for (const store of ['file-store', 'single-file-store', 'soft-index-file-store']) {
        expect((await admin.post(`/rest/v2/caches/${fresh()}`, JSON.stringify({ 'local-cache': { persistence: { [store]: {} } } }), { 'Content-Type': 'application/json' })).status, store).to.equal(200);
      }
    });

    it('refuses XML with a DOCTYPE and YAML with aliases', async () => {
      const xml = '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><local-cache/>';
      expect((await admin.post(`/rest/v2/caches/${fresh()}`, xml, { 'Content-Type': 'application/xml' })).status).to.equal(400);
      const yaml = 'a: &a ["x","x"]\nb: &b [*a,*a]\nlocalCache: {}\n';
      expect((await admin.post(`/rest/v2/caches/${fresh()}`, yaml, { 'Content-Type': 'application/yaml' })).status).to.equal(400);
    });

    it('does not persist a VOLATILE cache and refuses unknown admin flags', async () => {
      const name = fresh();
      expect((await admin.post(`/rest/v2/caches/${name}`, '{"local-cache":{}}', { 'Content-Type': 'application/json', flags: 'VOLATILE' })).status).to.equal(200);
      // every node that has it (on the redis engine, only the one that created it: docs/scale-out.md, "Records") holds it as volatile
      const held = server.nodes.flatMap((node) => node.services.manager.find(name) ?? []);
      expect(held).not.to.be.empty;
      expect(held.every((h) => h.volatile)).to.equal(true);
      const bad = fresh();
      const r = await admin.post(`/rest/v2/caches/${bad}`, '{"local-cache":{}}', { 'Content-Type': 'application/json', flags: 'BOGUS' });
      expect([r.status, r.text]).to.deep.equal([400, 'No enum constant org.infinispan.commons.api.CacheContainerAdmin.AdminFlag.BOGUS']);
      const fromTemplate = await admin.post(`/rest/v2/caches/${bad}?template=org.infinispan.LOCAL`, '', { flags: 'VOLATILE,' });
      expect([fromTemplate.status, fromTemplate.text]).to.deep.equal([400, 'No enum constant org.infinispan.commons.api.CacheContainerAdmin.AdminFlag.']);
      expect((await admin.head(`/rest/v2/caches/${bad}`)).status).to.equal(404);
    });

    it('is refused to roles without CREATE', async () => {
      for (const role of ['application', 'observer', 'monitor'] as const) {
        expect((await server.as(role).post(`/rest/v2/caches/${fresh()}`)).status, role).to.equal(403);
      }
      expect((await server.as('deployer').post(`/rest/v2/caches/${fresh()}`)).status).to.equal(200);
    });
  });

  describe('PUT /rest/v2/caches/{name}', () => {
    it('answers 400 for text/plain with parameters as POST does, and leaves the cache as it was', async () => {
      const name = fresh();
      await admin.createCache(name, { 'local-cache': { statistics: true } });
      const r = await admin.put(`/rest/v2/caches/${name}`, '{"local-cache":{}}', { 'Content-Type': 'text/plain; charset=utf-8' });
      expect(r.status).to.equal(400);
      expect(r.text).to.equal('java.lang.IllegalArgumentException: text/plain; charset=utf-8');
      expect((await admin.get(`/rest/v2/caches/${name}?action=config`)).json()).to.deep.equal({ [name]: { 'local-cache': { statistics: true } } });
      expect((await admin.put(`/rest/v2/caches/${fresh()}`, '{"local-cache":{}}', { 'Content-Type': 'text/plain' })).status).to.equal(200);
    });

    it('applies a compatible change and refuses an incompatible one with ISPN000961', async () => {
      const name = fresh();
      await admin.createCache(name, { 'distributed-cache': { mode: 'SYNC', expiration: { lifespan: '1000' } } });
      const ok = await admin.put(`/rest/v2/caches/${name}`, '{"distributed-cache":{"mode":"SYNC","expiration":{"lifespan":"5000"}}}', { 'Content-Type': 'application/json' });
      expect(ok.status).to.equal(200);
      expect((await admin.get(`/rest/v2/caches/${name}?action=config`)).json()).to.deep.equal({ [name]: { 'distributed-cache': { mode: 'SYNC', expiration: { lifespan: '5000' } } } });
      const bad = await admin.put(`/rest/v2/caches/${name}`, '{"distributed-cache":{"mode":"ASYNC","expiration":{"lifespan":"5000"}}}', { 'Content-Type': 'application/json' });
      expect(bad.status).to.equal(400);
      expect(bad.text).to.contain('ISPN000961: Incompatible attribute');
    });

    it('creates a missing cache, and answers 400 ISPN012034 without a body', async () => {
      const name = fresh();
      expect((await admin.put(`/rest/v2/caches/${name}`, '{"local-cache":{}}', { 'Content-Type': 'application/json' })).status).to.equal(200);
      const r = await admin.put(`/rest/v2/caches/${name}`, '');
      expect(r.status).to.equal(400);
      expect(r.text).to.equal("ISPN012034: Wrong method 'PUT'");
    });

    it('refuses unknown admin flags, after a missing body or a template', async () => {
      const r = await admin.put(`/rest/v2/caches/${fresh()}`, '{"local-cache":{}}', { 'Content-Type': 'application/json', flags: 'PERMANENT' });
      expect([r.status, r.text]).to.deep.equal([400, 'No enum constant org.infinispan.commons.api.CacheContainerAdmin.AdminFlag.PERMANENT']);
      expect((await admin.put(`/rest/v2/caches/${fresh()}`, '', { flags: 'PERMANENT' })).text).to.equal("ISPN012034: Wrong method 'PUT'");
      const withTemplate = await admin.put(`/rest/v2/caches/${fresh()}?template=org.infinispan.LOCAL`, '{"local-cache":{}}', { 'Content-Type': 'application/json', flags: 'PERMANENT' });
      expect(withTemplate.text).to.equal("ISPN012034: Wrong method 'PUT'");
    });
  });

  describe('HEAD, DELETE and GET /rest/v2/caches/{name}', () => {
    it('HEAD answers 204 for an existing cache and 404 otherwise', async () => {
      const name = fresh();
      await admin.createCache(name);
      expect((await admin.head(`/rest/v2/caches/${name}`)).status).to.equal(204);
      expect((await admin.head(`/rest/v2/caches/${fresh()}`)).status).to.equal(404);
    });

    it('DELETE answers 200, removes entries with the cache, then 404', async () => {
      const name = fresh();
      await admin.createCache(name);
      await admin.put(`/rest/v2/caches/${name}/k`, 'v');
      expect((await admin.delete(`/rest/v2/caches/${name}`)).status).to.equal(200);
      expect((await admin.delete(`/rest/v2/caches/${name}`)).status).to.equal(404);
      await admin.createCache(name);
      expect((await admin.get(`/rest/v2/caches/${name}/k`)).status).to.equal(404);
    });

    it('GET returns details, with configuration only for ADMIN', async () => {
      const name = fresh();
      await admin.createCache(name, { 'local-cache': { statistics: true, memory: { 'max-count': '10' } } });
      await admin.put(`/rest/v2/caches/${name}/a`, '1');
      await admin.put(`/rest/v2/caches/${name}/b`, '2');
      await admin.get(`/rest/v2/caches/${name}/a`);
      const d = (await admin.get(`/rest/v2/caches/${name}`)).json<Record<string, any>>();
      for (const field of ['stats', 'size', 'configuration', 'rehash_in_progress', 'indexing_in_progress', 'bounded', 'indexed', 'persistent',
        'transactional', 'secured', 'has_remote_backup', 'statistics']) expect(d, field).to.have.property(field);
      expect(d.size).to.equal(2);
      expect(d.bounded).to.equal(true);
      expect(d.stats.stores).to.equal(2);
      expect(d.stats.hits).to.equal(1);
      expect(d.stats.current_number_of_entries).to.equal(2);
      const seen = (await server.as('observer').get(`/rest/v2/caches/${name}`)).json<Record<string, unknown>>();
      expect(seen).to.not.have.property('configuration');
      expect(seen).to.have.property('stats');
    });

    it('GET answers 404 ISPN012010 for a missing cache', async () => {
      const r = await admin.get('/rest/v2/caches/missing-cache');
      expect(r.status).to.equal(404);
      expect(r.text).to.equal("ISPN012010: Cache with name 'missing-cache' not found amongst the configured caches");
    });
  });

  describe('GET ?action=config', () => {
    it('serves JSON by default, XML and YAML by Accept, 406 otherwise, ADMIN only', async () => {
      const name = fresh();
      await admin.createCache(name, { 'local-cache': { expiration: { lifespan: '5000' } } });
      const url = `/rest/v2/caches/${name}?action=config`;
      const json = await admin.get(url);
      expect(json.headers.get('content-type')).to.contain('application/json');
      const xml = await admin.get(url, { Accept: 'application/xml' });
      // the original's serializer opens the document with the XML declaration, then the cache element
      expect(xml.text).to.equal(`<?xml version="1.0"?><local-cache name="${name}"><expiration lifespan="5000"/></local-cache>`);
      const yaml = await admin.get(url, { Accept: 'application/yaml' });
      expect(yaml.text).to.contain(`${name}:\n  localCache:`);
      expect((await admin.get(url, { Accept: 'image/png' })).status).to.equal(406);
      expect((await admin.get(url + '&pretty=true')).text).to.contain('\n');
      expect((await server.as('deployer').get(url)).status).to.equal(403);
    });
  });

  describe('GET /rest/v2/caches and ?action=detailed', () => {
    it('lists names sorted, internal caches included, only what the caller may access', async () => {
      const names = (await admin.get('/rest/v2/caches')).json<string[]>();
      expect(names).to.include.members(['___protobuf_metadata', '___script_cache']);
      expect(names).to.deep.equal([...names].sort());
      const secured = fresh();
      await admin.createCache(secured, { 'local-cache': { security: { authorization: { roles: ['admin'] } } } });
      expect((await admin.get('/rest/v2/caches')).json()).to.include(secured);
      expect((await server.as('observer').get('/rest/v2/caches')).json()).to.not.include(secured);
      expect((await server.as('observer').get(`/rest/v2/caches/${secured}/k`)).status).to.equal(403);
    });

    it('lists details of user caches', async () => {
      const items = (await admin.get('/rest/v2/caches?action=detailed')).json<Array<Record<string, unknown>>>();
      expect(items.length).to.be.greaterThan(0);
      expect(items.map((i) => i.name)).to.not.include('___script_cache');
      expect(items[0]).to.include.keys('status', 'name', 'type', 'persistent', 'bounded', 'secured', 'indexed', 'health');
    });
  });

  describe('POST ?action=convert and ?action=toJSON', () => {
    it('converts XML to JSON and YAML, keeping a name given in the document', async () => {
      const xml = '<distributed-cache name="cacheName" mode="SYNC"/>';
      const json = await admin.post('/rest/v2/caches?action=convert', xml, { 'Content-Type': 'application/xml', Accept: 'application/json' });
      expect(json.json()).to.deep.equal({ cacheName: { 'distributed-cache': { mode: 'SYNC' } } });
      const yaml = await admin.post('/rest/v2/caches?action=convert', xml, { 'Content-Type': 'application/xml', Accept: 'application/yaml' });
      expect(yaml.text).to.contain('distributedCache');
      const toJson = await admin.post('/rest/v2/caches?action=toJSON', xml, { 'Content-Type': 'application/xml' });
      expect(toJson.json()).to.deep.equal(json.json());
    });

    it('answers 400 with the media type for a type the reader cannot take (text/plain with parameters, an unknown type), as the original', async () => {
      const xml = '<distributed-cache name="c" mode="SYNC"/>';
      for (const type of ['text/plain; charset=utf-8', 'application/foo']) {
        const r = await admin.post('/rest/v2/caches?action=convert', xml, { 'Content-Type': type, Accept: 'application/json' });
        expect([r.status, r.text], type).to.deep.equal([400, type]);
      }
      expect((await admin.post('/rest/v2/caches?action=convert', xml, { 'Content-Type': 'text/plain', Accept: 'application/json' })).status).to.equal(200);
    });

    it('answers 400 ISPN012031 for an empty body', async () => {
      const r = await admin.post('/rest/v2/caches?action=convert', '', { 'Content-Type': 'application/xml' });
      expect(r.status).to.equal(400);
      expect(r.text).to.equal('ISPN012031: Method requires content');
    });
  });

  describe('bulk actions', () => {
    it('keys, entries (limit, metadata, content-negotiation), size and clear', async () => {
      const name = fresh();
      await admin.createCache(name);
      for (const k of ['a', 'b', 'c']) await admin.put(`/rest/v2/caches/${name}/${k}`, `v-${k}`, { timeToLiveSeconds: '100' });
      expect((await admin.get(`/rest/v2/caches/${name}?action=keys`)).json<string[]>().sort()).to.deep.equal(['a', 'b', 'c']);
      expect((await admin.get(`/rest/v2/caches/${name}?action=keys&limit=2`)).json<string[]>()).to.have.length(2);
      const entries = await admin.get(`/rest/v2/caches/${name}?action=entries&metadata=true`);
      expect(entries.headers.get('value-content-type')).to.equal('text/plain');
      const list = entries.json<Array<Record<string, unknown>>>();
      expect(list).to.have.length(3);
      expect(list.find((e) => e.key === 'a')).to.include({ value: 'v-a', timeToLiveSeconds: 100, maxIdleTimeSeconds: -1 });
      const hex = await admin.get(`/rest/v2/caches/${name}?action=entries&content-negotiation=true&limit=1`);
      expect(hex.headers.get('value-content-type')).to.equal('application/octet-stream; encoding=hex');
      expect(hex.json<Array<{ value: string }>>()[0].value).to.match(/^0x[0-9a-f]+$/);
      expect((await admin.get(`/rest/v2/caches/${name}?action=size`)).json()).to.equal(3);
      expect((await admin.post(`/rest/v2/caches/${name}?action=clear`)).status).to.equal(204);
      expect((await admin.get(`/rest/v2/caches/${name}?action=size`)).json()).to.equal(0);
      expect((await admin.get(`/rest/v2/caches/${name}?action=keys`)).json()).to.deep.equal([]);
    });

    it('answers 400 ISPN012023 for a non-numeric limit', async () => {
      const name = fresh();
      await admin.createCache(name);
      const r = await admin.get(`/rest/v2/caches/${name}?action=keys&limit=many`);
      expect(r.status).to.equal(400);
      expect(r.text).to.equal("ISPN012023: Argument 'limit' has illegal value 'many'");
    });

    it('streams a cache of 20,000 entries as valid JSON', async () => {
      const name = fresh();
      await admin.createCache(name);
      // written below the HTTP layer, through the engine seam, a thousand at a time
      const data = server.running.services.manager.require(name).data;
      for (let i = 0; i < 20_000; i += 1000) {
        await Promise.all(Array.from({ length: 1000 }, async (_, j) => data.put(Buffer.from(`key-${i + j}`), Buffer.from(`value-${i + j}`), null, { lifespan: -1, maxIdle: -1 }, NO_FLAGS)));
      }
      const keys = (await admin.get(`/rest/v2/caches/${name}?action=keys`)).json<string[]>();
      expect(keys).to.have.length(20_000);
      expect((await admin.get(`/rest/v2/caches/${name}?action=entries`)).json<unknown[]>()).to.have.length(20_000);
    });

    it('needs BULK_READ for keys and BULK_WRITE for clear', async () => {
      const name = fresh();
      await admin.createCache(name);
      expect((await server.as('monitor').get(`/rest/v2/caches/${name}?action=keys`)).status).to.equal(403);
      expect((await server.as('observer').get(`/rest/v2/caches/${name}?action=keys`)).status).to.equal(200);
      expect((await server.as('observer').post(`/rest/v2/caches/${name}?action=clear`)).status).to.equal(403);
    });
  });

  describe('stats, stats-reset and health', () => {
    it('reports -1 without statistics, real counts with, and resets (ADMIN only)', async () => {
      const off = fresh();
      await admin.createCache(off);
      expect((await admin.get(`/rest/v2/caches/${off}?action=stats`)).json<Record<string, number>>().hits).to.equal(-1);
      const on = fresh();
      await admin.createCache(on, { 'local-cache': { statistics: true } });
      await admin.put(`/rest/v2/caches/${on}/k`, 'v');
      await admin.get(`/rest/v2/caches/${on}/k`);
      await admin.get(`/rest/v2/caches/${on}/missing`);
      const stats = (await server.as('monitor').get(`/rest/v2/caches/${on}?action=stats`)).json<Record<string, number>>();
      expect(stats).to.include({ stores: 1, hits: 1, misses: 1, retrievals: 2, current_number_of_entries: 1 });
      expect(stats.average_write_time_nanos).to.be.greaterThan(0);
      expect(stats.average_read_time_nanos).to.be.greaterThan(0);
      expect((await server.as('monitor').post(`/rest/v2/caches/${on}?action=stats-reset`)).status).to.equal(403);
      expect((await admin.post(`/rest/v2/caches/${on}?action=stats-reset`)).status).to.equal(204);
      expect((await admin.get(`/rest/v2/caches/${on}?action=stats`)).json<Record<string, number>>().hits).to.equal(0);
    });

    it('answers the health of a cache as text', async () => {
      const name = fresh();
      await admin.createCache(name);
      const r = await admin.get(`/rest/v2/caches/${name}?action=health`);
      expect(r.text).to.equal('HEALTHY');
      expect((await admin.get(`/rest/v2/caches/${fresh()}?action=health`)).status).to.equal(404);
    });
  });
});

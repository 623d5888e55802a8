import { expect } from 'chai';
import type { Client } from '../support/client';
import { useServer, withServer } from '../support/server';
import { SseReader } from '../support/sse';
import { TWO_NODES } from '../support/two-node-engine';

type Json = Record<string, unknown>;

const basic = (user: string) => ({ Authorization: 'Basic ' + Buffer.from(`${user}:${user}-pw`).toString('base64') });

/** The calls the web console (16.1.1) makes, as its cacheService sends them. */
const consoleCalls = {
  getAttribute: (cache: string, name: string) => `/rest/v2/caches/${encodeURIComponent(cache)}?action=get-mutable-attribute&attribute-name=${name}`,
  setAttribute: (cache: string, name: string, value: string) =>
    `/rest/v2/caches/${encodeURIComponent(cache)}?action=set-mutable-attribute&attribute-name=${name}&attribute-value=${value.length > 0 ? encodeURIComponent(value) : ''}`,
  rebalancing: (cache: string, enable: boolean) => `/rest/v2/caches/${encodeURIComponent(cache)}?action=${enable ? 'enable' : 'disable'}-rebalancing`,
  distribution: (cache: string) => `/rest/v2/caches/${encodeURIComponent(cache)}?action=distribution`,
  cachesForRole: (role: string) => `/rest/v2/caches?action=role-accessible&role=${role}`,
};
const ACCEPT_JSON = { Accept: 'application/json' };

describe('running-cache administration /rest/v2/caches (docs/reference/management-plane.md#cache-listing, docs/reference/management-plane.md#cache-details, docs/reference/management-plane.md#mutable-attributes, docs/reference/management-plane.md#cache-stats)', () => {
  const server = useServer();
  const admin = server.as('admin');
  let n = 0;
  const fresh = () => `admin-cache-${++n}`;

  describe('GET /rest/v2/caches?action=detailed and /rest/v2/cache-managers/{name}/caches', () => {
    it('carries every field the console reads, with the values the original gives in a listing', async () => {
      const plain = fresh();
      const aliased = fresh();
      await admin.createCache(plain, { 'distributed-cache': { statistics: true, encoding: { 'media-type': 'text/plain' } } });
      await admin.createCache(aliased, { 'local-cache': { aliases: [`${aliased}-alias`], tracing: { enabled: false } } });
      for (const path of ['/rest/v2/caches?action=detailed', '/rest/v2/cache-managers/default/caches']) {
        const items = (await admin.get(path)).json<Json[]>();
        const item = items.find((i) => i.name === plain)!;
        expect(Object.keys(item), path).to.deep.equal([
          'status', 'name', 'type', 'simple_cache', 'transactional', 'persistent', 'bounded', 'secured', 'indexed', 'has_remote_backup',
          'tracing', 'health', 'aliases', 'statistics', 'key_storage', 'value_storage', 'mode',
          'rebalancing_enabled', 'rebalancing_requested', 'rebalancing_inflight',
        ]);
        expect(item).to.include({ status: 'RUNNING', type: 'distributed-cache', tracing: true, health: 'HEALTHY', statistics: false,
          key_storage: null, value_storage: null, mode: null, rebalancing_enabled: true, rebalancing_requested: 0, rebalancing_inflight: 0 });
        expect(item.aliases).to.deep.equal([]);
        const other = items.find((i) => i.name === aliased)!;
        expect(other.aliases).to.deep.equal([`${aliased}-alias`]);
        expect(other.tracing).to.equal(false);
        // the console's landing page: every item's aliases has a length
        expect(items.every((i) => Array.isArray(i.aliases))).to.equal(true);
      }
    });

    it('answers 404 for another cache manager and 401 without credentials', async () => {
      expect((await admin.get('/rest/v2/cache-managers/other/caches')).status).to.equal(404);
      expect((await server.anonymous().get('/rest/v2/caches?action=detailed')).status).to.equal(401);
    });

    it('shows a secured cache only to the roles it lists', async () => {
      const secured = fresh();
      await admin.createCache(secured, { 'local-cache': { security: { authorization: { roles: ['admin'] } } } });
      const names = async (c: Client) => (await c.get('/rest/v2/caches?action=detailed')).json<Json[]>().map((i) => i.name);
      expect(await names(admin)).to.include(secured);
      expect(await names(server.as('monitor'))).to.not.include(secured);
    });
  });

  describe('GET /rest/v2/caches/{name}', () => {
    it('answers the fields of the original in its order, configuration and sizing for ADMIN only', async () => {
      const name = fresh();
      await admin.createCache(name, { 'distributed-cache': { statistics: true, aliases: [`${name}-a`], encoding: { 'media-type': 'application/x-protostream' }, memory: { 'max-size': '1MB' } } });
      const details = (await admin.get(`/rest/v2/caches/${name}`)).json<Json>();
      expect(Object.keys(details)).to.deep.equal([
        'status', 'name', 'type', 'simple_cache', 'transactional', 'persistent', 'bounded', 'secured', 'indexed', 'has_remote_backup',
        'tracing', 'health', 'aliases', 'statistics', 'key_storage', 'value_storage', 'mode', 'stats', 'size',
        'rehash_in_progress', 'indexing_in_progress', 'queryable', 'rebalancing_enabled', 'rebalancing_requested', 'rebalancing_inflight',
        'configuration', 'storage_type', 'max_size', 'max_size_bytes',
      ]);
      expect(details).to.include({ status: 'RUNNING', name, type: 'distributed-cache', tracing: false, health: null, statistics: true,
        key_storage: 'application/x-protostream', value_storage: 'application/x-protostream', mode: 'DIST_SYNC', queryable: true,
        rebalancing_enabled: true, max_size: '1MB', max_size_bytes: 1_000_000, bounded: true });
      expect(details.aliases).to.deep.equal([`${name}-a`]);
      const monitor = (await server.as('monitor').get(`/rest/v2/caches/${name}`)).json<Json>();
      expect(monitor).to.not.have.any.keys('configuration', 'storage_type', 'max_size', 'max_size_bytes');
      expect(monitor.aliases).to.deep.equal([`${name}-a`]);
    });

    it('reports unknown storage for a cache without encoding, and 404 ISPN012010 for a missing cache', async () => {
      const name = fresh();
      await admin.createCache(name);
      expect((await admin.get(`/rest/v2/caches/${name}`)).json<Json>()).to.include({ key_storage: 'application/unknown', value_storage: 'application/unknown', mode: 'LOCAL', queryable: false, max_size: '' });
      const r = await admin.get('/rest/v2/caches/nope-missing');
      expect([r.status, r.text]).to.deep.equal([404, "ISPN012010: Cache with name 'nope-missing' not found amongst the configured caches"]);
    });
  });

  describe('GET /rest/v2/caches/{name}?action=stats', () => {
    it('answers the approximate counts at the positions of the original field order', async () => {
      const name = fresh();
      await admin.createCache(name, { 'local-cache': { statistics: true } });
      await admin.put(`/rest/v2/caches/${name}/a`, '1');
      await admin.put(`/rest/v2/caches/${name}/b`, '2');
      const stats = (await admin.get(`/rest/v2/caches/${name}?action=stats`)).json<Record<string, number>>();
      expect(Object.keys(stats).slice(0, 8)).to.deep.equal(['time_since_start', 'time_since_reset', 'approximate_entries', 'approximate_entries_in_memory',
        'approximate_entries_unique', 'current_number_of_entries', 'current_number_of_entries_in_memory', 'total_number_of_entries']);
      expect(stats).to.include({ approximate_entries: 2, approximate_entries_in_memory: 2, approximate_entries_unique: 2, current_number_of_entries: 2 });
      const details = (await admin.get(`/rest/v2/caches/${name}`)).json<{ stats: Record<string, number> }>();
      expect(details.stats).to.include({ approximate_entries: 2, approximate_entries_in_memory: 2, approximate_entries_unique: 2 });
    });

    it('answers -1 without statistics, and 403 to a role a secured cache does not list', async () => {
      const name = fresh();
      await admin.createCache(name);
      expect((await admin.get(`/rest/v2/caches/${name}?action=stats`)).json<Json>()).to.include({ approximate_entries: -1, approximate_entries_in_memory: -1, approximate_entries_unique: -1 });
      const secured = fresh();
      await admin.createCache(secured, { 'local-cache': { statistics: true, security: { authorization: { roles: ['admin'] } } } });
      expect((await server.as('monitor').get(`/rest/v2/caches/${secured}?action=stats`)).status).to.equal(403);
    });
  });

  describe('GET /rest/v2/caches/{name}?action=get-mutable-attributes', () => {
    it('lists the dotted names, and with full=true each value and type', async () => {
      const name = fresh();
      await admin.createCache(name, { 'distributed-cache': { memory: { 'max-count': '5' }, expiration: { lifespan: '30000' } } });
      const names = (await admin.get(`/rest/v2/caches/${name}?action=get-mutable-attributes`)).json<string[]>();
      expect(names).to.include.members(['aliases', 'clustering.remote-timeout', 'expiration.lifespan', 'expiration.max-idle', 'memory.max-size',
        'memory.max-count', 'indexing.indexed-entities', 'security.authorization.roles', 'tracing.enabled', 'tracing.categories']);
      const full = (await admin.get(`/rest/v2/caches/${name}?action=get-mutable-attributes&full=true`)).json<Record<string, Json>>();
      expect(Object.keys(full)).to.deep.equal(names);
      expect(full['clustering.remote-timeout']).to.deep.equal({ value: '15s', type: 'timequantity' });
      expect(full['expiration.lifespan']).to.deep.equal({ value: '30000', type: 'timequantity' });
      expect(full['memory.max-count']).to.deep.equal({ value: 5, type: 'long' });
      expect(full['memory.max-size']).to.deep.equal({ value: null, type: 'string' });
      expect(full['indexing.indexed-entities']).to.deep.equal({ value: [], type: 'set' });
      expect(full['security.authorization.roles']).to.deep.equal({ value: [], type: 'set' });
    });

    it('is ADMIN only and answers 404 for a missing cache', async () => {
      const name = fresh();
      await admin.createCache(name);
      expect((await server.as('deployer').get(`/rest/v2/caches/${name}?action=get-mutable-attributes`)).status).to.equal(403);
      expect((await admin.get('/rest/v2/caches/nope-missing?action=get-mutable-attributes')).status).to.equal(404);
    });
  });

  describe('GET /rest/v2/caches/{name}?action=get-mutable-attribute', () => {
    it('answers the value as a JSON string, as the console parses it', async () => {
      const name = fresh();
      await admin.createCache(name, { 'local-cache': { aliases: ['x1', 'x2'], expiration: { 'max-idle': '1m' } } });
      const get = async (attribute: string) => {
        const r = await admin.get(consoleCalls.getAttribute(name, attribute), ACCEPT_JSON);
        expect(r.status, attribute).to.equal(200);
        expect(r.headers.get('content-type')).to.match(/^application\/json/);
        return JSON.parse(r.text) as string;
      };
      expect(await get('expiration.max-idle')).to.equal('1m');
      expect(await get('expiration.lifespan')).to.equal('-1');
      expect(await get('aliases')).to.equal('[x1, x2]');
      expect(await get('tracing.enabled')).to.equal('true');
      expect(await get('tracing.categories')).to.equal('[container]');
      expect(await get('memory.max-size')).to.equal('null');
    });

    it('answers 400 ISPN012035 for an immutable or unknown attribute, 400 without a name, 403 for non-ADMIN', async () => {
      const name = fresh();
      await admin.createCache(name);
      for (const attribute of ['encoding.media-type', 'clustering.state-transfer.timeout', 'nope']) {
        const r = await admin.get(consoleCalls.getAttribute(name, attribute));
        expect([r.status, r.text], attribute).to.deep.equal([400, `ISPN012035: Attribute '${attribute}' is immutable`]);
      }
      expect((await admin.get(`/rest/v2/caches/${name}?action=get-mutable-attribute`)).status).to.equal(400);
      expect((await server.as('application').get(consoleCalls.getAttribute(name, 'aliases'))).status).to.equal(403);
    });
  });

  describe('POST /rest/v2/caches/{name}?action=set-mutable-attribute', () => {
    it('applies the console edits at once and writes them into the configuration', async () => {
      const name = fresh();
      await admin.createCache(name, { 'distributed-cache': { memory: { 'max-count': '100' }, encoding: { 'media-type': 'text/plain' } } });
      const set = async (attribute: string, value: string) => {
        const r = await admin.post(consoleCalls.setAttribute(name, attribute, value));
        expect([r.status, r.text], `${attribute}=${value}`).to.deep.equal([200, '']);
      };
      await set('expiration.lifespan', '60000');
      await set('expiration.max-idle', '30000');
      await set('memory.max-count', '2');
      await set('indexing.indexed-entities', 'org.infinispan.Person org.infinispan.Car');
      await set('security.authorization.roles', 'observer admin monitor');
      const config = (await admin.get(`/rest/v2/caches/${name}?action=config`)).json<Record<string, Record<string, Json>>>()[name]['distributed-cache'];
      expect(config.expiration).to.deep.equal({ lifespan: '60000', 'max-idle': '30000' });
      expect(config.memory).to.deep.equal({ 'max-count': '2' });
      expect((config.indexing as Json)['indexed-entities']).to.deep.equal(['org.infinispan.Person', 'org.infinispan.Car']);
      expect(((config.security as Json).authorization as Json).roles).to.deep.equal(['observer', 'admin', 'monitor']);
      // turning the lists on did not secure or index the cache
      expect((await admin.get(`/rest/v2/caches/${name}`)).json<Json>()).to.include({ secured: false, indexed: false });
      // the new expiration applies to the next write; the new bound evicts at once
      await admin.put(`/rest/v2/caches/${name}/k1`, 'v1', { 'Content-Type': 'text/plain' });
      expect((await admin.get(`/rest/v2/caches/${name}/k1`)).headers.get('timeToLiveSeconds')).to.equal('60');
      await admin.put(`/rest/v2/caches/${name}/k2`, 'v2', { 'Content-Type': 'text/plain' });
      await admin.put(`/rest/v2/caches/${name}/k3`, 'v3', { 'Content-Type': 'text/plain' });
      expect((await admin.get(`/rest/v2/caches/${name}?action=size`)).json()).to.equal(2);
      expect(JSON.parse((await admin.get(consoleCalls.getAttribute(name, 'memory.max-count'))).text)).to.equal('2');
    });

    it('reads and changes clustering.remote-timeout of a local cache, as the original lists it for every cache', async () => {
      const name = fresh();
      await admin.createCache(name);
      const full = (await admin.get(`/rest/v2/caches/${name}?action=get-mutable-attributes&full=true`)).json<Record<string, Json>>();
      expect(full['clustering.remote-timeout']).to.deep.equal({ value: '15s', type: 'timequantity' });
      expect(Object.keys(full).slice(0, 2)).to.deep.equal(['aliases', 'clustering.remote-timeout']);
      expect(JSON.parse((await admin.get(consoleCalls.getAttribute(name, 'clustering.remote-timeout'))).text)).to.equal('15s');
      expect((await admin.post(consoleCalls.setAttribute(name, 'clustering.remote-timeout', '20000'))).status).to.equal(200);
      expect(JSON.parse((await admin.get(consoleCalls.getAttribute(name, 'clustering.remote-timeout'))).text)).to.equal('20000');
      const bad = await admin.post(consoleCalls.setAttribute(name, 'clustering.remote-timeout', 'later'));
      expect(bad.status).to.equal(400);
      expect(bad.text).to.match(/^ISPN000686: Attribute 'remote-timeout' of element 'cache' has an illegal value 'later'/);
    });

    it('joins repeated attribute-value parameters and clears a set with an empty value', async () => {
      const name = fresh();
      await admin.createCache(name, { 'local-cache': { indexing: { 'indexed-entities': ['a.A'] } } });
      expect((await admin.post(`/rest/v2/caches/${name}?action=set-mutable-attribute&attribute-name=indexing.indexed-entities&attribute-value=a.A&attribute-value=b.B`)).status).to.equal(200);
      expect(JSON.parse((await admin.get(consoleCalls.getAttribute(name, 'indexing.indexed-entities'))).text)).to.equal('[a.A, b.B]');
      expect((await admin.post(consoleCalls.setAttribute(name, 'indexing.indexed-entities', ''))).status).to.equal(200);
      expect(JSON.parse((await admin.get(consoleCalls.getAttribute(name, 'indexing.indexed-entities'))).text)).to.equal('[]');
    });

    it('announces the change as update-cache on the configuration event stream', async () => {
      const name = fresh();
      await admin.createCache(name);
      const sse = await SseReader.open(`${server.url}/rest/v2/container/config?action=listen`, { ...basic('admin'), Accept: 'application/json' });
      try {
        expect((await admin.post(consoleCalls.setAttribute(name, 'expiration.lifespan', '5000'))).status).to.equal(200);
        const [event] = await sse.next(1);
        expect(event.event).to.equal('update-cache');
        expect(JSON.parse(event.data)).to.deep.equal({ infinispan: { 'cache-container': { caches: { [name]: { 'local-cache': { expiration: { lifespan: '5000' } } } } } } });
      } finally {
        sse.close();
      }
    });

    it('answers 400 for an immutable attribute or a bad value and changes nothing', async () => {
      const name = fresh();
      await admin.createCache(name, { 'local-cache': { memory: { 'max-count': '10' } } });
      const before = (await admin.get(`/rest/v2/caches/${name}?action=config`)).text;
      const immutable = await admin.post(consoleCalls.setAttribute(name, 'memory.storage', 'OFF_HEAP'));
      expect([immutable.status, immutable.text]).to.deep.equal([400, "ISPN012035: Attribute 'memory.storage' is immutable"]);
      const bad = await admin.post(consoleCalls.setAttribute(name, 'expiration.lifespan', 'soon'));
      expect(bad.status).to.equal(400);
      expect(bad.text).to.match(/^ISPN000686: Attribute 'lifespan' of element 'expiration' has an illegal value 'soon'/);
      const unbounded = await admin.post(consoleCalls.setAttribute(name, 'memory.max-size', '1GB'));
      expect([unbounded.status, unbounded.text]).to.deep.equal([400, 'Cannot change max-size: the cache is not bounded by a size in bytes (max-size)']);
      expect((await admin.post(`/rest/v2/caches/${name}?action=set-mutable-attribute&attribute-value=1`)).status).to.equal(400);
      expect((await admin.get(`/rest/v2/caches/${name}?action=config`)).text).to.equal(before);
    });

    it('is ADMIN only and answers 404 for a missing cache', async () => {
      const name = fresh();
      await admin.createCache(name);
      expect((await server.as('deployer').post(consoleCalls.setAttribute(name, 'expiration.lifespan', '1000'))).status).to.equal(403);
      expect((await admin.post(consoleCalls.setAttribute('nope-missing', 'expiration.lifespan', '1000'))).status).to.equal(404);
    });

    it('persists the change across a restart', async () => {
      const name = fresh();
      await admin.createCache(name);
      expect((await admin.post(consoleCalls.setAttribute(name, 'expiration.max-idle', '2h'))).status).to.equal(200);
      await server.restart();
      expect(JSON.parse((await admin.get(consoleCalls.getAttribute(name, 'expiration.max-idle'))).text)).to.equal('2h');
    });
  });

  describe('POST /rest/v2/caches/{name}?action=enable-rebalancing|disable-rebalancing', () => {
    it('answers 204 and shows in details and listing, under the container switch', async () => {
      const name = fresh();
      await admin.createCache(name);
      const enabled = async () => [
        (await admin.get(`/rest/v2/caches/${name}`)).json<Json>().rebalancing_enabled,
        (await admin.get('/rest/v2/caches?action=detailed')).json<Json[]>().find((i) => i.name === name)!.rebalancing_enabled,
      ];
      expect((await admin.post(consoleCalls.rebalancing(name, false))).status).to.equal(204);
      expect(await enabled()).to.deep.equal([false, false]);
      expect((await admin.post(consoleCalls.rebalancing(name, true))).status).to.equal(204);
      expect(await enabled()).to.deep.equal([true, true]);
      expect((await admin.post('/rest/v2/container?action=disable-rebalancing')).status).to.equal(204);
      try {
        expect(await enabled()).to.deep.equal([false, false]);
      } finally {
        expect((await admin.post('/rest/v2/container?action=enable-rebalancing')).status).to.equal(204);
      }
      expect(await enabled()).to.deep.equal([true, true]);
    });

    it('is ADMIN only and answers 404 for a missing cache', async () => {
      const name = fresh();
      await admin.createCache(name);
      expect((await server.as('deployer').post(consoleCalls.rebalancing(name, false))).status).to.equal(403);
      expect((await admin.post(consoleCalls.rebalancing('nope-missing', false))).status).to.equal(404);
    });
  });

  describe('GET /rest/v2/caches/{name}?action=distribution', () => {
    it('answers this node with its entry counts and memory', async () => {
      const name = fresh();
      await admin.createCache(name, { 'distributed-cache': { memory: { 'max-size': '1MB' } } });
      await admin.put(`/rest/v2/caches/${name}/key1`, 'data');
      await admin.put(`/rest/v2/caches/${name}/key2`, 'data');
      const members = (await admin.get('/rest/v2/cluster/members')).json<{ members: Array<{ node_address: string }> }>();
      const [node] = (await server.as('monitor').get(consoleCalls.distribution(name))).json<Json[]>();
      expect(Object.keys(node)).to.deep.equal(['node_name', 'node_addresses', 'memory_entries', 'total_entries', 'memory_used']);
      expect(node).to.include({ node_name: members.members[0].node_address, memory_entries: 2, total_entries: 2 });
      expect(node.node_addresses).to.have.length(1);
      const used = node.memory_used as number;
      expect(used).to.be.greaterThan(0);
      await admin.post(`/rest/v2/caches/${name}?action=clear`);
      const [after] = (await admin.get(consoleCalls.distribution(name))).json<Json[]>();
      expect(after).to.include({ memory_entries: 0, total_entries: 0 });
      expect(after.memory_used as number).to.be.lessThan(used);
    });

    it('answers 404 for a missing cache and 403 to a role a secured cache does not list', async () => {
      expect((await admin.get(consoleCalls.distribution('nope-missing'))).status).to.equal(404);
      const secured = fresh();
      await admin.createCache(secured, { 'local-cache': { security: { authorization: { roles: ['admin'] } } } });
      expect((await server.as('monitor').get(consoleCalls.distribution(secured))).status).to.equal(403);
    });
  });

  describe('GET /rest/v2/caches/{name}/{key}?action=distribution', () => {
    it('says whether the key is held and lists its owners, the primary first (this node; on the redis engine the master of its slot, then its replicas)', async () => {
      const name = fresh();
      await admin.createCache(name, { 'distributed-cache': { statistics: true } });
      await admin.put(`/rest/v2/caches/${name}/key1`, 'data');
      const present = (await server.as('monitor').get(`/rest/v2/caches/${name}/key1?action=distribution`)).json<{ contains_key: boolean; owners: Json[] }>();
      expect(present.contains_key).to.equal(true);
      expect(present.owners).to.have.length(TWO_NODES ? 2 : 1);
      for (const owner of present.owners) expect(Object.keys(owner)).to.deep.equal(['node_name', 'node_addresses', 'primary']);
      expect(present.owners.map((o) => o.primary)).to.deep.equal(TWO_NODES ? [true, false] : [true]);
      const absent = (await admin.get(`/rest/v2/caches/${name}/unknown?action=distribution`)).json<{ contains_key: boolean; owners: Json[] }>();
      expect(absent.contains_key).to.equal(false);
      expect(absent.owners.map((o) => o.primary)).to.deep.equal(TWO_NODES ? [false, false] : [false]);
      // a distribution query is no read: hits and misses stay as they were
      expect((await admin.get(`/rest/v2/caches/${name}?action=stats`)).json<Json>()).to.include({ hits: 0, misses: 0 });
    });

    it('answers 400 for a key type the cache cannot take, 404 for a missing cache, 403 without MONITOR on a secured cache', async () => {
      const name = fresh();
      await admin.createCache(name, { 'local-cache': { encoding: { 'media-type': 'application/x-protostream' } } });
      expect((await admin.get(`/rest/v2/caches/${name}/k?action=distribution`, { 'Key-Content-Type': 'application/x-java-serialized-object' })).status).to.equal(400);
      expect((await admin.get('/rest/v2/caches/nope-missing/k?action=distribution')).status).to.equal(404);
      const secured = fresh();
      await admin.createCache(secured, { 'local-cache': { security: { authorization: { roles: ['admin'] } } } });
      expect((await server.as('monitor').get(`/rest/v2/caches/${secured}/k?action=distribution`)).status).to.equal(403);
    });
  });

  describe('GET /rest/v2/caches?action=role-accessible', () => {
    it('splits the caches into secured ones listing the role and non-secured ones', async () => {
      const open = fresh();
      const forObservers = fresh();
      const forAdmins = fresh();
      await admin.createCache(open);
      await admin.createCache(forObservers, { 'local-cache': { security: { authorization: { roles: ['observer', 'admin'] } } } });
      await admin.createCache(forAdmins, { 'local-cache': { security: { authorization: { roles: ['admin'] } } } });
      const r = (await admin.get(consoleCalls.cachesForRole('observer'))).json<{ secured: string[]; 'non-secured': string[] }>();
      expect(Object.keys(r)).to.deep.equal(['secured', 'non-secured']);
      expect(r.secured).to.include(forObservers).and.not.include(forAdmins);
      expect(r['non-secured']).to.include(open).and.not.include.members([forObservers, forAdmins, '___protobuf_metadata']);
    });

    it('answers 400 without a role, 404 for an unknown role, 403 for non-ADMIN', async () => {
      expect((await admin.get('/rest/v2/caches?action=role-accessible')).status).to.equal(400);
      const unknown = await admin.get(consoleCalls.cachesForRole('nobody-has-this-role'));
      expect([unknown.status, unknown.text]).to.deep.equal([404, 'Role not found']);
      expect((await server.as('deployer').get(consoleCalls.cachesForRole('observer'))).status).to.equal(403);
    });

    it('answers 404 for every role when authorization is off', async () => {
      await withServer({ authEnabled: false }, async (open) => {
        expect((await open.anonymous().get(consoleCalls.cachesForRole('admin'))).status).to.equal(404);
      });
    });
  });
});

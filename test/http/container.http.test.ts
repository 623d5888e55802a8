import { expect } from 'chai';
import { useServer, withServer } from '../support/server';
import { TEST_SERVER_NODES, TWO_NODES } from '../support/two-node-engine';

describe('container /rest/v2/container and /rest/v2/cache-managers/{name}', () => {
  const server = useServer();
  const admin = server.as('admin');

  before(async () => {
    await admin.createCache('alpha', { 'local-cache': { statistics: true } });
    await admin.createCache('beta', { 'distributed-cache': { persistence: { 'file-store': {} } } });
  });

  describe('GET info', () => {
    it('reports every field of docs/reference/management-plane.md#container-info, the test server\'s nodes as members, in both path families', async () => {
      for (const path of ['/rest/v2/container', '/rest/v2/cache-managers/default']) {
        const info = (await admin.get(path)).json<Record<string, unknown>>();
        for (const field of ['version', 'name', 'coordinator', 'cache_configuration_names', 'cluster_name', 'physical_addresses',
          'coordinator_address', 'cache_manager_status', 'created_cache_count', 'running_cache_count', 'node_address', 'cluster_members',
          'cluster_members_physical_addresses', 'cluster_size', 'defined_caches', 'local_site', 'relay_node', 'relay_nodes_address',
          'sites_view', 'rebalancing_enabled', 'tracing_enabled']) expect(info, `${path} ${field}`).to.have.property(field);
        expect(info).to.include({ name: 'default', cache_manager_status: 'RUNNING', cluster_size: TEST_SERVER_NODES, created_cache_count: 2 });
        // this node among the live members, the coordinator first (one node on SQLite; docs/scale-out.md, "Membership")
        const members = info.cluster_members as string[];
        expect(members).to.have.length(TEST_SERVER_NODES).and.include(info.node_address);
        expect(info.cluster_members_physical_addresses).to.have.length(TEST_SERVER_NODES).and.include((info.physical_addresses as string).slice(1, -1));
        expect(info.coordinator_address).to.equal(members[0]);
        expect(info.coordinator).to.equal(info.node_address === members[0]);
        // the internal caches are not private: listed as the original lists them
        expect(info.cache_configuration_names).to.include.members(['alpha', 'beta', '___protobuf_metadata', '___script_cache']);
        expect(info.relay_nodes_address).to.deep.equal([info.node_address]);
        expect(info.defined_caches).to.deep.include({ name: '___protobuf_metadata', started: true });
        expect(info.sites_view).to.deep.equal([]);
      }
    });

    it('answers 404 for another cache manager name', async () => {
      expect((await admin.get('/rest/v2/cache-managers/other')).status).to.equal(404);
      expect((await admin.get('/rest/v2/cache-managers/other/health')).status).to.equal(404);
    });
  });

  describe('health', () => {
    it('GET reports the cluster and every cache; HEAD answers 200; both need credentials, as in the original', async () => {
      const health = (await server.as('observer').get('/rest/v2/container/health')).json<{ cluster_health: Record<string, unknown>; cache_health: unknown[] }>();
      // standalone on SQLite, as the original without transport: 0 nodes; the live nodes on the redis engine
      const { node_names: names, ...cluster } = health.cluster_health;
      expect(cluster).to.deep.equal({ cluster_name: 'cluster', health_status: 'HEALTHY', number_of_nodes: TWO_NODES ? TEST_SERVER_NODES : 0 });
      expect(names).to.have.length(cluster.number_of_nodes as number);
      expect(health.cache_health).to.deep.include({ status: 'HEALTHY', cache_name: 'alpha' });
      expect((await server.as('monitor').head('/rest/v2/container/health')).status).to.equal(200);
      expect((await server.anonymous().head('/rest/v2/container/health')).status).to.equal(401);
      expect((await server.anonymous().head('/rest/v2/cache-managers/default/health')).status).to.equal(401);
      expect((await server.anonymous().get('/rest/v2/container/health')).status).to.equal(401);
    });
  });

  it('computes health: a cache in degraded availability is DEGRADED, and so is the cluster', async () => {
    expect((await admin.post('/rest/v2/caches/alpha?action=set-availability&availability=degraded_mode')).status).to.equal(204);
    expect((await admin.get('/rest/v2/caches/alpha?action=get-availability')).text).to.equal('DEGRADED_MODE');
    expect((await admin.get('/rest/v2/caches/alpha?action=health')).text).to.equal('DEGRADED');
    expect((await admin.get('/rest/v2/container/health')).json<{ cluster_health: { health_status: string } }>().cluster_health.health_status).to.equal('DEGRADED');
    expect((await server.anonymous().get('/rest/v2/container/health/status')).text).to.equal('DEGRADED');
    expect((await admin.post('/rest/v2/caches/alpha?action=set-availability&availability=sideways')).status).to.equal(400);
    expect((await server.as('deployer').post('/rest/v2/caches/alpha?action=set-availability&availability=AVAILABLE')).status).to.equal(403);
    expect((await admin.post('/rest/v2/caches/alpha?action=set-availability&availability=AVAILABLE')).status).to.equal(204);
    expect((await admin.get('/rest/v2/container/health/status')).text).to.equal('HEALTHY');
  });

  describe('config, cache-configs and templates', () => {
    it('GET config answers JSON by default and XML by Accept, ADMIN only', async () => {
      const json = (await admin.get('/rest/v2/container/config')).json<{ infinispan: { 'cache-container': Record<string, unknown> } }>();
      expect(json.infinispan['cache-container']).to.include({ name: 'default', statistics: 'true' });
      expect(json.infinispan['cache-container'].caches).to.deep.equal({});
      expect((await admin.get('/rest/v2/container/config', { Accept: 'application/xml' })).text).to.contain('<cache-container name="default"');
      expect((await admin.get('/rest/v2/container/config', { Accept: 'text/csv' })).status).to.equal(406);
      expect((await server.as('deployer').get('/rest/v2/container/config')).status).to.equal(403);
    });

    it('lists cache configurations and templates; a -configuration kind posted to /caches defines a template', async () => {
      const t = await admin.post('/rest/v2/caches/tmpl', '{"distributed-cache-configuration":{"mode":"ASYNC"}}', { 'Content-Type': 'application/json' });
      expect(t.status).to.equal(200);
      const configs = (await admin.get('/rest/v2/container/cache-configs')).json<Array<{ name: string; configuration: unknown }>>();
      expect(configs.map((c) => c.name)).to.deep.equal(['alpha', 'beta', 'tmpl']);
      expect(configs[0].configuration).to.deep.equal({ alpha: { 'local-cache': { statistics: true } } });
      for (const path of ['/rest/v2/container/cache-configs/templates', '/rest/v2/cache-configs/templates', '/rest/v2/cache-managers/default/cache-configs/templates']) {
        expect((await admin.get(path)).json<Array<{ name: string }>>().map((c) => c.name), path).to.deep.equal(['tmpl']);
      }
      expect((await admin.post('/rest/v2/caches/from-tmpl?template=tmpl')).status).to.equal(200);
      expect((await admin.get('/rest/v2/caches/from-tmpl')).json<{ mode: string }>().mode).to.equal('DIST_ASYNC');
      expect((await admin.delete('/rest/v2/caches/tmpl')).status).to.equal(200);
      expect((await admin.get('/rest/v2/container/cache-configs/templates')).json()).to.deep.equal([]);
      await admin.delete('/rest/v2/caches/from-tmpl');
    });

    it('lists caches with their details in the cache-managers family', async () => {
      const items = (await admin.get('/rest/v2/cache-managers/default/caches')).json<Array<Record<string, unknown>>>();
      expect(items.find((i) => i.name === 'beta')).to.include({ status: 'RUNNING', type: 'distributed-cache', persistent: true });
    });
  });

  describe('stats', () => {
    it('counts the engine across caches and resets (ADMIN)', async () => {
      await admin.put('/rest/v2/caches/alpha/k', 'v');
      await admin.get('/rest/v2/caches/alpha/k');
      await admin.get('/rest/v2/caches/alpha/missing');
      const st = (await server.as('monitor').get('/rest/v2/container/stats')).json<Record<string, number>>();
      expect(st.stores).to.be.at.least(1);
      expect(st.hits).to.be.at.least(1);
      expect(st.misses).to.be.at.least(1);
      expect(st.number_of_entries).to.be.at.least(1);
      expect(st).to.have.property('average_read_time_nanos');
      expect((await server.as('monitor').post('/rest/v2/container/stats?action=reset')).status).to.equal(403);
      expect((await admin.post('/rest/v2/container/stats?action=reset')).status).to.equal(204);
      const after = (await admin.get('/rest/v2/cache-managers/default/stats')).json<Record<string, number>>();
      expect([after.stores, after.hits, after.misses]).to.deep.equal([0, 0, 0]);
      expect((await admin.get('/rest/v2/caches/alpha?action=stats')).json<Record<string, number>>().stores).to.be.at.least(1);
    });
  });

  describe('rebalancing', () => {
    it('is reflected wherever rebalancing_enabled appears (ADMIN)', async () => {
      expect((await server.as('application').post('/rest/v2/container?action=disable-rebalancing')).status).to.equal(403);
      expect((await admin.post('/rest/v2/container?action=disable-rebalancing')).status).to.equal(204);
      expect((await admin.get('/rest/v2/container')).json<{ rebalancing_enabled: boolean }>().rebalancing_enabled).to.equal(false);
      const items = (await admin.get('/rest/v2/caches?action=detailed')).json<Array<{ rebalancing_enabled: boolean }>>();
      expect(items.every((i) => i.rebalancing_enabled === false)).to.equal(true);
      expect((await admin.post('/rest/v2/cache-managers/default?action=enable-rebalancing')).status).to.equal(204);
      expect((await admin.get('/rest/v2/container')).json<{ rebalancing_enabled: boolean }>().rebalancing_enabled).to.equal(true);
    });
  });
});

describe('POST /rest/v2/container?action=shutdown', () => {
  it('answers 204, then container and cache resources answer 503 while health/status keeps answering', async () => {
    await withServer({}, async (server) => {
      const admin = server.as('admin');
      await admin.createCache('c');
      expect((await server.as('application').post('/rest/v2/container?action=shutdown')).status).to.equal(403);
      expect((await admin.post('/rest/v2/container?action=shutdown')).status).to.equal(204);
      for (const [method, path] of [['GET', '/rest/v2/container'], ['GET', '/rest/v2/caches'], ['PUT', '/rest/v2/caches/c/k'], ['GET', '/rest/v2/counters']]) {
        expect((await admin.request(method, path)).status, `${method} ${path}`).to.equal(503);
      }
      const probe = await server.anonymous().get('/rest/v2/container/health/status');
      expect([probe.status, probe.text]).to.deep.equal([200, '']);
    });
  });
});

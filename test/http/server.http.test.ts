import { expect } from 'chai';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { list as tarList } from 'tar';
import { Client } from '../support/client';
import { spawnServer, waitForExit } from '../support/process';
import { tempDir, useServer } from '../support/server';
import { TEST_SERVER_NODES } from '../support/two-node-engine';

describe('server /rest/v2/server', () => {
  const server = useServer();
  const admin = server.as('admin');

  before(async () => {
    await admin.createCache('c');
  });

  it('GET /server answers the version; /server/cache-managers the one manager', async () => {
    expect((await server.as('monitor').get('/rest/v2/server')).json<{ version: string }>().version).to.match(/^grid '\w+' \d+\.\d+\.\d+$/);
    expect((await admin.get('/rest/v2/server/cache-managers')).json()).to.deep.equal(['default']);
    expect((await server.anonymous().get('/rest/v2/server')).status).to.equal(401);
  });

  it('GET /server/config answers the configuration in force as JSON, YAML or XML (ADMIN)', async () => {
    const json = (await admin.get('/rest/v2/server/config')).json<{ server: Record<string, any> }>();
    expect(json.server).to.have.keys('interfaces', 'socket-bindings', 'security', 'endpoints', 'data-dir');
    expect(json.server['socket-bindings']['socket-binding'][0].port).to.equal(new URL(server.url).port);
    expect((await admin.get('/rest/v2/server/config', { Accept: 'application/yaml' })).text).to.contain('socket-bindings:');
    expect((await admin.get('/rest/v2/server/config', { Accept: 'application/xml' })).text).to.match(/^<server>/);
    expect((await admin.get('/rest/v2/server/config', { Accept: 'image/gif' })).status).to.equal(406);
    expect((await server.as('deployer').get('/rest/v2/server/config')).status).to.equal(403);
  });

  it('GET env, memory and threads report the running process (ADMIN)', async () => {
    const env = (await admin.get('/rest/v2/server/env')).json<Record<string, string>>();
    expect(env['node.version']).to.equal(process.version);
    // os.* in the JVM properties' form, as the original lists them (this suite runs on Linux)
    expect(env['os.name']).to.equal('Linux');
    expect(env['os.arch']).to.be.oneOf(['amd64', 'aarch64']);
    const memory = (await admin.get('/rest/v2/server/memory')).json<Record<string, any>>();
    expect(memory).to.have.keys('memory_pools', 'gc', 'buffer_pools', 'heap', 'non_heap');
    expect(memory.heap.used).to.be.greaterThan(0);
    expect(memory.memory_pools.length).to.be.greaterThan(0);
    const threads = await admin.get('/rest/v2/server/threads');
    expect(threads.headers.get('content-type')).to.contain('text/plain');
    expect(threads.text).to.contain('event loop delay');
    expect(threads.text).to.contain('active resources');
    for (const path of ['/rest/v2/server/env', '/rest/v2/server/memory', '/rest/v2/server/threads']) {
      expect((await server.as('observer').get(path)).status, path).to.equal(403);
    }
  });

  it('lists connectors, one connector and connections', async () => {
    expect((await admin.get('/rest/v2/server/connectors')).json()).to.deep.equal(['rest']);
    expect((await admin.get('/rest/v2/server/connectors/rest')).json<{ port: number }>().port).to.equal(Number(new URL(server.url).port));
    expect((await admin.get('/rest/v2/server/connectors/hotrod')).status).to.equal(404);
    expect((await admin.get('/rest/v2/server/connections')).json()).to.deep.equal([]);
    expect((await admin.get('/rest/v2/server/overview-report')).json<Record<string, unknown>>()).to.include({ 'cluster-size': TEST_SERVER_NODES });
  });

  it('GET /server/report streams a tar.gz with configuration, logs, memory, CPU, files, network and threads (ADMIN)', async () => {
    const r = await admin.get('/rest/v2/server/report');
    expect(r.status).to.equal(200);
    expect(r.headers.get('content-type')).to.equal('application/gzip');
    expect(r.headers.get('content-disposition')).to.match(/^attachment; filename="grid-.+-\d{14}-report\.tar\.gz"$/);
    const dir = tempDir('grid-report-test-');
    try {
      writeFileSync(join(dir, 'r.tar.gz'), r.bytes);
      const names: string[] = [];
      await tarList({ file: join(dir, 'r.tar.gz'), onReadEntry: (e) => { names.push(e.path); } });
      expect(names).to.include.members(['server-config.json', 'env.json', 'memory.json', 'cpu.json', 'threads.txt', 'open-files.txt', 'network.txt']);
      expect(names.some((n) => n.startsWith('log/'))).to.equal(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect((await server.as('observer').get('/rest/v2/server/report')).status).to.equal(403);
  });

  describe('ignored caches', () => {
    it('ignores a cache (503 to data requests, IGNORED in listings) and un-ignores it', async () => {
      expect((await admin.post('/rest/v2/server/ignored-caches/c')).status).to.equal(204);
      expect((await admin.get('/rest/v2/server/ignored-caches')).json()).to.deep.equal(['c']);
      expect((await admin.get('/rest/v2/server/ignored-caches/default')).json()).to.deep.equal(['c']);
      const r = await admin.put('/rest/v2/caches/c/k', 'v');
      expect(r.status).to.equal(503);
      expect(r.text).to.equal("ISPN012008: Cache with name 'c' is temporarily unavailable.");
      const item = (await admin.get('/rest/v2/caches?action=detailed')).json<Array<{ name: string; status: string }>>().find((i) => i.name === 'c');
      expect(item?.status).to.equal('IGNORED');
      expect((await admin.delete('/rest/v2/server/ignored-caches/default/c')).status).to.equal(204);
      expect((await admin.put('/rest/v2/caches/c/k', 'v')).status).to.equal(204);
    });

    it('keeps the ignore list and the rebalancing switches across a restart, as the original keeps its server state; availability begins afresh', async () => {
      await admin.createCache('kept');
      expect((await admin.post('/rest/v2/caches/c?action=set-availability&availability=DEGRADED_MODE')).status).to.equal(204);
      expect((await admin.post('/rest/v2/server/ignored-caches/kept')).status).to.equal(204);
      expect((await admin.post('/rest/v2/container?action=disable-rebalancing')).status).to.equal(204);
      expect((await admin.post('/rest/v2/caches/c?action=disable-rebalancing')).status).to.equal(204);
      await server.restart();
      const rebalancing = async (path: string) => (await admin.get(path)).json<{ rebalancing_enabled: boolean }>().rebalancing_enabled;
      expect((await admin.get('/rest/v2/server/ignored-caches')).json()).to.deep.equal(['kept']);
      expect((await admin.put('/rest/v2/caches/kept/k', 'v')).status).to.equal(503);
      expect([await rebalancing('/rest/v2/container'), await rebalancing('/rest/v2/caches/c')]).to.deep.equal([false, false]);
      expect((await admin.get('/rest/v2/caches/c?action=get-availability')).text).to.equal('AVAILABLE');
      // the cache's own switch stays off under the container's
      expect((await admin.post('/rest/v2/container?action=enable-rebalancing')).status).to.equal(204);
      expect([await rebalancing('/rest/v2/container'), await rebalancing('/rest/v2/caches/c')]).to.deep.equal([true, false]);
      expect((await admin.post('/rest/v2/caches/c?action=enable-rebalancing')).status).to.equal(204);
      expect((await admin.delete('/rest/v2/server/ignored-caches/kept')).status).to.equal(204);
      expect(await rebalancing('/rest/v2/caches/c')).to.equal(true);
      expect((await admin.put('/rest/v2/caches/kept/k', 'v')).status).to.equal(204);
    });

    it('answers 404 for an unknown cache or manager, and 403 for non-admins', async () => {
      expect((await admin.post('/rest/v2/server/ignored-caches/nope')).status).to.equal(404);
      expect((await admin.post('/rest/v2/server/ignored-caches/other/c')).status).to.equal(404);
      expect((await server.as('deployer').post('/rest/v2/server/ignored-caches/c')).status).to.equal(403);
    });
  });
});

describe('cluster /rest/v2/cluster and probes', () => {
  const server = useServer();

  it('GET /cluster/members lists the test server\'s nodes (ADMIN); ?action=distribution (MONITOR)', async () => {
    const members = (await server.as('admin').get('/rest/v2/cluster/members')).json<{ members: Array<Record<string, unknown>>; rolling_upgrade: boolean }>();
    expect(members.members).to.have.length(TEST_SERVER_NODES);
    for (const m of members.members) expect(m).to.include({ cache_manager_status: 'RUNNING' });
    expect(members.rolling_upgrade).to.equal(false);
    expect((await server.as('monitor').get('/rest/v2/cluster/members')).status).to.equal(403);
    const dist = (await server.as('monitor').get('/rest/v2/cluster?action=distribution')).json<Array<Record<string, unknown>>>();
    expect(dist).to.have.length(TEST_SERVER_NODES);
    for (const d of dist) expect(d).to.have.keys('node_name', 'node_addresses', 'memory_available', 'memory_used');
  });

  it('serves Prometheus metrics anonymously: per-cache and container counters, request latency, process', async () => {
    await server.as('admin').createCache('metered');
    await server.as('admin').put('/rest/v2/caches/metered/k', 'v');
    await server.as('admin').get('/rest/v2/caches/metered/k');
    const r = await server.anonymous().get('/metrics');
    expect(r.status).to.equal(200);
    expect(r.headers.get('content-type')).to.contain('text/plain');
    expect(r.text).to.match(/^grid_cache_hits\{cache="metered"\} 1$/m);
    expect(r.text).to.match(/^grid_cache_stores\{cache="metered"\} 1$/m);
    expect(r.text).to.match(/^grid_container_stores \d+$/m);
    expect(r.text).to.contain('grid_http_request_duration_seconds_bucket');
    expect(r.text).to.contain('grid_process_cpu_user_seconds_total');
  });

  it('serves the same metrics to OPTIONS and below /metrics, as the original; other methods get 405', async () => {
    for (const [method, path] of [['OPTIONS', '/metrics'], ['GET', '/metrics/vendor'], ['OPTIONS', '/metrics/base/x']]) {
      const r = await server.anonymous().request(method, path);
      expect([r.status, r.text.includes('grid_container_stores')], `${method} ${path}`).to.deep.equal([200, true]);
    }
    expect((await server.anonymous().request('POST', '/metrics')).status).to.equal(405);
  });

  it('has no data sources; answers the original\'s routes it does not build with 501 and a sentence, to admins only', async () => {
    const admin = server.as('admin');
    expect((await admin.get('/rest/v2/server/datasources')).json()).to.deep.equal([]);
    expect((await admin.post('/rest/v2/server/datasources/ds?action=test')).status).to.equal(404);
    for (const [method, path] of [['POST', '/rest/v2/server/memory?action=heap-dump'], ['POST', '/rest/v2/server/connectors/rest?action=stop'],
      ['GET', '/rest/v2/server/connectors/rest/ip-filter'], ['DELETE', '/rest/v2/server/connectors/rest/ip-filter']]) {
      const r = await admin.request(method, path);
      expect([r.status, /not implemented by this server/.test(r.text)], `${method} ${path}`).to.deep.equal([501, true]);
      expect((await server.as('observer').request(method, path)).status, `${method} ${path} as observer`).to.equal(403);
    }
  });

  describe('GET /rest/v2/server/caches/defaults', () => {
    type Tree = { [name: string]: string | null | Tree };
    it('answers the default attribute values of a cache as the original: strings or null, nested by element', async () => {
      const r = await server.as('observer').get('/rest/v2/server/caches/defaults');
      expect(r.status).to.equal(200);
      expect(r.headers.get('content-type')).to.match(/^application\/json/);
      const cache = r.json<Tree>()['local-cache'] as Tree;
      const at = (path: string) => path.split('.').reduce<Tree | string | null>((t, k) => (t as Tree)[k], cache);
      // the values the original's own test checks (ServerResourceTest.testCacheDefaults)
      expect(at('memory.storage')).to.equal('HEAP');
      expect(at('clustering.hash.owners')).to.equal('2');
      expect(at('expiration.lifespan')).to.equal('-1');
      expect(at('locking.isolation')).to.equal('REPEATABLE_READ');
      expect(at('transaction.reaper-interval')).to.equal('30s');
      expect(at('sites.max-cleanup-delay')).to.equal('30s');
      expect(at('clustering.remote-timeout')).to.equal('15s');
      expect(at('memory.max-size')).to.equal(null);
    });

    it('needs authentication only, as the original declares no permission for it', async () => {
      expect((await server.anonymous().get('/rest/v2/server/caches/defaults')).status).to.equal(401);
      expect((await server.as('monitor').get('/rest/v2/server/caches/defaults')).status).to.equal(200);
    });
  });

  it('writes the server configuration as YAML without anchors or aliases', async () => {
    const r = await server.as('admin').get('/rest/v2/server/config', { Accept: 'application/yaml' });
    expect(r.status).to.equal(200);
    expect(r.text).to.not.match(/[&*][a-z]+\d/);
  });

  it('answers /health/live and /health/ready anonymously', async () => {
    expect((await server.anonymous().get('/health/live')).status).to.equal(200);
    expect((await server.anonymous().head('/health/ready')).status).to.equal(200);
  });

  it('POST /cluster?action=stop naming a node that is not live answers 404 with the name and stops none', async () => {
    const self = (await server.as('admin').get('/rest/v2/container')).json<{ node_address: string }>().node_address;
    const r = await server.as('admin').post(`/rest/v2/cluster?action=stop&server=${self}&server=elsewhere&server=nowhere`);
    expect(r.status).to.equal(404);
    expect(r.text).to.equal("No live node of this cluster is named 'elsewhere' or 'nowhere' (GET /rest/v2/cluster/members lists the live nodes)");
    expect((await server.as('admin').get('/rest/v2/cluster/members')).status).to.equal(200);
    expect((await server.as('application').post('/rest/v2/cluster?action=stop')).status).to.equal(403);
  });
});

describe('stopping through the API (bin/grid start)', function () {
  this.timeout(30_000);

  for (const path of ['/rest/v2/server?action=stop', '/rest/v2/cluster?action=stop']) {
    it(`POST ${path} answers 204 and the process exits cleanly`, async () => {
      const dataDir = tempDir();
      try {
        const proc = await spawnServer(['--data', dataDir], { APP_USER: 'ops', APP_PASS: 'ops-pw' });
        const r = await new Client(proc.url, { user: 'ops', password: 'ops-pw' }).post(path);
        expect(r.status).to.equal(204);
        expect(await waitForExit(proc.child)).to.equal(0);
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    });
  }
});

import { expect } from 'chai';
import { Client } from '../support/client';
import { eventually } from '../support/poll';
import { ENTITY_PROTO } from '../support/query-fixtures';
import { putJson, registerSchema, searchOk } from '../support/search';
import { type ServerProcess, waitForExit } from '../support/process';
import { gridProcesses, PROCESS_ADMIN, redisEngine, throwawayCluster } from '../support/redis-cluster';
import { startTestServer, type TestServer } from '../support/server';

// Cluster-wide operations and statistics of grid nodes on one real 3+3 Redis Cluster
// (docs/scale-out.md, "Cluster-wide operations", "Cluster-wide statistics"), black-box over HTTP:
// node-a runs in this process with the test users of every role (the users live in the cluster,
// so every node knows them); node-b and node-c are `bin/grid start` processes, so that a stop can
// be seen as a process that exits. The tests run in order: each stop leaves fewer nodes.

type Json = Record<string, number>;
const CACHE = '/rest/v2/caches/counted';

describe('cluster-wide operations and statistics on one Redis Cluster', function () {
  this.timeout(120_000);
  let a: TestServer;
  let nodeB: ServerProcess;
  let nodeC: ServerProcess;
  const nodes = gridProcesses(() => redis, async () => { await a?.close(); });
  const redis = throwawayCluster();
  const client = (p: ServerProcess) => new Client(p.url, PROCESS_ADMIN);
  const start = (name: string) => nodes.start(name);
  const members = async (c: Client) => (await c.get('/rest/v2/container')).json<{ cluster_members: string[] }>().cluster_members;

  before(async () => {
    a = await startTestServer({ engine: redisEngine(redis), nodeName: 'node-a' });
    nodeB = await start('node-b');
    nodeC = await start('node-c');
  });

  it('sums the details\' stats over the live nodes, where ?action=stats stays each node\'s own', async () => {
    const [onA, onB, onC] = [a.as('admin'), client(nodeB), client(nodeC)];
    await onA.createCache('counted', { 'distributed-cache': { statistics: true } });
    // A: 1 store, 2 hits, 1 miss; B: 2 stores, 1 hit; C: 3 stores, 1 removal
    expect((await onA.put(`${CACHE}/a1`, 'v')).status).to.equal(204);
    for (const k of ['b1', 'b2']) expect((await onB.put(`${CACHE}/${k}`, 'v')).status).to.equal(204);
    for (const k of ['c1', 'c2', 'c3']) expect((await onC.put(`${CACHE}/${k}`, 'v')).status).to.equal(204);
    for (const k of ['a1', 'b1', 'none']) await onA.get(`${CACHE}/${k}`);
    expect((await onB.get(`${CACHE}/c1`)).status).to.equal(200);
    expect((await onC.delete(`${CACHE}/c3`)).status).to.equal(204);

    const own = await Promise.all([onA, onB, onC].map(async (c) => (await c.get(`${CACHE}?action=stats`)).json<Json>()));
    expect(own.map((s) => [s.stores, s.hits, s.misses, s.remove_hits, s.remove_misses])).to.deep.equal([[1, 2, 1, 0, 0], [2, 1, 0, 0, 0], [3, 0, 0, 1, 0]]);
    for (const c of [onA, onB, onC]) {
      const stats = (await c.get(CACHE)).json<{ stats: Json }>().stats;
      expect(stats, c.url).to.include({
        stores: 6, total_number_of_entries: 6, hits: 3, misses: 1, retrievals: 4, remove_hits: 1, remove_misses: 0, evictions: 0,
        current_number_of_entries: 5, approximate_entries: 5, required_minimum_number_of_nodes: 1,
      });
      // the mean of the nodes' averages (each node's own, as ?action=stats shows it), rounded down, as the original
      for (const field of ['average_write_time_nanos', 'average_read_time_nanos', 'average_remove_time_nanos', 'average_write_time']) {
        expect(stats[field], field).to.equal(Math.floor(own.reduce((sum, s) => sum + s[field], 0) / own.length));
      }
    }
  });

  it('combines search/stats over the live nodes with scope=cluster, where without it each node reports its own', async () => {
    const [onA, onB, onC] = [a.as('admin'), client(nodeB), client(nodeC)];
    const path = '/rest/v2/caches/searched/search/stats';
    await registerSchema(onA, 'entity.proto', ENTITY_PROTO);
    await onA.createCache('searched', { 'distributed-cache': { encoding: { 'media-type': 'application/x-protostream' }, statistics: true, indexing: { enabled: true, 'indexed-entities': ['Entity', 'Another'] } } });
    for (const v of [1, 11, 21]) await putJson(onB, 'searched', `e${v}`, { _type: 'Entity', value: v });
    await putJson(onC, 'searched', 'a3', { _type: 'Another', value: 3 });
    // indexed queries: 1 on A, 2 on B, 3 on C; one hybrid query on C
    for (const [c, n] of [[onA, 1], [onB, 2], [onC, 3]] as const) {
      for (let i = 0; i < n; i++) expect((await searchOk(c, 'searched', 'FROM Entity WHERE value > 5')).hit_count).to.equal(2);
    }
    await searchOk(onC, 'searched', "FROM Entity WHERE value > 5 AND description = 'One'");

    type Timing = { count: number; average: number; max: number; slowest?: string };
    type Stats = { query: Record<string, Timing>; index: { types: Record<string, { count: number; size: number }>; reindexing: boolean; entityIndexingFailures: number } };
    const own = await Promise.all([onA, onB, onC].map(async (c) => (await c.get(path)).json<Stats>()));
    expect(own.map((s) => [s.query.indexed_local.count, s.query.hybrid.count, s.index.types.Entity.count])).to.deep.equal([[1, 0, 3], [2, 0, 3], [3, 1, 3]]);
    const sum = (f: (s: Stats) => number) => own.reduce((n, s) => n + f(s), 0);
    for (const c of [onA, onB, onC]) {
      const r = await c.get(`${path}?scope=cluster`);
      expect(r.status, r.text).to.equal(200);
      const all = r.json<Stats>();
      const indexed = all.query.indexed_local;
      expect([indexed.count, all.query.indexed_distributed.count, all.query.hybrid.count, all.query.non_indexed.count], c.url).to.deep.equal([6, 6, 1, 0]);
      expect(indexed.max, c.url).to.equal(Math.max(...own.map((s) => s.query.indexed_local.max)));
      expect(indexed.slowest).to.equal('FROM Entity WHERE value > 5');
      // the mean over every node's queries: the nodes' totals (average × count) over the summed count
      expect(indexed.average, c.url).to.be.closeTo(sum((s) => s.query.indexed_local.average * s.query.indexed_local.count) / 6, 1);
      // each node's index holds every entry: its counts and sizes are summed, as the original's replicated index
      expect(all.index.types.Entity, c.url).to.deep.equal({ count: 9, size: sum((s) => s.index.types.Entity.size) });
      expect([all.index.types.Another.count, all.index.reindexing, all.index.entityIndexingFailures]).to.deep.equal([3, false, 0]);
    }
    expect((await onA.get(`${path}?scope=CLUSTER`)).json<Stats>().query.indexed_local.count).to.equal(6);
    expect((await a.as('monitor').get(`${path}?scope=cluster`)).status).to.equal(200);
    expect((await a.anonymous().get(`${path}?scope=cluster`)).status).to.equal(401);
    const clear = await onB.post(`${path}?action=clear&scope=cluster`);
    expect(clear.status).to.equal(501);
  });

  it('keeps one ignore list for the cluster: in force on every node once the request that set it is answered', async () => {
    const [onA, onB, onC] = [a.as('admin'), client(nodeB), client(nodeC)];
    await onA.createCache('shunned');
    expect((await onB.post('/rest/v2/server/ignored-caches/shunned')).status).to.equal(204);
    const put = await onA.put('/rest/v2/caches/shunned/k', 'v');
    expect([put.status, put.text]).to.deep.equal([503, "ISPN012008: Cache with name 'shunned' is temporarily unavailable."]);
    for (const c of [onA, onB, onC]) {
      expect((await c.get('/rest/v2/server/ignored-caches')).json(), c.url).to.deep.equal(['shunned']);
      const item = (await c.get('/rest/v2/caches?action=detailed')).json<Array<{ name: string; status: string }>>().find((i) => i.name === 'shunned');
      expect(item?.status, c.url).to.equal('IGNORED');
    }
    expect((await a.as('deployer').delete('/rest/v2/server/ignored-caches/shunned')).status).to.equal(403);
    expect((await onC.delete('/rest/v2/server/ignored-caches/shunned')).status).to.equal(204);
    expect((await onA.put('/rest/v2/caches/shunned/k', 'v')).status).to.equal(204);
    for (const c of [onA, onB, onC]) expect((await c.get('/rest/v2/server/ignored-caches')).json(), c.url).to.deep.equal([]);
  });

  it('keeps one rebalancing switch for the container and one per cache, reported alike by every node; a cache created again starts switched on', async () => {
    const [onA, onB, onC] = [a.as('admin'), client(nodeB), client(nodeC)];
    const container = async (c: Client) => (await c.get('/rest/v2/container')).json<{ rebalancing_enabled: boolean }>().rebalancing_enabled;
    const cache = async (c: Client, name: string) => (await c.get(`/rest/v2/caches/${name}`)).json<{ rebalancing_enabled: boolean }>().rebalancing_enabled;
    await onA.createCache('moved');
    expect((await onA.post('/rest/v2/container?action=disable-rebalancing')).status).to.equal(204);
    for (const c of [onA, onB, onC]) expect([await container(c), await cache(c, 'moved')], c.url).to.deep.equal([false, false]);
    expect((await onB.post('/rest/v2/container?action=enable-rebalancing')).status).to.equal(204);
    expect((await onC.post('/rest/v2/caches/moved?action=disable-rebalancing')).status).to.equal(204);
    for (const c of [onA, onB, onC]) {
      expect([await container(c), await cache(c, 'moved'), await cache(c, 'counted')], c.url).to.deep.equal([true, false, true]);
      const listed = (await c.get('/rest/v2/caches?action=detailed')).json<Array<{ name: string; rebalancing_enabled: boolean }>>();
      expect(listed.find((i) => i.name === 'moved')?.rebalancing_enabled, c.url).to.equal(false);
    }
    expect((await a.as('application').post('/rest/v2/caches/moved?action=enable-rebalancing')).status).to.equal(403);
    // partition availability is the cluster's too
    expect((await onB.post('/rest/v2/caches/moved?action=set-availability&availability=DEGRADED_MODE')).status).to.equal(204);
    for (const c of [onA, onB, onC]) {
      expect((await c.get('/rest/v2/caches/moved?action=get-availability')).text, c.url).to.equal('DEGRADED_MODE');
      expect((await c.get('/rest/v2/container/health')).json<{ cluster_health: { health_status: string } }>().cluster_health.health_status, c.url).to.equal('DEGRADED');
    }
    expect((await onB.delete('/rest/v2/caches/moved')).status).to.equal(200);
    await onB.createCache('moved');
    for (const c of [onA, onB, onC]) expect(await cache(c, 'moved'), c.url).to.equal(true);
  });

  it('serves a VOLATILE cache from every node, as the original creates it on every node', async () => {
    const [onA, onB, onC] = [a.as('admin'), client(nodeB), client(nodeC)];
    const created = await onA.post('/rest/v2/caches/fleeting', '{"local-cache":{}}', { 'Content-Type': 'application/json', flags: 'VOLATILE' });
    expect(created.status).to.equal(200);
    expect((await onB.put('/rest/v2/caches/fleeting/k', 'v', { 'Content-Type': 'text/plain' })).status).to.equal(204);
    expect((await onC.get('/rest/v2/caches/fleeting/k')).text).to.equal('v');
    for (const c of [onA, onB, onC]) expect((await c.get('/rest/v2/caches')).json<string[]>(), c.url).to.include('fleeting');
  });

  it('answers a stop naming a node that is not live with 404 and the name, and stops none; LIFECYCLE only', async () => {
    const r = await client(nodeB).post('/rest/v2/cluster?action=stop&server=node-c&server=node-z');
    expect(r.status).to.equal(404);
    expect(r.text).to.equal("No live node of this cluster is named 'node-z' (GET /rest/v2/cluster/members lists the live nodes)");
    expect((await a.as('application').post('/rest/v2/cluster?action=stop&server=node-c')).status).to.equal(403);
    expect((await a.as('monitor').post('/rest/v2/cluster?action=stop&server=node-c')).status).to.equal(403);
    expect((await a.anonymous().post('/rest/v2/cluster?action=stop&server=node-c')).status).to.equal(401);
    expect(await members(client(nodeC))).to.deep.equal(['node-a', 'node-b', 'node-c']);
  });

  it('stops a node named through another: it leaves the members, its process exits, the others serve on', async () => {
    expect((await a.as('admin').post('/rest/v2/cluster?action=stop&server=node-c')).status).to.equal(204);
    expect(await waitForExit(nodeC.child)).to.equal(0);
    // a node leaves the members before it drains: gone from both lists by the time it has exited
    for (const c of [a.as('admin'), client(nodeB)]) expect(await members(c)).to.deep.equal(['node-a', 'node-b']);
    expect((await client(nodeB).put(`${CACHE}/after`, 'still')).status).to.equal(204);
    expect((await a.as('admin').get(`${CACHE}/after`)).text).to.equal('still');
  });

  it('shuts the container down on every node, whichever node is asked', async () => {
    expect((await a.as('application').post('/rest/v2/container?action=shutdown')).status).to.equal(403);
    expect((await client(nodeB).post('/rest/v2/container?action=shutdown')).status).to.equal(204);
    await eventually(async () => (await a.as('admin').get('/rest/v2/container')).status === 503, 5_000, 'node-a\'s container to shut down');
    expect((await a.as('admin').get(`${CACHE}/after`)).status).to.equal(503);
    expect((await client(nodeB).get(`${CACHE}/after`)).status).to.equal(503);
    const probe = await a.anonymous().get('/rest/v2/container/health/status');
    expect([probe.status, probe.text]).to.deep.equal([200, '']);
  });

  it('stops every node when none is named, after a container shutdown too; the one asked answers first', async () => {
    expect((await a.as('admin').post('/rest/v2/cluster?action=stop')).status).to.equal(204);
    expect(await waitForExit(nodeB.child)).to.equal(0);
    await eventually(async () => fetch(`${a.url}/health/live`).then(() => false, () => true), 10_000, 'node-a to stop listening');
  });

  it('starts again with the caches it keeps, without the VOLATILE ones of its last run', async () => {
    const names = (await client(await start('node-d')).get('/rest/v2/caches')).json<string[]>();
    expect(names).to.include('counted');
    expect(names).to.not.include('fleeting');
  });
});

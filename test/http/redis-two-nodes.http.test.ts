import { expect } from 'chai';
import type { Client } from '../support/client';
import { eventually } from '../support/poll';
import { masterOfSlot, shardOfSlot, useClusterClients } from '../support/redis-client';
import { redisEngine, startTwoNodes, throwawayCluster } from '../support/redis-cluster';
import { grid } from '../support/cli';
import { startTestServer, tempDir, type TestServer } from '../support/server';
import { ConfigError, readConfigFiles } from '../../src/config/server-config';
import { SseReader } from '../support/sse';
import { basic } from '../support/transports';
import { runningPid } from '../../src/cli/local-redis-node';
import { segmentKeysOf, segmentOf } from '../../src/store/redis/entry-layout';
import calculateSlot from 'cluster-key-slot';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

// Two grid nodes over one real 3+3 Redis Cluster (docs/scale-out.md): what is written through one
// is what the other answers, black-box over HTTP.

const LISTEN = '/rest/v2/container/config?action=listen';

describe('two grid nodes on one Redis Cluster', function () {
  this.timeout(90_000);
  const redis = throwawayCluster();
  const clients = useClusterClients(redis);
  let a: TestServer;
  let b: TestServer;
  let adminA: Client;
  let adminB: Client;

  before(async () => ({ a, b, adminA, adminB } = await startTwoNodes(redis)));
  after(async () => {
    await a?.close();
    await b?.close();
  });

  it('serves a cache created on one node from the other: entries, size, keys, removal', async () => {
    expect((await adminA.post('/rest/v2/caches/shared', '{"distributed-cache":{"mode":"SYNC"}}', { 'Content-Type': 'application/json' })).status).to.equal(200);
    await eventually(async () => (await adminB.get('/rest/v2/caches')).json<string[]>().includes('shared'), 5_000, 'node B to list the cache');
    expect((await adminB.put('/rest/v2/caches/shared/k1', 'from B', { 'Content-Type': 'text/plain' })).status).to.equal(204);
    expect((await adminA.put('/rest/v2/caches/shared/k2', 'from A', { 'Content-Type': 'text/plain' })).status).to.equal(204);
    const read = await adminA.get('/rest/v2/caches/shared/k1');
    expect([read.status, read.text]).to.deep.equal([200, 'from B']);
    expect((await adminB.get('/rest/v2/caches/shared?action=size')).text).to.equal('2');
    expect((await adminA.get('/rest/v2/caches/shared?action=keys')).json<string[]>().sort()).to.deep.equal(['k1', 'k2']);

    expect((await adminB.delete('/rest/v2/caches/shared')).status).to.equal(200);
    await eventually(async () => (await adminA.get('/rest/v2/caches/shared/k1')).status === 404, 5_000, 'node A to lose the cache');
    // created again, it starts empty: the removed cache's entries went with it
    expect((await adminA.post('/rest/v2/caches/shared', '{"local-cache":{}}', { 'Content-Type': 'application/json' })).status).to.equal(200);
    await eventually(async () => (await adminB.get('/rest/v2/caches/shared?action=size')).status === 200, 5_000, 'node B to have the new cache');
    expect((await adminB.get('/rest/v2/caches/shared?action=size')).text).to.equal('0');
  });

  it('finds on one node, at once, a cache the other has just created', async () => {
    for (let i = 0; i < 20; i++) {
      expect((await adminA.post(`/rest/v2/caches/at-once-${i}`, '{"local-cache":{}}', { 'Content-Type': 'application/json' })).status).to.equal(200);
      expect((await adminB.put(`/rest/v2/caches/at-once-${i}/k`, 'v', { 'Content-Type': 'text/plain' })).status).to.equal(204);
    }
    expect((await adminB.get('/rest/v2/caches/never-made/k')).status).to.equal(404);
  });

  it('lets exactly one of eight put-if-absent writers on two nodes win each key', async () => {
    await adminA.createCache('race');
    await eventually(async () => (await adminB.get('/rest/v2/caches/race?action=size')).status === 200, 5_000, 'node B to have the cache');
    for (let k = 0; k < 20; k++) {
      const replies = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 ? adminA : adminB).post(`/rest/v2/caches/race/key${k}`, `writer ${i}`, { 'Content-Type': 'text/plain' })));
      expect(replies.filter((r) => r.status === 204)).to.have.length(1);
      expect(replies.filter((r) => r.status === 409)).to.have.length(7);
    }
  });

  it('checks an ETag taken on one node against a conditional write on the other', async () => {
    await adminA.createCache('etags');
    await eventually(async () => (await adminB.get('/rest/v2/caches/etags?action=size')).status === 200, 5_000, 'node B to have the cache');
    await adminA.put('/rest/v2/caches/etags/k', 'v1', { 'Content-Type': 'text/plain' });
    const first = (await adminA.get('/rest/v2/caches/etags/k')).headers.get('etag')!;
    // a PUT with If-None-Match is not made while the entry carries that ETag (304)
    expect((await adminB.put('/rest/v2/caches/etags/k', 'v1', { 'Content-Type': 'text/plain', 'If-None-Match': first })).status).to.equal(304);
    expect((await adminB.put('/rest/v2/caches/etags/k', 'v2', { 'Content-Type': 'text/plain' })).status).to.equal(204);
    // a DELETE with If-None-Match removes only the entry that carries it (412 otherwise)
    expect((await adminA.delete('/rest/v2/caches/etags/k', { 'If-None-Match': first })).status).to.equal(412);
    const current = (await adminB.get('/rest/v2/caches/etags/k')).headers.get('etag')!;
    expect(current).to.not.equal(first);
    expect((await adminA.delete('/rest/v2/caches/etags/k', { 'If-None-Match': current })).status).to.equal(204);
    expect((await adminB.get('/rest/v2/caches/etags/k')).status).to.equal(404);
  });

  it('shares schemas, templates and counters, and counts every increment of eight clients on two nodes', async () => {
    expect((await adminA.post('/rest/v2/schemas/person.proto', 'message Person { optional string name = 1; }')).status).to.equal(201);
    await eventually(async () => (await adminB.get('/rest/v2/schemas/person.proto')).status === 200, 5_000, 'node B to have the schema');
    expect((await adminB.get('/rest/v2/schemas?action=types')).json()).to.deep.equal(['Person']);

    expect((await adminA.post('/rest/v2/caches/tmpl', '{"local-cache-configuration":{"statistics":true}}', { 'Content-Type': 'application/json' })).status).to.equal(200);
    await eventually(async () => (await adminB.post('/rest/v2/caches/from-tmpl?template=tmpl')).status === 200, 5_000, 'node B to create from the template');

    expect((await adminB.post('/rest/v2/counters/hits', '{"strong-counter":{"initial-value":0,"upper-bound":1000000}}', { 'Content-Type': 'application/json' })).status).to.equal(200);
    await eventually(async () => (await adminA.get('/rest/v2/counters/hits')).status === 200, 5_000, 'node A to have the counter');
    await Promise.all(Array.from({ length: 8 }, async (_, i) => {
      for (let n = 0; n < 25; n++) expect((await (i % 2 ? adminA : adminB).post('/rest/v2/counters/hits?action=increment')).status).to.equal(200);
    }));
    expect((await adminA.get('/rest/v2/counters/hits')).text).to.equal('200');
    expect((await adminB.get('/rest/v2/counters/hits')).text).to.equal('200');
  });

  it('shares tasks, roles and grants, users and logging levels', async () => {
    expect((await adminA.put('/rest/v2/tasks/hello', '// mode=local,language=javascript\n"hello from a task"')).status).to.equal(200);
    await eventually(async () => (await adminB.post('/rest/v2/tasks/hello?action=exec')).text === '"hello from a task"' ||
      (await adminB.post('/rest/v2/tasks/hello?action=exec')).text === 'hello from a task', 5_000, 'node B to run the task');

    expect((await adminA.post('/rest/v2/security/permissions/reader?permission=READ&permission=BULK_READ', 'reads only')).status).to.equal(204);
    await eventually(async () => (await adminB.get('/rest/v2/security/permissions/reader')).status === 200, 5_000, 'node B to have the role');
    // a user made on B, granted a role on A, is refused and then let in on B as the grant says
    await b.running.services.users.upsert('gina', 'gina-pw', ['observer']);
    // (polling A with gina's password before A has her would book failed logins, which A then throttles)
    await eventually(() => a.running.services.users.list().some((u) => u.name === 'gina'), 5_000, 'node A to know the user');
    expect((await a.as('gina').get('/rest/v2/caches')).status).to.equal(200);
    await adminA.createCache('granted');
    await eventually(async () => (await adminB.get('/rest/v2/caches/granted?action=size')).status === 200, 5_000, 'node B to have the cache');
    expect((await b.as('gina').put('/rest/v2/caches/granted/k', 'v')).status).to.equal(403);
    expect((await adminA.put('/rest/v2/security/roles/gina?action=grant&role=deployer')).status).to.equal(204);
    await eventually(async () => (await b.as('gina').put('/rest/v2/caches/granted/k', 'v')).status === 204, 5_000, 'node B to follow the grant');

    expect((await adminB.put('/rest/v2/logging/loggers/org.example.shared?level=DEBUG')).status).to.equal(204);
    await eventually(async () => (await adminA.get('/rest/v2/logging/loggers')).json<Array<{ name: string; level: string }>>()
      .some((l) => l.name === 'org.example.shared' && l.level === 'DEBUG'), 5_000, 'node A to have the logger');
  });

  it('tells a configuration change made on one node to a listener on the other, with an id to resume from on either', async () => {
    const sse = await SseReader.open(`${b.url}${LISTEN}`, { ...basic('admin'), Accept: 'application/json' });
    try {
      await adminA.createCache('heard');
      const [created] = await sse.nextWithIds(1, 5_000);
      expect(created).to.deep.include({ event: 'create-cache' });
      expect(created.id).to.match(/^\d+$/);
      await adminA.delete('/rest/v2/caches/heard');
      const [removed] = await sse.nextWithIds(1, 5_000);
      expect(removed.event).to.equal('remove-cache');
      // numbered across the nodes: the removal made through B's cluster is the next number
      expect(BigInt(removed.id)).to.equal(BigInt(created.id) + 1n);
      const resumed = await SseReader.open(`${a.url}${LISTEN}`, { ...basic('admin'), Accept: 'application/json', 'Last-Event-ID': created.id });
      try {
        const [again] = await resumed.nextWithIds(1, 5_000);
        expect([again.event, again.id]).to.deep.equal(['remove-cache', removed.id]);
      } finally {
        resumed.close();
      }
    } finally {
      sse.close();
    }
  });

  it('opens a configuration listener on one node with every change acknowledged on the other before it, in its current state', async () => {
    // large definitions (about 800 KB): the other node takes a while to apply each
    const roles = Array.from({ length: 3000 }, (_, r) => `role-${r}-${'x'.repeat(250)}`);
    for (let i = 0; i < 3; i++) {
      await adminA.createCache(`fresh-${i}`, { 'local-cache': { security: { authorization: { enabled: true, roles: ['admin', ...roles] } } } });
      const sse = await SseReader.open(`${b.url}${LISTEN}&includeCurrentState=true`, { ...basic('admin'), Accept: 'application/json' });
      try {
        // the state, then a frame with the id it stands at and no event
        const end = () => sse.blocks.findIndex((block) => block.length === 1 && block[0].startsWith('id: '));
        await sse.waitFor(() => end() >= 0);
        const state = sse.blocks.slice(0, end()).map((block) => block.join('\n'));
        expect(state.filter((block) => block.includes(`"fresh-${i}"`)), `round ${i}`).to.have.length(1);
      } finally {
        sse.close();
      }
    }
  });

  it('refuses a bound added to an existing cache with a sentence naming the engine, and checks permissions as on one node', async () => {
    await adminA.createCache('unbounded');
    const bounded = await adminB.put('/rest/v2/caches/unbounded', '{"local-cache":{"memory":{"max-count":10}}}', { 'Content-Type': 'application/json' });
    expect([bounded.status, bounded.text]).to.deep.equal([400, 'memory.max-count and memory.max-size cannot be added to an existing cache on the redis engine, '
      + 'whose layout is chosen at create: create a new cache with the bound it is to have (docs/scale-out.md)']);
    expect((await b.as('observer').post('/rest/v2/caches/nope', '{"local-cache":{}}', { 'Content-Type': 'application/json' })).status).to.equal(403);
    await adminA.createCache('guarded');
    await eventually(async () => (await adminB.get('/rest/v2/caches/guarded?action=size')).status === 200, 5_000, 'node B to have the cache');
    expect((await b.as('observer').put('/rest/v2/caches/guarded/k', 'v')).status).to.equal(403);
  });

  it('answers an Ickle query on one node over entries written through the other, and deletes by query', async () => {
    expect((await adminA.post('/rest/v2/schemas/q.proto', 'package q; message P { optional string name = 1; optional int32 age = 2; }')).status).to.equal(201);
    await adminA.createCache('people', { 'local-cache': { encoding: { 'media-type': 'application/x-protostream' } } });
    await eventually(async () => (await adminB.get('/rest/v2/caches/people?action=size')).status === 200 && (await adminB.get('/rest/v2/schemas/q.proto')).status === 200,
      5_000, 'node B to have the cache and the schema');
    for (let i = 0; i < 30; i++) {
      const put = await adminA.put(`/rest/v2/caches/people/p${i}`, JSON.stringify({ _type: 'q.P', name: `n${i}`, age: i }), { 'Content-Type': 'application/json' });
      expect(put.status).to.equal(204);
    }
    const found = await adminB.get(`/rest/v2/caches/people?action=search&query=${encodeURIComponent('FROM q.P WHERE age >= 25 ORDER BY age')}`);
    expect(found.status).to.equal(200);
    const body = found.json<{ hit_count: number; hits: Array<{ hit: { name: string } }> }>();
    expect(body.hit_count).to.equal(5);
    expect(body.hits.map((h) => h.hit.name)).to.deep.equal(['n25', 'n26', 'n27', 'n28', 'n29']);
    const deleted = await adminB.request('DELETE', `/rest/v2/caches/people?action=deleteByQuery&query=${encodeURIComponent('DELETE FROM q.P WHERE age < 10')}`);
    expect(deleted.status).to.equal(200);
    expect((await adminA.get('/rest/v2/caches/people?action=size')).text).to.equal('20');
  });

  it('tells a listener on one node the writes made through the other, in the key\'s order', async () => {
    await adminA.createCache('watched');
    await eventually(async () => (await adminB.get('/rest/v2/caches/watched?action=size')).status === 200, 5_000, 'node B to have the cache');
    const sse = await SseReader.open(`${b.url}/rest/v2/caches/watched?action=listen`, basic('application'));
    try {
      // the listener follows the other nodes' events once its subscriptions are in place: probe until one is heard
      let heard = false;
      for (let i = 0; !heard && i < 100; i++) {
        await adminA.put(`/rest/v2/caches/watched/probe${i}`, 'v');
        heard = await sse.next(1, 100).then(() => true, () => false);
      }
      expect(heard).to.equal(true);
      await adminA.put('/rest/v2/caches/watched/k', 'v1');
      await adminA.put('/rest/v2/caches/watched/k', 'v2');
      await adminA.delete('/rest/v2/caches/watched/k');
      const ofK: string[] = [];
      while (ofK.length < 3) {
        const [e] = await sse.next(1, 5_000);
        if (e.data === 'k') ofK.push(e.event);
      }
      expect(ofK).to.deep.equal(['cache-entry-created', 'cache-entry-modified', 'cache-entry-removed']);
      // a write of the listener's own node is told once
      await adminB.put('/rest/v2/caches/watched/own', 'v');
      const own: string[] = [];
      for (;;) {
        const [e] = await sse.next(1, 5_000);
        if (e.data === 'own') own.push(e.event);
        if (e.data === 'own') break;
      }
      await adminA.put('/rest/v2/caches/watched/last', 'v');
      for (;;) {
        const [e] = await sse.next(1, 5_000);
        if (e.data === 'own') own.push(e.event);
        if (e.data === 'last') break;
      }
      expect(own).to.deep.equal(['cache-entry-created']);
    } finally {
      sse.close();
    }
  });

  describe('expiry events (docs/scale-out.md, "Entry events")', () => {
    /** A listener on `node`'s cache that hears the other nodes' events: writes through `other` probe until one is heard. */
    async function listening(node: TestServer, other: Client, cache: string): Promise<SseReader> {
      const sse = await SseReader.open(`${node.url}/rest/v2/caches/${cache}?action=listen`, basic('application'));
      for (let i = 0; i < 100; i++) {
        await other.put(`/rest/v2/caches/${cache}/probe-${node === a ? 'a' : 'b'}-${i}`, 'v');
        if (await sse.next(1, 100).then(() => true, () => false)) return sse;
      }
      sse.close();
      throw new Error(`the listener on ${node.url} heard none of the other node's writes`);
    }

    /** The events of `key` the listener hears, up to and with the first of the type `until`. */
    async function eventsOf(sse: SseReader, key: string, until: string): Promise<string[]> {
      const heard: string[] = [];
      for (;;) {
        const [e] = await sse.next(1, 10_000);
        if (e.data !== key) continue;
        heard.push(e.event);
        if (e.event === until) return heard;
      }
    }

    /** Listeners on both nodes of a new cache defined with `expiration` (created through A). */
    async function listenersOfNewCache(cache: string, expiration: Record<string, string>): Promise<SseReader[]> {
      await adminA.createCache(cache, { 'local-cache': { expiration } });
      await eventually(async () => (await adminB.get(`/rest/v2/caches/${cache}?action=size`)).status === 200, 5_000, 'node B to have the cache');
      return [await listening(b, adminA, cache), await listening(a, adminB, cache)];
    }

    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

    for (const [limit, header] of [['a lifespan', { timeToLiveSeconds: '1' }], ['a max-idle', { maxIdleTimeSeconds: '1' }]] as const) {
      it(`tells listeners on both nodes, once, of an entry with ${limit} that the reapers of both nodes find expired, before a following put of its key`, async () => {
        const cache = `reaped-${header.timeToLiveSeconds ? 'lifespan' : 'idle'}`;
        const listeners = await listenersOfNewCache(cache, { interval: '50' });
        try {
          await adminA.put(`/rest/v2/caches/${cache}/k`, 'v', header);
          for (const sse of listeners) expect(await eventsOf(sse, 'k', 'cache-entry-expired')).to.deep.equal(['cache-entry-created', 'cache-entry-expired']);
          await sleep(300); // several more passes of both reapers
          expect((await adminB.get(`/rest/v2/caches/${cache}/k`)).status).to.equal(404);
          await adminB.put(`/rest/v2/caches/${cache}/k`, 'again');
          for (const sse of listeners) expect(await eventsOf(sse, 'k', 'cache-entry-created')).to.deep.equal(['cache-entry-created']);
        } finally {
          for (const sse of listeners) sse.close();
        }
      });
    }

    it('tells listeners on both nodes, once, of an entry a read through one node finds expired (the reapers off), before a following put of its key', async () => {
      const listeners = await listenersOfNewCache('read-expired', { interval: '-1' });
      try {
        await adminA.put('/rest/v2/caches/read-expired/k', 'v', { timeToLiveSeconds: '1' });
        for (const sse of listeners) expect(await eventsOf(sse, 'k', 'cache-entry-created')).to.deep.equal(['cache-entry-created']);
        await sleep(1_100);
        expect((await adminA.get('/rest/v2/caches/read-expired/k')).status).to.equal(404);
        for (const sse of listeners) expect(await eventsOf(sse, 'k', 'cache-entry-expired')).to.deep.equal(['cache-entry-expired']);
        expect((await adminB.get('/rest/v2/caches/read-expired/k')).status).to.equal(404);
        await adminA.put('/rest/v2/caches/read-expired/k', 'again');
        for (const sse of listeners) expect(await eventsOf(sse, 'k', 'cache-entry-created')).to.deep.equal(['cache-entry-created']);
      } finally {
        for (const sse of listeners) sse.close();
      }
    });
  });

  it('answers 503 with Retry-After while the master of a key does not answer, and recovers by itself', async () => {
    await adminA.createCache('paused');
    await eventually(async () => (await adminB.get('/rest/v2/caches/paused?action=size')).status === 200, 5_000, 'node B to have the cache');
    await adminA.put('/rest/v2/caches/paused/k', 'v', { 'Content-Type': 'text/plain' });
    const cacheId = `default:${a.running.services.manager.find('paused')!.cache.id}`;
    const slot = calculateSlot(segmentKeysOf(cacheId)[segmentOf(Buffer.from('k'))].keys);
    const master = masterOfSlot(clients.client, slot);
    const pid = runningPid(redis.cluster.dir, Number(master.split(':')[1]))!;
    process.kill(pid, 'SIGSTOP');
    try {
      const reply = await adminB.get('/rest/v2/caches/paused/k');
      expect(reply.status).to.equal(503);
      expect(reply.headers.get('retry-after')).to.equal('1');
      expect(reply.text).to.match(/^The Redis Cluster could not serve the request \(.+\); retry later$/);
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    await eventually(async () => (await adminB.get('/rest/v2/caches/paused/k')).status === 200, 20_000, 'the key to be served again');
  });

  it('keeps serving reads of a master while a write through the same node waits for its replica (--durability power)', async () => {
    await adminA.createCache('waits');
    await adminA.put('/rest/v2/caches/waits/k', 'v1', { 'Content-Type': 'text/plain' });
    const cacheId = `default:${a.running.services.manager.find('waits')!.cache.id}`;
    const master = masterOfSlot(clients.client, calculateSlot(segmentKeysOf(cacheId)[segmentOf(Buffer.from('k'))].keys));
    const masterNode = clients.client.nodes('master').find((n) => `${n.options.host}:${n.options.port}` === master)!;
    const blocked = async () => Number(/blocked_clients:(\d+)/.exec(await masterNode.info('clients'))![1]);
    const replicaPorts = [...(await masterNode.info('replication')).matchAll(/^slave\d+:.*port=(\d+)/gm)].map((m) => Number(m[1]));
    const pids = replicaPorts.map((port) => runningPid(redis.cluster.dir, port)!);
    expect(pids).to.have.length.above(0);
    const before = await blocked(); // the records' followers may block on this master
    for (const pid of pids) process.kill(pid, 'SIGSTOP');
    try {
      const put = adminA.put('/rest/v2/caches/waits/k', 'v2', { 'Content-Type': 'text/plain' });
      await eventually(async () => await blocked() > before, 10_000, 'the write to wait for a replica');
      const read = await adminA.get('/rest/v2/caches/waits/k');
      expect(await blocked()).to.be.above(before, 'the read was answered only once the write stopped waiting');
      expect(read.status).to.equal(200);
      expect(read.text).to.equal('v2'); // on the master, not yet on a replica
      expect((await put).status).to.equal(503);
    } finally {
      for (const pid of pids) process.kill(pid, 'SIGCONT');
    }
    await eventually(async () => (await adminA.put('/rest/v2/caches/waits/k', 'v3', { 'Content-Type': 'text/plain' })).status === 204, 20_000, 'writes to be acknowledged again');
  });

  it('leaves no connection open after a start that fails on a declared resource', async () => {
    const connected = async () => {
      let n = 0;
      for (const node of clients.client.nodes('all')) n += Number(/connected_clients:(\d+)/.exec(await node.info('clients'))![1]);
      return n;
    };
    const before = await connected();
    const dir = tempDir('grid-decl-');
    const file = join(dir, 'infinispan.xml');
    writeFileSync(file, '<infinispan><cache-container><local-cache name="c" configuration="no-such-template"/></cache-container></infinispan>');
    const failed = await startTestServer({ ...readConfigFiles([file]), engine: redisEngine(redis) }).then(() => undefined, (err: Error) => err);
    expect(failed).to.be.instanceOf(ConfigError);
    await eventually(async () => (await connected()) <= before, 5_000, 'the failed start\'s connections to close');
  });

  it('names the Redis nodes that own a key in ?extended and its distribution, and splits a cache\'s entries over the masters', async () => {
    await adminA.createCache('owned');
    const keys = Array.from({ length: 60 }, (_, i) => `k${i}`);
    for (const k of keys) await adminA.put(`/rest/v2/caches/owned/${k}`, 'v', { 'Content-Type': 'text/plain' });
    const segments = segmentKeysOf(`default:${a.running.services.manager.find('owned')!.cache.id}`);
    const slotOf = (k: string) => calculateSlot(segments[segmentOf(Buffer.from(k))].keys);
    for (const k of ['k1', 'k2', 'absent']) {
      const shard = await shardOfSlot(clients.client, slotOf(k));
      if (k !== 'absent') {
        const got = await adminB.get(`/rest/v2/caches/owned/${k}?extended`);
        expect(got.status).to.equal(200);
        expect(got.headers.get('cluster-primary-owner')).to.equal(shard.master);
        expect(got.headers.get('cluster-backup-owners')).to.equal(shard.replicas.join(' '));
        expect(got.headers.get('cluster-node-name')).to.equal(b.running.services.node.name);
        expect(got.headers.get('cluster-server-address')).to.equal(`[${b.running.services.node.address}]`);
      }
      const distribution = await adminB.get(`/rest/v2/caches/owned/${k}?action=distribution`);
      expect(distribution.status).to.equal(200);
      expect(distribution.json()).to.deep.equal({
        contains_key: k !== 'absent',
        owners: [{ node_name: shard.master, node_addresses: [shard.master], primary: k !== 'absent' }, ...shard.replicas.map((r) => ({ node_name: r, node_addresses: [r], primary: false }))],
      });
    }
    const rows = (await adminA.get('/rest/v2/caches/owned?action=distribution')).json<Array<{ node_name: string; node_addresses: string[]; total_entries: number; memory_entries: number }>>();
    const expected = new Map<string, number>();
    for (const k of keys) {
      const { master } = await shardOfSlot(clients.client, slotOf(k));
      expected.set(master, (expected.get(master) ?? 0) + 1);
    }
    expect(rows).to.have.length(3);
    for (const row of rows) {
      expect(row.total_entries, row.node_name).to.equal(expected.get(row.node_name) ?? 0);
      expect(row.memory_entries).to.equal(row.total_entries);
      expect(row.node_addresses).to.deep.equal([row.node_name]);
    }
    expect(rows.reduce((sum, r) => sum + r.total_entries, 0)).to.equal(keys.length);
    expect((await adminB.get('/rest/v2/caches/owned?action=health')).text).to.equal('HEALTHY');
  });

  it('serves a backup and a restore on either node, their status the same on both (test/http/redis-backups.http.test.ts has the rest)', async () => {
    expect((await adminA.post('/rest/v2/container/backups/b1', '{}', { 'Content-Type': 'application/json' })).status).to.equal(202);
    await eventually(async () => (await adminB.head('/rest/v2/container/backups/b1')).status === 200, 10_000, 'the backup to be done, seen from node B');
    const restore = await adminB.post('/rest/v2/container/restores/r1', '{"location":"/nowhere.zip"}', { 'Content-Type': 'application/json' });
    expect([restore.status, restore.text]).to.deep.equal([400, "'/nowhere.zip' must be a regular file in the data directory or a configured backup root"]);
    expect((await adminA.head('/rest/v2/container/restores/r1')).status).to.equal(404);
    // the permission is checked first, as for every route
    expect((await a.as('observer').post('/rest/v2/container/backups/b2', '{}', { 'Content-Type': 'application/json' })).status).to.equal(403);
  });

  it('takes users from `grid user` on a node\'s data directory (the node recorded its engine there), and every node serves them', async () => {
    const made = await grid(['user', 'create', 'cli-user', '-p', 'cli-secret', '-g', 'observer', '--data', a.dataDir]);
    expect(made.code, made.stderr).to.equal(0);
    const login = { Authorization: `Basic ${Buffer.from('cli-user:cli-secret').toString('base64')}` };
    for (const node of [a, b]) {
      await eventually(async () => (await fetch(`${node.url}/rest/v2/caches`, { headers: login })).status === 200, 5_000, 'the user to log in');
    }
    expect((await grid(['user', 'list', '--data', b.dataDir])).stdout).to.match(/^cli-user\tobserver$/m);
    expect((await grid(['user', 'remove', 'cli-user', '--data', b.dataDir])).code).to.equal(0);
    await eventually(async () => (await fetch(`${a.url}/rest/v2/caches`, { headers: login })).status === 401, 5_000, 'the user to be gone');
    // with the engine given, a directory that is no node's (no key to seal Digest credentials) is refused
    const elsewhere = await grid(['user', 'list', '--data', tempDir(), '--engine', 'redis', '--redis', redis.seeds.split(',')[0], '--redis-password-file', redis.cluster.passwordFile]);
    expect(elsewhere.code).to.equal(2);
    expect(elsewhere.stderr).to.include('holds no credentials.key: name a node\'s data directory with --data');
  });
});

import { expect } from 'chai';
import { rmSync } from 'node:fs';
import type { Cluster } from 'ioredis';
import { CacheExistsError, NotOnEngineError } from '../../../src/errors';
import { recordKeysOf, type RemoteChange } from '../../../src/store/redis/replicated-records';
import { RedisStore } from '../../../src/store/redis/redis-store';
import type { CacheRecord } from '../../../src/store/store';
import { eventually } from '../../support/poll';
import { useClusterClients } from '../../support/redis-client';
import { throwawayCluster } from '../../support/redis-cluster';
import { tempDir } from '../../support/server';

// The container's records on a real 3+3 Redis Cluster, as two grid nodes see them: each node
// (here, a store over its own cluster client) keeps a copy current by following the change stream
// (docs/scale-out.md, "Records").

let containers = 0;

describe('RedisStore: a container\'s records shared by the nodes of a cluster', function () {
  this.timeout(60_000);
  const redis = throwawayCluster();
  const clients = useClusterClients(redis);
  const opened: RedisStore[] = [];
  const dirs: string[] = [];

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((s) => s.close()));
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  const open = async (client: Cluster, container: string) => {
    const dir = tempDir('grid-redis-store-');
    dirs.push(dir);
    const store = await RedisStore.open(client, container, dir);
    opened.push(store);
    return store;
  };
  const twoNodes = async () => {
    const container = `c${++containers}`;
    return { container, a: await open(clients.client, container), b: await open(clients.other, container) };
  };
  const cache = (id: number, name: string): CacheRecord => ({ id, name, config: `{"local-cache":{"statistics":${id % 2 === 0}}}`, createdAt: 1 });

  it('reads its own write once the commit resolves, and the other node hears it and reads it soon after', async () => {
    const { a, b } = await twoNodes();
    const heard: RemoteChange[] = [];
    b.onRemoteChange((c) => heard.push(c));
    const schema = { name: 'a.proto', content: 'message A { optional string s = 1; }', createdAt: 5, updatedAt: 6 };
    await a.write({ kind: 'schema.upsert', record: schema }).promise;
    expect(a.schemas.list()).to.deep.equal([schema]);
    await eventually(() => b.schemas.list().length === 1, 5_000, 'node B to have the schema');
    expect(b.schemas.list()).to.deep.equal([schema]);
    expect(heard).to.deep.equal([{ mutations: [{ table: 'schemas', field: 'a.proto', value: JSON.stringify(schema) }], events: [] }]);

    await b.write({ kind: 'schema.delete', name: 'a.proto' }).promise;
    expect(b.schemas.list()).to.deep.equal([]);
    await eventually(() => a.schemas.list().length === 0, 5_000, 'node A to lose the schema');
  });

  it('writes every kind of record and reads each back on the other node, counters with 64-bit values', async () => {
    const { a, b } = await twoNodes();
    const counter = { name: 'n', config: '{"strong-counter":{}}', value: 2n ** 63n - 1n, updatedAt: 3, createdAt: 2 };
    const writes = [
      a.write({ kind: 'template.upsert', record: { name: 't', config: '{"local-cache":{}}', createdAt: 1 } }),
      a.write({ kind: 'counter.insert', record: counter }),
      a.write({ kind: 'role.upsert', record: { name: 'r', permissions: ['READ'], description: 'd' } }),
      a.write({ kind: 'principal.setRoles', record: { principal: 'p', roles: ['r'] } }),
      a.write({ kind: 'logger.upsert', record: { name: 'org.x', level: 'DEBUG' } }),
      a.write({ kind: 'task.upsert', record: { name: 'job', script: '1', createdAt: 1, updatedAt: 1 } }),
      a.write({ kind: 'xsite.upsert', record: { cache: 'c', site: 's', status: 'offline', mode: 'MANUAL', afterFailures: 0, minWait: 0 } }),
    ];
    await Promise.all(writes.map((w) => w.promise));
    expect(new Set(writes)).to.have.length(1); // one turn, one script
    await eventually(() => b.xsite.list().length === 1, 5_000, 'node B to have every record');
    expect(b.definitions.listTemplates().map((t) => t.name)).to.deep.equal(['t']);
    expect(b.counters.list()).to.deep.equal([counter]);
    expect(b.security.listRoles()).to.deep.equal([{ name: 'r', permissions: ['READ'], description: 'd' }]);
    expect(b.security.listPrincipalRoles()).to.deep.equal([{ principal: 'p', roles: ['r'] }]);
    expect(b.loggers.list()).to.deep.equal([{ name: 'org.x', level: 'DEBUG' }]);
    expect(b.tasks.list().map((t) => t.name)).to.deep.equal(['job']);

    await a.write({ kind: 'counter.setValue', name: 'n', value: -(2n ** 63n), updatedAt: 9 }).promise;
    await eventually(() => b.counters.list()[0].value === -(2n ** 63n), 5_000, 'node B to have the new value');
  });

  it('lets exactly one node create a cache of a name, the other hearing that it exists', async () => {
    const { a, b } = await twoNodes();
    for (let round = 0; round < 20; round++) {
      const name = `race-${round}`;
      const event = (store: RedisStore) => store.appendConfigEvent([{ kind: 'cache.insert', record: cache(round, name) }],
        { type: 'create-cache', name, volatile: false, createdAt: 1, config: '{}' }, 100);
      const outcomes = await Promise.allSettled([event(a), event(b)]);
      expect(outcomes.filter((o) => o.status === 'fulfilled')).to.have.length(1);
      const loser = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
      expect(loser.reason).to.be.instanceOf(CacheExistsError);
    }
    await eventually(() => a.definitions.listCaches().length === 20 && b.definitions.listCaches().length === 20, 5_000, 'both nodes to have 20 caches');
  });

  it('gives each node cache ids of its own', async () => {
    const { a, b } = await twoNodes();
    const [ma, mb] = [a.definitions.maxCacheId(), b.definitions.maxCacheId()];
    expect(Math.abs(ma - mb)).to.be.at.least(1_000_000);
  });

  it('numbers configuration events one by one across nodes, pages them on either node, and says exactly when some left the log', async () => {
    const { a, b } = await twoNodes();
    const ids: string[] = [];
    for (let i = 0; i < 250; i++) {
      ids.push(await a.appendConfigEvent([], { type: 'create-template', name: `t${i}`, volatile: false, createdAt: i, config: `{"n":${i}}` }, 10));
    }
    // numbers, as on SQLite: one more each time, whichever node writes
    ids.push(await b.appendConfigEvent([], { type: 'create-template', name: 't250', volatile: false, createdAt: 250, config: '{"n":250}' }, 10));
    expect(ids.map(Number)).to.deep.equal(ids.map((_, i) => Number(ids[0]) + i));
    await eventually(() => a.configEvents.newest() === ids.at(-1), 5_000, 'node A to see the newest event');
    await eventually(() => b.configEvents.newest() === ids.at(-1), 5_000, 'node B to see the newest event');
    const page = await b.configEvents.page(ids[246], ids[249], 64, 1_000_000);
    expect(page?.map((r) => r.name)).to.deep.equal(['t247', 't248', 't249']);
    expect(page?.[0]).to.deep.include({ id: ids[247], type: 'create-template', volatile: false, createdAt: 247, config: '{"n":247}' });
    // the log keeps exactly the newest 10: the one before them is the oldest id still resumable
    expect((await a.configEvents.page(ids[240], ids[250], 64, 1_000_000))?.map((r) => r.name)).to.deep.equal(['t241', 't242', 't243', 't244', 't245', 't246', 't247', 't248', 't249', 't250']);
    expect(await b.configEvents.page(ids[239], ids[250], 64, 1_000_000)).to.equal(undefined);
    expect(await b.configEvents.page('0', ids[250], 64, 100)).to.equal(undefined);
  });

  it('writes users to its copy at once and to the cluster after', async () => {
    const { a, b } = await twoNodes();
    const user = { name: 'u', passwordHash: 'h', digestMd5: '', digestSha256: '', roles: ['admin'], createdAt: 1, updatedAt: 1 };
    a.users.upsert(user);
    expect(a.users.find('u')).to.deep.equal(user);
    await eventually(() => b.users.count() === 1, 5_000, 'node B to have the user');
    a.users.replaceDigests([{ name: 'u', digestMd5: 'm', digestSha256: 's' }]);
    await eventually(() => b.users.find('u')?.digestMd5 === 'm', 5_000, 'node B to have the digest');
    expect(a.users.delete('u')).to.equal(true);
    await eventually(() => b.users.count() === 0, 5_000, 'node B to lose the user');
  });

  it('reads every table again when it missed a change, and so ends with what the cluster holds', async () => {
    const { container, a, b } = await twoNodes();
    const heard: RemoteChange[] = [];
    b.onRemoteChange((c) => heard.push(c));
    // a change that left the stream before B read it: the sequence jumps
    await clients.client.hset(recordKeysOf(container).tables[3], 'lost.proto', JSON.stringify({ name: 'lost.proto', content: '', createdAt: 1, updatedAt: 1 }));
    await clients.client.hincrby(recordKeysOf(container).meta, 'seq', 5);
    await a.write({ kind: 'schema.upsert', record: { name: 'seen.proto', content: '', createdAt: 1, updatedAt: 1 } }).promise;
    await eventually(() => b.schemas.list().length === 2, 5_000, 'node B to read the tables again');
    expect(heard.flatMap((c) => c.mutations.map((m) => m.field)).sort()).to.deep.equal(['lost.proto', 'seen.proto']);
  });

  it('refuses what this engine does not keep through its store', async () => {
    const { a } = await twoNodes();
    expect(() => a.write({ kind: 'index.clear', cacheId: 1 })).to.throw(/does not write index\.clear/);
    expect(() => a.openSnapshot()).to.throw(NotOnEngineError, /Backups is not implemented on the redis engine yet/);
  });
});

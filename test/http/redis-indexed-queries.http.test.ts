import { expect } from 'chai';
import type { Client } from '../support/client';
import { eventually } from '../support/poll';
import { redisEngine, startTwoNodes, throwawayCluster } from '../support/redis-cluster';
import { putAllJson, putJson, registerSchema, searchError, searchOk } from '../support/search';
import { startTestServer, type TestServer } from '../support/server';

// Indexed caches on two grid nodes over one real 3+3 Redis Cluster (docs/scale-out.md, "Queries"):
// each node keeps its own index, and a query on one node sees every write acknowledged through
// the other before the query began — black-box over HTTP, no waiting between the write and the query.

const BOOK_PROTO = `package ix;
/* @Indexed */
message Book {
  /* @Text */
  optional string title = 1;
  /* @Basic(sortable = true) */
  optional int32 year = 2;
  /* @Keyword(sortable = true) */
  optional string tag = 3;
}
`;

const indexed = (extra: Record<string, unknown> = {}) => ({
  'distributed-cache': { encoding: { 'media-type': 'application/x-protostream' }, indexing: { enabled: true, 'indexed-entities': ['ix.Book'], ...extra } },
});
const book = (title: string, year: number, tag = 'novel') => ({ _type: 'ix.Book', title, year, tag });
const titles = (body: { hits: Array<{ hit: Record<string, unknown> }> }) => body.hits.map((h) => h.hit.title);

describe('indexed caches on two grid nodes over one Redis Cluster', function () {
  this.timeout(120_000);
  const redis = throwawayCluster();
  let a: TestServer;
  let b: TestServer;
  let adminA: Client;
  let adminB: Client;

  before(async () => {
    ({ a, b, adminA, adminB } = await startTwoNodes(redis));
    await registerSchema(adminA, 'ix-book.proto', BOOK_PROTO);
    await eventually(async () => (await adminB.get('/rest/v2/schemas/ix-book.proto')).status === 200, 5_000, 'node B to have the schema');
  });
  after(async () => {
    await a?.close();
    await b?.close();
  });

  const createOnA = async (name: string, definition: unknown = indexed()) => {
    await adminA.createCache(name, definition);
    await eventually(async () => (await adminB.get(`/rest/v2/caches/${name}?action=size`)).status === 200, 5_000, 'node B to have the cache');
  };

  it('finds on one node, at once, what the other wrote: a full-text match, a sort, a count', async () => {
    await createOnA('books');
    // node B's index was built before the writes: each query of B catches up first
    expect((await searchOk(adminB, 'books', 'FROM ix.Book')).hit_count).to.equal(0);
    await putAllJson(adminA, 'books', [
      ['b1', book('The Sea and the Sky', 1990)], ['b2', book('A Sea of Words', 2005)], ['b3', book('Mountains', 1970)], ['b4', book('Deep Sea', 1950, 'poem')],
    ]);
    const sea = await searchOk(adminB, 'books', "FROM ix.Book b WHERE b.title : 'sea' ORDER BY b.year");
    expect(titles(sea)).to.deep.equal(['Deep Sea', 'The Sea and the Sky', 'A Sea of Words']);
    expect(sea.hit_count).to.equal(3);
    const poems = await searchOk(adminB, 'books', "FROM ix.Book WHERE tag = 'poem'");
    expect(titles(poems)).to.deep.equal(['Deep Sea']);
    const stats = (await adminB.get('/rest/v2/caches/books/search/stats')).json<{ index: { types: Record<string, { count: number }> } }>();
    expect(stats.index.types['ix.Book'].count).to.equal(4);
    // a write on B, at once on A
    await putJson(adminB, 'books', 'b5', book('Sea Change', 2020));
    expect(titles(await searchOk(adminA, 'books', "FROM ix.Book b WHERE b.title : 'sea' ORDER BY b.year DESC", { max_results: 1 }))).to.deep.equal(['Sea Change']);
  });

  it('loses on one node what the other removed, replaced or cleared', async () => {
    await createOnA('shelf');
    await putAllJson(adminA, 'shelf', [['s1', book('Red', 2001)], ['s2', book('Blue', 2002)], ['s3', book('Green', 2003)]]);
    expect((await searchOk(adminA, 'shelf', 'FROM ix.Book')).hit_count).to.equal(3);
    expect((await adminB.delete('/rest/v2/caches/shelf/s1')).status).to.equal(204);
    await putJson(adminB, 'shelf', 's2', book('Blue again', 2012));
    const left = await searchOk(adminA, 'shelf', 'FROM ix.Book ORDER BY year');
    expect(titles(left)).to.deep.equal(['Green', 'Blue again']);
    expect((await searchOk(adminA, 'shelf', 'FROM ix.Book WHERE year = 2002')).hit_count).to.equal(0);

    expect((await adminB.post('/rest/v2/caches/shelf?action=clear')).status).to.equal(204);
    expect((await searchOk(adminA, 'shelf', 'FROM ix.Book')).hit_count).to.equal(0);
    await putJson(adminB, 'shelf', 's4', book('After', 2024));
    expect(titles(await searchOk(adminA, 'shelf', 'FROM ix.Book'))).to.deep.equal(['After']);
  });

  it('reindexes and clears the index of every node, asked on either (indexing-mode manual)', async () => {
    await createOnA('manual', indexed({ 'indexing-mode': 'MANUAL' }));
    await putAllJson(adminA, 'manual', Array.from({ length: 20 }, (_, i): [string, unknown] => [`m${i}`, book(`Manual ${i}`, 2000 + i)]));
    const count = async (c: Client) => (await searchOk(c, 'manual', 'FROM ix.Book', { max_results: 0 })).hit_count;
    expect([await count(adminA), await count(adminB)]).to.deep.equal([0, 0]);
    expect((await adminA.post('/rest/v2/caches/manual/search/indexes?action=reindex')).status).to.equal(204);
    expect([await count(adminA), await count(adminB)]).to.deep.equal([20, 20]);
    expect((await adminB.post('/rest/v2/caches/manual/search/indexes?action=clear')).status).to.equal(204);
    expect([await count(adminA), await count(adminB)]).to.deep.equal([0, 0]);
    expect((await adminB.get('/rest/v2/caches/manual/search/stats')).json<{ index: { types: Record<string, { count: number }> } }>().index.types['ix.Book'].count).to.equal(0);
  });

  it('never answers an expired entry: neither among the hits nor in the count', async () => {
    await createOnA('mortal');
    await putJson(adminA, 'mortal', 'short', book('Brief Sea', 1999), { timeToLiveSeconds: '1' });
    await putJson(adminA, 'mortal', 'long', book('Long Sea', 1998));
    expect((await searchOk(adminB, 'mortal', "FROM ix.Book WHERE title : 'sea'")).hit_count).to.equal(2);
    await new Promise((resolve) => setTimeout(resolve, 1_100)); // Redis expires it by itself: no feed entry says so
    for (const client of [adminA, adminB]) {
      const found = await searchOk(client, 'mortal', "FROM ix.Book WHERE title : 'sea'");
      expect([found.hit_count, titles(found)]).to.deep.equal([1, ['Long Sea']]);
    }
  });

  it('rebuilds a node\'s index that fell further behind than the feed keeps, and builds one on a node started later', async () => {
    await createOnA('busy');
    await createOnA('quiet');
    await putJson(adminA, 'quiet', 'q1', book('Quiet', 1900));
    // 1,200 writes of one key: one segment's feed keeps about 1,000, so B's place in it is trimmed
    // away (B has not queried the cache: its index does not catch up in the background meanwhile)
    await putAllJson(adminA, 'busy', Array.from({ length: 1_200 }, (_, i): [string, unknown] => ['hot', book(`Version ${i}`, i)]), 8);
    await putAllJson(adminA, 'busy', Array.from({ length: 50 }, (_, i): [string, unknown] => [`k${i}`, book(`Cold ${i}`, 5000 + i)]));
    await putJson(adminA, 'busy', 'hot', book('Last version', 9999));
    const onB = await searchOk(adminB, 'busy', 'FROM ix.Book ORDER BY year DESC', { max_results: 2 });
    expect([onB.hit_count, titles(onB)]).to.deep.equal([51, ['Last version', 'Cold 49']]);

    const c = await startTestServer({ engine: redisEngine(redis) });
    try {
      const adminC = c.as('admin');
      const onC = await searchOk(adminC, 'busy', 'FROM ix.Book ORDER BY year DESC', { max_results: 2 });
      expect([onC.hit_count, titles(onC)]).to.deep.equal([51, ['Last version', 'Cold 49']]);
      expect(titles(await searchOk(adminC, 'quiet', "FROM ix.Book WHERE title : 'quiet'"))).to.deep.equal(['Quiet']);
    } finally {
      await c.close();
    }
  });

  it('answers a malformed query, and who may search, as on one node', async () => {
    await createOnA('strict');
    await putJson(adminA, 'strict', 'k', book('Strict', 1));
    expect((await searchError(adminB, 'strict', "FROM ix.Book WHERE title : 'a' AND")).message).to.equal('Error executing search');
    const query = `/rest/v2/caches/strict?action=search&query=${encodeURIComponent('FROM ix.Book')}`;
    expect((await b.as('observer').get(query)).json<{ hit_count: number }>().hit_count).to.equal(1);
    expect((await b.as('monitor').get(query)).status).to.equal(403);
  });
});

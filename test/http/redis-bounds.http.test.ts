import { expect } from 'chai';
import type { Client } from '../support/client';
import { eventually } from '../support/poll';
import { startTwoNodes, throwawayCluster } from '../support/redis-cluster';
import type { TestServer } from '../support/server';

// memory.max-count and memory.max-size on two grid nodes over one real 3+3 Redis Cluster
// (docs/scale-out.md, "Bounded caches"), black-box over HTTP.

const JSON_TYPE = { 'Content-Type': 'application/json' };
const TEXT = { 'Content-Type': 'text/plain' };

describe('bounded caches on two grid nodes over one Redis Cluster', function () {
  this.timeout(90_000);
  const redis = throwawayCluster();
  let a: TestServer;
  let b: TestServer;
  let adminA: Client;
  let adminB: Client;

  before(async () => ({ a, b, adminA, adminB } = await startTwoNodes(redis)));
  after(async () => {
    await a?.close();
    await b?.close();
  });

  /** Creates the cache on A and waits until B serves it. */
  async function create(name: string, config: unknown): Promise<void> {
    const r = await adminA.post(`/rest/v2/caches/${name}`, JSON.stringify(config), JSON_TYPE);
    expect(r.status, r.text).to.equal(200);
    await eventually(async () => (await adminB.get(`/rest/v2/caches/${name}?action=size`)).status === 200, 5_000, `node B to have ${name}`);
  }

  const size = async (node: Client, name: string) => Number((await node.get(`/rest/v2/caches/${name}?action=size`)).text);
  const keys = async (node: Client, name: string) => (await node.get(`/rest/v2/caches/${name}?action=keys`)).json<string[]>().sort();

  it('never holds more than max-count while eight writers on both nodes put new keys', async () => {
    await create('orders', { 'distributed-cache': { mode: 'SYNC', memory: { 'max-count': '5', 'when-full': 'REMOVE' } } });
    const writers = [a.as('application'), b.as('application')];
    let most = 0;
    await Promise.all(Array.from({ length: 8 }, async (_, w) => {
      const node = writers[w % 2];
      for (let i = 0; i < 25; i++) {
        expect((await node.put(`/rest/v2/caches/orders/w${w}-${i}`, `value ${i}`, TEXT)).status).to.equal(204);
        most = Math.max(most, await size(node, 'orders'));
      }
    }));
    expect(most).to.equal(5);
    expect(await size(adminA, 'orders')).to.equal(5);
    expect(await keys(adminB, 'orders')).to.have.length(5);
  });

  it('evicts the least recently used entry, a read on the other node making an entry recent', async () => {
    await create('recent', { 'local-cache': { memory: { 'max-count': '3' } } });
    for (const k of ['a', 'b', 'c']) await adminA.put(`/rest/v2/caches/recent/${k}`, k, TEXT);
    expect((await adminB.get('/rest/v2/caches/recent/a')).status).to.equal(200);
    expect((await adminB.head('/rest/v2/caches/recent/b')).status).to.equal(200); // a HEAD reads too
    expect((await adminA.put('/rest/v2/caches/recent/d', 'd', TEXT)).status).to.equal(204);
    expect((await adminA.get('/rest/v2/caches/recent/c')).status).to.equal(404);
    expect(await keys(adminB, 'recent')).to.deep.equal(['a', 'b', 'd']);
  });

  it('evicts by max-size in the local engine\'s bytes, an entry heavier than max-size at once, keeping the others', async () => {
    // 1000 bytes: entries of key + value + 64 bytes; four of 1 + 200 + 64 = 265 do not fit, three do
    await create('sized', { 'local-cache': { memory: { 'max-size': '1000', 'when-full': 'REMOVE' } } });
    for (let i = 0; i < 4; i++) await (i % 2 ? adminA : adminB).put(`/rest/v2/caches/sized/${i}`, 'x'.repeat(200), TEXT);
    expect(await keys(adminA, 'sized')).to.deep.equal(['1', '2', '3']);
    expect((await adminB.put('/rest/v2/caches/sized/big', 'x'.repeat(5000), TEXT)).status).to.equal(204);
    expect((await adminA.get('/rest/v2/caches/sized/big')).status).to.equal(404);
    expect(await keys(adminB, 'sized')).to.deep.equal(['1', '2', '3']);
  });

  it('refuses a write past the bound with when-full EXCEPTION as the local engine does, writing nothing', async () => {
    await create('strict', { 'local-cache': { memory: { 'max-count': '2', 'when-full': 'EXCEPTION' } } });
    expect((await adminA.put('/rest/v2/caches/strict/a', '1', TEXT)).status).to.equal(204);
    expect((await adminB.put('/rest/v2/caches/strict/b', '2', TEXT)).status).to.equal(204);
    const refused = await a.as('application').put('/rest/v2/caches/strict/c', '3', TEXT);
    expect([refused.status, refused.text]).to.deep.equal([500, 'ISPN000514: Container eviction limit 2 reached, write operation(s) is blocked']);
    expect((await adminB.post('/rest/v2/caches/strict/c', '3', TEXT)).status).to.equal(500);
    expect((await adminB.put('/rest/v2/caches/strict/a', 'replaced', TEXT)).status).to.equal(204);
    expect(await keys(adminA, 'strict')).to.deep.equal(['a', 'b']);
    expect((await adminA.get('/rest/v2/caches/strict/a')).text).to.equal('replaced');

    // persistent too: the bound refuses what the cache would take, store or not
    await create('strict-stored', { 'local-cache': { memory: { 'max-count': '1', 'when-full': 'EXCEPTION' }, persistence: { 'file-store': {} } } });
    expect((await adminA.put('/rest/v2/caches/strict-stored/a', '1', TEXT)).status).to.equal(204);
    expect((await adminB.put('/rest/v2/caches/strict-stored/b', '2', TEXT)).status).to.equal(500);
    expect(await keys(adminA, 'strict-stored')).to.deep.equal(['a']);
  });

  it('takes a new number through an update (the next write evicts down to it), and refuses to add or remove the bound naming the engine', async () => {
    await create('changing', { 'local-cache': { memory: { 'max-count': '10' } } });
    for (let i = 0; i < 10; i++) await adminA.put(`/rest/v2/caches/changing/k${i}`, 'v', TEXT);
    const lowered = await adminB.put('/rest/v2/caches/changing', JSON.stringify({ 'local-cache': { memory: { 'max-count': '3' } } }), JSON_TYPE);
    expect(lowered.status, lowered.text).to.equal(200);
    await eventually(async () => (await adminA.get('/rest/v2/caches/changing?action=config')).text.includes('"3"'), 5_000, 'node A to take the update');
    expect((await adminA.put('/rest/v2/caches/changing/k10', 'v', TEXT)).status).to.equal(204);
    expect(await keys(adminB, 'changing')).to.deep.equal(['k10', 'k8', 'k9']);
    expect((await adminA.post('/rest/v2/caches/changing?action=set-mutable-attribute&attribute-name=memory.max-count&attribute-value=4')).status).to.equal(200);

    const removed = await adminA.put('/rest/v2/caches/changing', JSON.stringify({ 'local-cache': {} }), JSON_TYPE);
    expect(removed.status).to.equal(400);
    expect(removed.text).to.include('memory.max-count and memory.max-size cannot be removed from an existing cache on the redis engine');
    const unset = await adminB.post('/rest/v2/caches/changing?action=set-mutable-attribute&attribute-name=memory.max-count&attribute-value=-1');
    expect([unset.status, unset.text]).to.deep.equal([400, removed.text]);
    await create('unbounded', { 'local-cache': {} });
    const added = await adminB.put('/rest/v2/caches/unbounded', JSON.stringify({ 'local-cache': { memory: { 'max-count': '5' } } }), JSON_TYPE);
    expect(added.status).to.equal(400);
    expect(added.text).to.include('cannot be added to an existing cache on the redis engine');
    expect((await adminA.get('/rest/v2/caches/unbounded?action=config')).text).to.not.include('max-count');
    // the bounded cache keeps what it had: the refused update changed nothing
    expect(await keys(adminA, 'changing')).to.deep.equal(['k10', 'k8', 'k9']);
  });

  it('refuses an indexed cache that keeps a bound, with a 400 that names the engine (a bounded cache has no feed for the indexes)', async () => {
    const both = await adminA.post('/rest/v2/caches/indexed-bounded', JSON.stringify({ 'local-cache': { memory: { 'max-count': '5' }, indexing: { 'indexed-entities': ['a.A'] } } }), JSON_TYPE);
    expect([both.status, both.text]).to.deep.equal([400, 'indexing together with memory.max-count or memory.max-size is not supported on the redis engine yet: '
      + 'remove one of them from the definition (docs/scale-out.md)']);
    expect((await adminB.head('/rest/v2/caches/indexed-bounded')).status).to.equal(404);
  });

  it('serves a persistent bounded cache whole: Redis is its store, every entry reads back', async () => {
    await create('stored', { 'local-cache': { memory: { 'max-count': '2' }, persistence: { 'file-store': {} } } });
    for (let i = 0; i < 10; i++) await (i % 2 ? adminA : adminB).put(`/rest/v2/caches/stored/k${i}`, `v${i}`, TEXT);
    for (let i = 0; i < 10; i++) expect((await adminA.get(`/rest/v2/caches/stored/k${i}`)).text).to.equal(`v${i}`);
    expect(await size(adminB, 'stored')).to.equal(10);
  });

  it('lets only ADMIN change the bound', async () => {
    await create('guarded', { 'local-cache': { memory: { 'max-count': '5' } } });
    const r = await b.as('application').post('/rest/v2/caches/guarded?action=set-mutable-attribute&attribute-name=memory.max-count&attribute-value=1');
    expect(r.status).to.equal(403);
  });
});

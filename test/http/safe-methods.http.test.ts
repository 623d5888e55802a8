import { expect } from 'chai';
import { allRoutes } from '../../src/http/app';
import type { Client } from '../support/client';
import { fingerprint } from '../support/data-dir';
import { until } from '../support/poll';
import { PERSON, PERSON_PROTO, people } from '../support/query-fixtures';
import { putJson, registerSchema } from '../support/search';
import { useServer } from '../support/server';
import { TWO_NODES } from '../support/two-node-engine';

// No GET or HEAD changes state (docs/security.md, What a client can make the server do): every GET
// and HEAD row of the route table is called as the admin, with its own action and with every other
// row's action, with a DELETE statement as `query` beside them, and the data directory's files and
// what the API shows of every cache and counter are the same afterwards.

const PROTOSTREAM = { encoding: { 'media-type': 'application/x-protostream' } };
const CACHES: Record<string, unknown> = {
  'books-store': { 'local-cache': { ...PROTOSTREAM, persistence: { 'file-store': {} } } },
  'books-indexed': { 'local-cache': { ...PROTOSTREAM, indexing: { enabled: true, 'indexed-entities': [PERSON] }, persistence: { 'file-store': {} } } },
  'books-memory': { 'local-cache': { ...PROTOSTREAM } },
};

/** A value for each path parameter, naming a resource the fixtures created. */
const PARAMS: Record<string, string> = {
  manager: 'default', key: 'p1', counter: 'strong', name: 'person.proto', task: 'hello', backup: 'b1', restore: 'r1',
  principal: 'admin', role: 'admin', site: 'NYC', connector: 'endpoint-default', node: 'grid', file: 'index.html', sub: 'vendor',
};

describe('GET and HEAD change nothing, whatever the route and parameters', () => {
  const server = useServer();
  const admin = server.as('admin');

  before(async () => {
    await registerSchema(admin, 'person.proto', PERSON_PROTO);
    for (const [name, config] of Object.entries(CACHES)) {
      await admin.createCache(name, config);
      for (const [key, person] of people(20)) await putJson(admin, name, key, person);
    }
    await admin.post('/rest/v2/counters/strong', JSON.stringify({ 'strong-counter': { 'initial-value': 5 } }), { 'Content-Type': 'application/json' });
    await admin.post('/rest/v2/counters/weak', JSON.stringify({ 'weak-counter': { 'initial-value': 7 } }), { 'Content-Type': 'application/json' });
    expect((await admin.put('/rest/v2/tasks/hello', '// mode=local\n"hello"')).status).to.equal(200);
    // a backup to read back, where the engine takes them (the redis engine does not yet: its GET and HEAD then find none)
    if (!TWO_NODES) {
      expect((await admin.post('/rest/v2/container/backups/b1')).status).to.equal(202);
      await until(() => admin.head('/rest/v2/container/backups/b1'));
    }
  });

  it('leaves the data directory and every cache and counter as they were', async function () {
    this.timeout(300_000); // a few thousand requests
    const before = { files: fingerprint(server.dataDir), api: await apiState(admin) };
    const routes = allRoutes();
    const actions = [...new Set(routes.map((r) => r.action).filter((a): a is string => a !== undefined))];
    let sent = 0;
    for (const route of routes.filter((r) => r.method === 'GET' || r.method === 'HEAD')) {
      for (const cache of route.path.includes(':cache') ? Object.keys(CACHES) : ['']) {
        const path = route.path.replace(/[:*](\w+)/g, (_, p: string) => (p === 'cache' ? cache : PARAMS[p] ?? p));
        for (const action of route.action ? [route.action] : [undefined, ...actions]) {
          const qs = new URLSearchParams({ query: `DELETE FROM ${PERSON}`, max_results: '-1', name: 'strong' });
          if (action) qs.set('action', action);
          const status = await send(admin, route.method, `${path}?${qs.toString().replace(/\+/g, '%20')}`);
          // 501 is a part this server does not build, with a sentence saying so
          expect(status, `${route.method} ${path}?action=${action ?? ''}`).to.satisfy((n: number) => n < 500 || n === 501);
          sent++;
        }
      }
    }
    expect(sent).to.be.above(1000);
    expect(await apiState(admin)).to.deep.equal(before.api);
    expect(fingerprint(server.dataDir)).to.deep.equal(before.files);
  });
});

/** Status of one request; an event stream is closed once its headers arrive. */
async function send(client: Client, method: string, path: string): Promise<number> {
  const abort = new AbortController();
  const headers = { Authorization: 'Basic ' + Buffer.from('admin:admin-pw').toString('base64') };
  const res = await fetch(client.url + path, { method, headers, signal: abort.signal });
  if ((res.headers.get('content-type') ?? '').startsWith('text/event-stream')) abort.abort();
  else await res.arrayBuffer();
  return res.status;
}

/** What the API shows: every cache's entries, every counter's value, the schemas, tasks and backups. */
async function apiState(client: Client): Promise<Record<string, unknown>> {
  const state: Record<string, unknown> = {};
  for (const cache of Object.keys(CACHES)) {
    const keys = (await client.get(`/rest/v2/caches/${cache}?action=keys`)).json<string[]>().sort();
    state[cache] = await Promise.all(keys.map(async (k) => [k, (await client.get(`/rest/v2/caches/${cache}/${k}`)).text]));
  }
  for (const counter of ['strong', 'weak']) state[counter] = (await client.get(`/rest/v2/counters/${counter}`)).text;
  for (const list of ['/rest/v2/caches', '/rest/v2/schemas', '/rest/v2/tasks', '/rest/v2/counters', '/rest/v2/container/backups', '/rest/v2/security/users']) {
    state[list] = (await client.get(list)).text;
  }
  return state;
}

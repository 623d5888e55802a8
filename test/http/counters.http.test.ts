import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { ManualClock } from '../../src/util/clock';
import { Client } from '../support/client';
import { spawnServer, waitForExit } from '../support/process';
import { tempDir, useServer } from '../support/server';

const JSON_TYPE = { 'Content-Type': 'application/json' };

describe('counters /rest/v2/counters', () => {
  const clock = new ManualClock();
  const server = useServer({ clock });
  const admin = server.as('admin');
  let n = 0;
  const fresh = () => `counter-${++n}`;
  const define = async (config: unknown, name = fresh()) => {
    const r = await admin.post(`/rest/v2/counters/${name}`, JSON.stringify(config), JSON_TYPE);
    expect(r.status, r.text).to.equal(200);
    return name;
  };
  const url = (name: string, action = '') => `/rest/v2/counters/${name}${action ? `?action=${action}` : ''}`;

  describe('POST /rest/v2/counters/{name}', () => {
    it('defines a counter (200), whatever the Content-Type says, and answers 304 when it exists', async () => {
      const name = fresh();
      expect((await admin.post(url(name), '{"weak-counter":{"initial-value":5}}', { 'Content-Type': 'text/plain' })).status).to.equal(200);
      expect((await admin.post(url(name), '{"strong-counter":{}}', JSON_TYPE)).status).to.equal(304);
      expect((await admin.get(url(name))).text).to.equal('5');
    });

    it('answers 400 for an empty body, bad JSON, bad attributes and equal bounds; 404 without a counter element', async () => {
      const empty = await admin.post(url(fresh()), '', JSON_TYPE);
      expect(empty.status).to.equal(400);
      expect(empty.text).to.equal('ISPN012031: Method requires content');
      expect((await admin.post(url(fresh()), '{"weak-counter":', JSON_TYPE)).status).to.equal(400);
      expect((await admin.post(url(fresh()), '{"weak-counter":{"bogus":1}}', JSON_TYPE)).status).to.equal(400);
      // a decimal is valid JSON but not a 64-bit integer: the answer says so (it said "Invalid JSON")
      for (const v of ['1.5', '-0.25']) {
        const decimal = await admin.post(url(fresh()), `{"strong-counter":{"initial-value":${v}}}`, JSON_TYPE);
        expect([decimal.status, decimal.text], v).to.deep.equal([400, `Invalid value '${v}' for attribute 'initial-value': expected a 64-bit integer`]);
      }
      const same = await admin.post(url(fresh()), '{"strong-counter":{"lower-bound":1,"upper-bound":1,"initial-value":1}}', JSON_TYPE);
      expect(same.status).to.equal(400);
      expect(same.text).to.equal("ISPN029524: Lower bound (1) and upper bound (1) can't be the same.");
      const name = fresh();
      expect((await admin.post(url(name), '{}', JSON_TYPE)).status).to.equal(404);
      expect((await admin.get(url(name))).status).to.equal(404);
    });

    it('needs CREATE', async () => {
      expect((await server.as('application').post(url(fresh()), '{"weak-counter":{}}', JSON_TYPE)).status).to.equal(403);
      expect((await server.as('deployer').post(url(fresh()), '{"weak-counter":{}}', JSON_TYPE)).status).to.equal(200);
    });
  });

  describe('GET /rest/v2/counters/{name} and /config, GET /rest/v2/counters, DELETE', () => {
    it('reads the value as JSON by default and as text, 406 otherwise, 404 when undefined', async () => {
      const name = await define({ 'strong-counter': { 'initial-value': 90 } });
      const r = await admin.get(url(name));
      expect(r.text).to.equal('90');
      expect(r.headers.get('content-type')).to.contain('application/json');
      expect(r.headers.get('cache-control')).to.equal('no-cache');
      expect((await admin.get(url(name), { Accept: 'text/plain' })).headers.get('content-type')).to.contain('text/plain');
      const bad = await admin.get(url(name), { Accept: 'application/xml' });
      expect(bad.status).to.equal(406);
      expect(bad.text).to.equal('ISPN012007: Cannot convert to application/xml');
      expect((await admin.get(url('never-defined'))).status).to.equal(404);
    });

    it('returns the configuration with numbers as strings, pretty on request', async () => {
      const name = await define({ 'weak-counter': { 'initial-value': 5, 'concurrency-level': 6 } });
      const r = await admin.get(`/rest/v2/counters/${name}/config`);
      expect(r.text).to.equal('{"weak-counter":{"initial-value":"5","storage":"VOLATILE","concurrency-level":"6"}}');
      expect((await admin.get(`/rest/v2/counters/${name}/config?pretty=true`)).text).to.contain('\n');
      expect((await admin.get('/rest/v2/counters/nothing/config')).status).to.equal(404);
    });

    it('lists names and deletes (204, then 404)', async () => {
      const name = await define({ 'weak-counter': {} });
      expect((await admin.get('/rest/v2/counters')).json()).to.include(name);
      expect((await admin.get('/rest/v2/counters/')).status).to.equal(200);
      expect((await admin.delete(url(name))).status).to.equal(204);
      expect((await admin.delete(url(name))).status).to.equal(404);
      expect((await admin.get('/rest/v2/counters')).json()).to.not.include(name);
    });
  });

  describe('actions', () => {
    it('WEAK counters answer 204 to increment, decrement, add and reset', async () => {
      const name = await define({ 'weak-counter': { 'initial-value': 10 } });
      expect((await admin.post(url(name, 'increment'))).status).to.equal(204);
      expect((await admin.post(url(name, 'decrement'))).status).to.equal(204);
      expect((await admin.post(url(name, 'decrement'))).status).to.equal(204);
      expect((await admin.post(`${url(name, 'add')}&delta=25`)).status).to.equal(204);
      expect((await admin.get(url(name))).text).to.equal('34');
      expect((await admin.post(url(name, 'reset'))).status).to.equal(204);
      expect((await admin.get(url(name))).text).to.equal('10');
    });

    it('STRONG counters answer 200 with the new value, and 204 to reset', async () => {
      const name = await define({ 'strong-counter': { 'initial-value': 0 } });
      const inc = await admin.post(url(name, 'increment'));
      expect([inc.status, inc.text]).to.deep.equal([200, '1']);
      expect(inc.headers.get('content-type')).to.contain('application/json');
      expect((await admin.post(url(name, 'decrement'))).text).to.equal('0');
      expect((await admin.post(`${url(name, 'add')}&delta=35`)).text).to.equal('35');
      expect((await admin.post(url(name, 'reset'))).status).to.equal(204);
    });

    it('compareAndSet, compareAndSwap and getAndSet on STRONG counters', async () => {
      const name = await define({ 'strong-counter': { 'initial-value': 5 } });
      expect((await admin.post(`${url(name, 'compareAndSet')}&expect=4&update=9`)).text).to.equal('false');
      expect((await admin.post(`${url(name, 'compareAndSet')}&expect=5&update=9`)).text).to.equal('true');
      expect((await admin.post(`${url(name, 'compareAndSwap')}&expect=1&update=2`)).text).to.equal('9');
      expect((await admin.post(`${url(name, 'compareAndSwap')}&expect=9&update=2`)).text).to.equal('9');
      expect((await admin.post(`${url(name, 'getAndSet')}&value=7`)).text).to.equal('2');
      expect((await admin.get(url(name))).text).to.equal('7');
    });

    it('refuses STRONG-only actions on a WEAK counter with 500 ISPN029514', async () => {
      const name = await define({ 'weak-counter': {} });
      const r = await admin.post(`${url(name, 'compareAndSet')}&expect=0&update=1`);
      expect(r.status).to.equal(500);
      expect(r.text).to.equal('ISPN029514: Invalid counter type. Expected=StrongCounter but got WeakCounter');
    });

    it('stops at both bounds with 500 and the bound as value', async () => {
      const name = await define({ 'strong-counter': { 'initial-value': 1, 'lower-bound': 0, 'upper-bound': 3 } });
      const up = await admin.post(`${url(name, 'add')}&delta=10`);
      expect([up.status, up.text]).to.deep.equal([500, 'ISPN029501: Upper bound reached.']);
      expect((await admin.get(url(name))).text).to.equal('3');
      const down = await admin.post(`${url(name, 'add')}&delta=-10`);
      expect([down.status, down.text]).to.deep.equal([500, 'ISPN029501: Lower bound reached.']);
      expect((await admin.get(url(name))).text).to.equal('0');
    });

    it('answers 400 for missing, repeated or non-numeric parameters, 404 for an undefined counter', async () => {
      const name = await define({ 'strong-counter': {} });
      const missing = await admin.post(url(name, 'add'));
      expect([missing.status, missing.text]).to.deep.equal([400, "ISPN012040: Missing required argument 'delta'"]);
      expect((await admin.post(`${url(name, 'add')}&delta=1&delta=2`)).status).to.equal(400);
      const nan = await admin.post(`${url(name, 'add')}&delta=x`);
      expect([nan.status, nan.text]).to.deep.equal([400, "ISPN012023: Argument 'delta' has illegal value 'x'"]);
      expect((await admin.post(`${url(name, 'compareAndSet')}&expect=1`)).text).to.equal("ISPN012040: Missing required argument 'update'");
      expect((await admin.post(url('never-defined', 'increment'))).status).to.equal(404);
    });

    it('keeps values above 2^53 exact', async () => {
      const name = await define({ 'strong-counter': { 'initial-value': '9007199254740993' } });
      expect((await admin.post(url(name, 'increment'))).text).to.equal('9007199254740994');
      expect((await admin.post(`${url(name, 'add')}&delta=9223372036854775000`)).text).to.equal('9223372036854775807');
    });

    it('resets a STRONG counter with a lifespan to its initial value after that time', async () => {
      const name = await define({ 'strong-counter': { 'initial-value': 3, lifespan: 60000 } });
      await admin.post(`${url(name, 'add')}&delta=4`);
      expect((await admin.get(url(name))).text).to.equal('7');
      clock.advance(60_000);
      expect((await admin.get(url(name))).text).to.equal('3');
    });

    it('gives the exact total for many parallel increments', async () => {
      for (const kind of ['weak-counter', 'strong-counter']) {
        const name = await define({ [kind]: { storage: 'PERSISTENT' } });
        await Promise.all(Array.from({ length: 300 }, () => admin.post(url(name, 'increment'))));
        expect((await admin.get(url(name))).text, kind).to.equal('300');
      }
    });

    it('needs READ to read and WRITE to update', async () => {
      const name = await define({ 'strong-counter': {} });
      expect((await server.as('monitor').get(url(name))).status).to.equal(403);
      expect((await server.as('observer').get(url(name))).status).to.equal(200);
      expect((await server.as('observer').post(url(name, 'increment'))).status).to.equal(403);
      expect((await server.as('application').post(url(name, 'increment'))).status).to.equal(200);
      expect((await server.as('application').delete(url(name))).status).to.equal(403);
    });
  });
});

describe('counters across kill -9', function () {
  this.timeout(60_000);

  it('keeps PERSISTENT values and VOLATILE definitions (at their initial value)', async () => {
    const dataDir = tempDir();
    try {
      let proc = await spawnServer(['--data', dataDir], { APP_USER: 'ops', APP_PASS: 'ops-pw' });
      let client = new Client(proc.url, { user: 'ops', password: 'ops-pw' });
      await client.post('/rest/v2/counters/p', '{"strong-counter":{"initial-value":1,"storage":"PERSISTENT"}}', JSON_TYPE);
      await client.post('/rest/v2/counters/w', '{"weak-counter":{"storage":"PERSISTENT"}}', JSON_TYPE);
      await client.post('/rest/v2/counters/v', '{"strong-counter":{"initial-value":10,"storage":"VOLATILE"}}', JSON_TYPE);
      await Promise.all(Array.from({ length: 50 }, () => client.post('/rest/v2/counters/p?action=increment')));
      await client.post('/rest/v2/counters/w?action=add&delta=-7');
      await client.post('/rest/v2/counters/v?action=add&delta=5');
      proc.child.kill('SIGKILL');
      await waitForExit(proc.child);

      proc = await spawnServer(['--data', dataDir]);
      client = new Client(proc.url, { user: 'ops', password: 'ops-pw' });
      try {
        expect((await client.get('/rest/v2/counters')).json()).to.deep.equal(['p', 'v', 'w']);
        expect((await client.get('/rest/v2/counters/p')).text).to.equal('51');
        expect((await client.get('/rest/v2/counters/w')).text).to.equal('-7');
        expect((await client.get('/rest/v2/counters/v')).text).to.equal('10');
      } finally {
        proc.child.kill('SIGTERM');
        await waitForExit(proc.child);
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

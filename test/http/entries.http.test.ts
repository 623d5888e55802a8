import { expect } from 'chai';
import { ManualClock } from '../../src/util/clock';
import { useServer, withServer } from '../support/server';

const entry = (cache: string, key: string) => `/rest/v2/caches/${cache}/${key}`;

describe('entries /rest/v2/caches/{cache}/{key}', () => {
  const clock = new ManualClock(Date.parse('2026-01-01T00:00:00Z'));
  const server = useServer({ clock });
  const admin = server.as('admin');
  let n = 0;
  const given = {
    async cache(config: unknown = { 'local-cache': {} }): Promise<string> {
      const name = `c${++n}`;
      await admin.createCache(name, config);
      return name;
    },
  };

  describe('POST', () => {
    it('answers 204 with an etag when the key is absent', async () => {
      const c = await given.cache();
      const r = await admin.post(entry(c, 'k'), 'first');
      expect(r.status).to.equal(204);
      expect(r.headers.get('etag')).to.match(/^-?\d+$/);
    });

    it('answers 409 and keeps the first value when the key exists', async () => {
      const c = await given.cache();
      expect((await admin.post(entry(c, 'k'), 'first')).status).to.equal(204);
      const r = await admin.post(entry(c, 'k'), 'second');
      expect(r.status).to.equal(409);
      expect(r.text).to.equal('An entry already exists');
      expect((await admin.get(entry(c, 'k'))).text).to.equal('first');
    });

    it('answers 404 with ISPN012010 for a missing cache', async () => {
      const r = await admin.post(entry('nope', 'k'), 'v');
      expect(r.status).to.equal(404);
      expect(r.text).to.equal("ISPN012010: Cache with name 'nope' not found amongst the configured caches");
    });
  });

  describe('PUT', () => {
    it('creates and replaces, the etag following the value', async () => {
      const c = await given.cache();
      const first = await admin.put(entry(c, 'k'), 'one');
      const second = await admin.put(entry(c, 'k'), 'two');
      expect(first.status).to.equal(204);
      expect(second.status).to.equal(204);
      expect(first.headers.get('etag')).to.not.equal(second.headers.get('etag'));
      const r = await admin.get(entry(c, 'k'));
      expect(r.text).to.equal('two');
      expect(r.headers.get('etag')).to.equal(second.headers.get('etag'));
    });

    it('answers 304 and writes nothing when If-None-Match equals the current etag', async () => {
      const c = await given.cache();
      const etag = (await admin.put(entry(c, 'k'), 'one')).headers.get('etag')!;
      expect((await admin.put(entry(c, 'k'), 'two', { 'If-None-Match': etag })).status).to.equal(304);
      expect((await admin.get(entry(c, 'k'))).text).to.equal('one');
    });

    it('stores an empty body as an empty value', async () => {
      const c = await given.cache();
      expect((await admin.put(entry(c, 'k'), '')).status).to.equal(204);
      const r = await admin.get(entry(c, 'k'));
      expect(r.status).to.equal(200);
      expect(r.text).to.equal('');
    });

    it('refuses an unknown flag with 400 and writes nothing', async () => {
      const c = await given.cache();
      const r = await admin.put(entry(c, 'k'), 'v', { flags: 'SKIP_CACHE_LOAD,Invalid' });
      expect(r.status).to.equal(400);
      expect(r.text).to.equal('No enum constant org.infinispan.context.Flag.Invalid');
      expect((await admin.get(entry(c, 'k'))).status).to.equal(404);
      expect((await admin.put(entry(c, 'k'), 'v', { flags: 'SKIP_CACHE_LOAD,IGNORE_RETURN_VALUES' })).status).to.equal(204);
    });

    it('answers 400 ISPN000492 when the body cannot become the cache media type', async () => {
      const c = await given.cache({ 'local-cache': { encoding: { 'media-type': 'text/plain' } } });
      const r = await admin.put(entry(c, 'k'), '<png>', { 'Content-Type': 'image/png' });
      expect(r.status).to.equal(400);
      expect(r.text).to.equal("ISPN000492: Cannot find transcoder between 'image/png' to 'text/plain'");
    });

    it('answers 400 for an unparseable Content-Type', async () => {
      const c = await given.cache();
      const r = await admin.put(entry(c, 'k'), 'v', { 'Content-Type': 'nonsense' });
      expect(r.status).to.equal(400);
      expect(r.text).to.contain('ISPN000930');
    });
  });

  describe('GET and HEAD', () => {
    it('answers 404 with a short reason for a missing key (the original sends no body)', async () => {
      const c = await given.cache();
      const r = await admin.get(entry(c, 'missing'));
      expect(r.status).to.equal(404);
      expect(r.text).to.equal('Entry not found');
    });

    it('returns octet-stream for an unconfigured cache without Accept, and no dates for immortal entries', async () => {
      const c = await given.cache();
      await admin.put(entry(c, 'k'), 'v', { 'Content-Type': 'text/plain' });
      const r = await admin.get(entry(c, 'k'));
      expect(r.headers.get('content-type')).to.equal('application/octet-stream');
      expect(r.headers.get('last-modified')).to.equal(null);
      expect(r.headers.get('expires')).to.equal(null);
      expect(r.headers.get('timetoliveseconds')).to.equal(null);
    });

    it('negotiates Accept with q-values (docs/reference/media-types.md#read-negotiation)', async () => {
      const c = await given.cache();
      await admin.put(entry(c, 'k'), 'v');
      const type = async (accept: string) => (await admin.get(entry(c, 'k'), { Accept: accept })).headers.get('content-type');
      expect(await type('text/html,application/xhtml+xml,*/*')).to.equal('application/octet-stream');
      expect(await type('text/plain;q=0.1, application/json;q=0.8, */*;q=0.7')).to.equal('application/json');
      expect(await type('ignored/wrong , text/plain')).to.equal('text/plain');
      expect(await type('text/html, application/xml')).to.equal('application/xml');
    });

    it('answers 406 for an unconvertible Accept and for an unparseable one', async () => {
      const c = await given.cache({ 'local-cache': { encoding: { 'media-type': 'application/xml' } } });
      await admin.put(entry(c, 'k'), '<a/>', { 'Content-Type': 'application/xml' });
      const r = await admin.get(entry(c, 'k'), { Accept: 'application/json' });
      expect(r.status).to.equal(406);
      expect(r.text).to.equal('ISPN012007: Cannot convert to application/json');
      const bad = await admin.get(entry(c, 'k'), { Accept: 'garbage' });
      expect(bad.status).to.equal(406);
    });

    it('HEAD has the headers of GET and no body', async () => {
      const c = await given.cache();
      await admin.put(entry(c, 'k'), 'value');
      const get = await admin.get(entry(c, 'k'));
      const head = await admin.head(entry(c, 'k'));
      expect(head.status).to.equal(200);
      expect(head.text).to.equal('');
      expect(head.headers.get('etag')).to.equal(get.headers.get('etag'));
      expect(head.headers.get('content-type')).to.equal(get.headers.get('content-type'));
    });

    it('adds both extended header families with ?extended', async () => {
      const c = await given.cache();
      await admin.put(entry(c, 'k'), 'v');
      const r = await admin.get(entry(c, 'k') + '?extended');
      expect(r.headers.get('cluster-node-name')).to.be.a('string');
      expect(r.headers.get('cluster-primary-owner')).to.equal(r.headers.get('cluster-node-name'));
      expect(r.headers.get('cluster-physical-address')).to.match(/^127\.0\.0\.1:\d+$/);
      expect(r.headers.get('cluster-server-address')).to.match(/^\[127\.0\.0\.1:\d+\]$/);
      expect((await admin.get(entry(c, 'k'))).headers.get('cluster-node-name')).to.equal(null);
    });

    it('evaluates conditional headers: 304 and 412', async () => {
      const c = await given.cache();
      await admin.put(entry(c, 'k'), 'v', { timeToLiveSeconds: '100' });
      const r = await admin.get(entry(c, 'k'));
      const etag = r.headers.get('etag')!;
      const modified = r.headers.get('last-modified')!;
      expect((await admin.get(entry(c, 'k'), { 'If-None-Match': etag })).status).to.equal(304);
      expect((await admin.get(entry(c, 'k'), { 'If-Match': 'other' })).status).to.equal(412);
      expect((await admin.get(entry(c, 'k'), { 'If-Match': etag })).status).to.equal(200);
      expect((await admin.get(entry(c, 'k'), { 'If-Modified-Since': modified })).status).to.equal(304);
      const before = new Date(Date.parse(modified) - 10_000).toUTCString();
      expect((await admin.get(entry(c, 'k'), { 'If-Modified-Since': before })).status).to.equal(200);
      expect((await admin.get(entry(c, 'k'), { 'If-Unmodified-Since': before })).status).to.equal(412);
      const bad = await admin.get(entry(c, 'k'), { 'If-Modified-Since': 'yesterday-ish' });
      expect(bad.status).to.equal(400);
    });

    it('answers 400 for a date that does not parse, once the entry is found and the ETag conditions did not answer', async () => {
      const c = await given.cache();
      const etag = (await admin.put(entry(c, 'k'), 'v', { timeToLiveSeconds: '100' })).headers.get('etag')!;
      const bad = await admin.get(entry(c, 'k'), { 'If-Unmodified-Since': 'someday' });
      expect([bad.status, bad.text]).to.deep.equal([400, "Could not parse date 'someday'"]);
      expect((await admin.get(entry(c, 'missing'), { 'If-Modified-Since': 'someday' })).status).to.equal(404);
      expect((await admin.get(entry(c, 'k'), { 'If-None-Match': etag, 'If-Modified-Since': 'someday' })).status).to.equal(304);
      expect((await admin.get(entry(c, 'k'), { 'If-Match': 'other', 'If-Unmodified-Since': 'someday' })).status).to.equal(412);
    });

    it('ignores a Cache-Control min-fresh that is no number', async () => {
      const c = await given.cache();
      await admin.put(entry(c, 'k'), 'v', { timeToLiveSeconds: '10' });
      expect((await admin.get(entry(c, 'k'), { 'Cache-Control': 'min-fresh=20' })).status).to.equal(404);
      expect((await admin.get(entry(c, 'k'), { 'Cache-Control': 'min-fresh=soon' })).text).to.equal('v');
    });
  });

  describe('expiration', () => {
    it('expires an entry after timeToLiveSeconds and reports its headers', async () => {
      const c = await given.cache();
      await admin.put(entry(c, 'k'), 'v', { timeToLiveSeconds: '10' });
      const r = await admin.get(entry(c, 'k'));
      expect(r.headers.get('timetoliveseconds')).to.equal('10');
      expect(r.headers.get('expires')).to.equal(new Date(clock.now() + 10_000).toUTCString());
      expect(r.headers.get('cache-control')).to.equal('max-age=10');
      expect(r.headers.get('last-modified')).to.equal(new Date(clock.now()).toUTCString());
      clock.advance(9_000);
      expect((await admin.get(entry(c, 'k'))).status).to.equal(200);
      clock.advance(1_000);
      expect((await admin.get(entry(c, 'k'))).status).to.equal(404);
    });

    it('refreshes max-idle on reads', async () => {
      const c = await given.cache();
      await admin.put(entry(c, 'k'), 'v', { maxIdleTimeSeconds: '5' });
      for (let i = 0; i < 3; i++) {
        clock.advance(4_000);
        expect((await admin.get(entry(c, 'k'))).status).to.equal(200);
      }
      clock.advance(5_000);
      expect((await admin.get(entry(c, 'k'))).status).to.equal(404);
    });

    it('applies the cache defaults when headers are absent or both 0, and never expires on negatives', async () => {
      const c = await given.cache({ 'local-cache': { expiration: { lifespan: '20000', 'max-idle': '8000' } } });
      await admin.put(entry(c, 'absent'), 'v');
      await admin.put(entry(c, 'zeros'), 'v', { timeToLiveSeconds: '0', maxIdleTimeSeconds: '0' });
      await admin.put(entry(c, 'never'), 'v', { timeToLiveSeconds: '-1', maxIdleTimeSeconds: '-1' });
      const h = (await admin.get(entry(c, 'absent'))).headers;
      expect([h.get('timetoliveseconds'), h.get('maxidletimeseconds')]).to.deep.equal(['20', '8']);
      const z = (await admin.get(entry(c, 'zeros'))).headers;
      expect([z.get('timetoliveseconds'), z.get('maxidletimeseconds')]).to.deep.equal(['20', '8']);
      clock.advance(60_000);
      expect((await admin.get(entry(c, 'absent'))).status).to.equal(404);
      expect((await admin.get(entry(c, 'never'))).status).to.equal(200);
    });

    it('ignores a timeToLiveSeconds or maxIdleTimeSeconds that is no whole number: the cache defaults apply', async () => {
      const c = await given.cache({ 'local-cache': { expiration: { lifespan: '20000', 'max-idle': '8000' } } });
      expect((await admin.put(entry(c, 'k'), 'v', { timeToLiveSeconds: 'soon', maxIdleTimeSeconds: '1.5' })).status).to.equal(204);
      const h = (await admin.get(entry(c, 'k'))).headers;
      expect([h.get('timetoliveseconds'), h.get('maxidletimeseconds')]).to.deep.equal(['20', '8']);
    });

    it('spec rules 4 and 5: the absent header becomes -1 when the other one is 0', async () => {
      const c = await given.cache({ 'local-cache': { expiration: { lifespan: '20000', 'max-idle': '8000' } } });
      await admin.put(entry(c, 'idle0'), 'v', { maxIdleTimeSeconds: '0' });
      await admin.put(entry(c, 'ttl0'), 'v', { timeToLiveSeconds: '0' });
      const a = (await admin.get(entry(c, 'idle0'))).headers;
      expect([a.get('timetoliveseconds'), a.get('maxidletimeseconds')]).to.deep.equal([null, '8']);
      const b = (await admin.get(entry(c, 'ttl0'))).headers;
      expect([b.get('timetoliveseconds'), b.get('maxidletimeseconds')]).to.deep.equal(['20', null]);
    });

    it('removes expired entries from the cache size and listings', async () => {
      const c = await given.cache();
      await admin.put(entry(c, 'short'), 'v', { timeToLiveSeconds: '1' });
      await admin.put(entry(c, 'long'), 'v');
      clock.advance(2_000);
      expect((await admin.get(`/rest/v2/caches/${c}?action=size`)).json()).to.equal(1);
      expect((await admin.get(`/rest/v2/caches/${c}?action=keys`)).json()).to.deep.equal(['long']);
    });
  });

  describe('DELETE', () => {
    it('answers 204 then 404', async () => {
      const c = await given.cache();
      await admin.put(entry(c, 'k'), 'v');
      expect((await admin.delete(entry(c, 'k'))).status).to.equal(204);
      expect((await admin.get(entry(c, 'k'))).status).to.equal(404);
      expect((await admin.delete(entry(c, 'k'))).status).to.equal(404);
    });

    it('uses If-None-Match as a precondition: 412 when it differs', async () => {
      const c = await given.cache();
      const etag = (await admin.put(entry(c, 'k'), 'v')).headers.get('etag')!;
      expect((await admin.delete(entry(c, 'k'), { 'If-None-Match': 'other' })).status).to.equal(412);
      expect((await admin.delete(entry(c, 'k'), { 'If-None-Match': etag })).status).to.equal(204);
    });
  });

  describe('keys', () => {
    it('decodes hex, base64 and Java-typed keys into distinct entries', async () => {
      const c = await given.cache();
      await admin.put(entry(c, '0x6869'), 'hex', { 'Key-Content-Type': 'application/octet-stream; encoding=hex' });
      expect((await admin.get(entry(c, 'hi'))).text).to.equal('hex');
      await admin.put(entry(c, 'aGk='), 'b64', { 'Key-Content-Type': 'application/octet-stream; encoding=base64' });
      expect((await admin.get(entry(c, 'hi'))).text).to.equal('b64');
      await admin.put(entry(c, '42'), 'int', { 'Key-Content-Type': 'application/x-java-object;type=java.lang.Integer' });
      await admin.put(entry(c, '42'), 'str');
      expect((await admin.get(entry(c, '42'), { 'Key-Content-Type': 'application/x-java-object;type=java.lang.Integer' })).text).to.equal('int');
      expect((await admin.get(entry(c, '42'))).text).to.equal('str');
    });

    it('answers 400 for a bad hex key and an unsupported Java type', async () => {
      const c = await given.cache();
      const bad = await admin.put(entry(c, '0xZZ'), 'v', { 'Key-Content-Type': 'application/octet-stream; encoding=hex' });
      expect(bad.status).to.equal(400);
      expect(bad.text).to.equal('Invalid digit found in hex format!');
      const type = await admin.put(entry(c, 'k'), 'v', { 'Key-Content-Type': 'application/x-java-object;type=java.util.Date' });
      expect(type.status).to.equal(400);
      expect(type.text).to.equal('Type java.util.Date is unsupported');
    });

    it('reads keys with spaces, plus signs and slashes as the original decodes paths', async () => {
      const c = await given.cache();
      await admin.put(entry(c, 'a+b'), 'space');
      expect((await admin.get(entry(c, 'a%20b'))).text).to.equal('space');
      await admin.put(entry(c, 'x%2Fy'), 'slash');
      await admin.put(entry(c, 'p%2Bq'), 'plus');
      expect((await admin.get(`/rest/v2/caches/${c}?action=keys`)).json<string[]>().sort()).to.deep.equal(['a b', 'p+q', 'x/y']);
    });
  });

  describe('limits', () => {
    it('answers 413 for a body over the limit and stores nothing', async () => {
      await withServer({ maxContentLength: 1000 }, async (small) => {
        const a = small.as('admin');
        await a.createCache('c');
        const r = await a.put('/rest/v2/caches/c/k', Buffer.alloc(2000, 1));
        expect(r.status).to.equal(413);
        expect((await a.get('/rest/v2/caches/c/k')).status).to.equal(404);
      });
    });
  });

  describe('legacy v1 paths /rest/{cache}/{key}', () => {
    it('stores and reads through the v1 path', async () => {
      const c = await given.cache();
      expect((await admin.put(`/rest/${c}/k`, 'v1')).status).to.equal(204);
      expect((await admin.get(`/rest/v2/caches/${c}/k`)).text).to.equal('v1');
      expect((await admin.post(`/rest/${c}/k`, 'again')).status).to.equal(409);
      expect((await admin.delete(`/rest/${c}/k`)).status).to.equal(204);
    });

    it('lists keys as text, JSON-ish, XML and hex, and clears with DELETE /rest/{cache} (200, docs/reference/data-plane.md#legacy-v1)', async () => {
      const c = await given.cache();
      await admin.put(`/rest/${c}/a`, '1');
      await admin.put(`/rest/${c}/b<`, '2');
      const text = await admin.get(`/rest/${c}`);
      expect(text.headers.get('content-type')).to.contain('text/plain');
      expect(text.text.split('\n').sort()).to.deep.equal(['a', 'b<']);
      expect((await admin.get(`/rest/${c}`, { Accept: 'application/json' })).text).to.match(/^keys=\[(a,b<|b<,a)\]$/);
      expect((await admin.get(`/rest/${c}`, { Accept: 'application/xml' })).text).to.contain('<key>b&#60;</key>');
      expect((await admin.get(`/rest/${c}`, { Accept: 'application/octet-stream' })).text.split('\n')).to.include('0x61');
      expect((await admin.get(`/rest/${c}`, { Accept: 'image/png' })).status).to.equal(406);
      expect((await admin.delete(`/rest/${c}`)).status).to.equal(200);
      expect((await admin.get(`/rest/${c}`)).text).to.equal('');
      expect((await admin.get('/rest/no-such-cache')).status).to.equal(404);
    });
  });

  describe('permissions', () => {
    it('lets observers read but not write, and applications write', async () => {
      const c = await given.cache();
      await admin.put(entry(c, 'k'), 'v');
      expect((await server.as('observer').get(entry(c, 'k'))).status).to.equal(200);
      const denied = await server.as('observer').put(entry(c, 'k'), 'x');
      expect(denied.status).to.equal(403);
      expect(denied.text).to.match(/^ISPN000287: Unauthorized access: subject .* lacks 'WRITE' permission$/);
      expect((await server.as('application').put(entry(c, 'k'), 'x')).status).to.equal(204);
      expect((await server.as('monitor').get(entry(c, 'k'))).status).to.equal(403);
    });
  });
});

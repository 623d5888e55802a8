import { expect } from 'chai';
import type { Reply } from '../support/client';
import { useServer } from '../support/server';
import { longestLoopDelay, STALL_BOUND_MS, whileProbing } from '../support/stall-probe';

// Values as large as a request body may be (max-content-length, 10 MB by default) read or written
// in another media type: the server keeps answering while it converts them (issue "budgets for
// every user-controlled computation", finding 4), and the bytes are those of a small value.

const MB = 1_000_000;
const JSON_CT = { 'Content-Type': 'application/json' };

/** `unit` repeated to `size` characters (ASCII units, so characters and bytes agree). */
function repeated(unit: string, size: number): string {
  return unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
}

describe('large values converted between media types keep the server answering', function () {
  this.timeout(120_000);
  const server = useServer();
  const admin = server.as('admin');
  const observer = server.as('observer');
  const application = server.as('application');
  let n = 0;

  const cacheWith = async (mediaType: string): Promise<string> => {
    const name = `values-${++n}`;
    await admin.createCache(name, { 'local-cache': { encoding: { 'media-type': mediaType } } });
    return name;
  };

  /**
   * The work's reply, once the health probe answered within its bound all along. The server runs
   * in this process, so its event loop's own longest delay is checked too: a stall that falls
   * between two probes would not show in their answers.
   */
  const probed = async (work: () => Promise<Reply>): Promise<Reply> => {
    const { result: { result, probe }, maxMs } = await longestLoopDelay(() => whileProbing(server.url, work));
    expect(probe.failures, 'health probes that failed').to.equal(0);
    expect(probe.probes, 'health probes answered').to.be.greaterThan(0);
    expect(probe.worstMs, 'slowest health probe (ms)').to.be.lessThan(STALL_BOUND_MS);
    expect(maxMs, 'longest event-loop delay (ms)').to.be.lessThan(STALL_BOUND_MS);
    return result;
  };

  describe('GET /rest/v2/caches/{cacheName}/{cacheKey} with Accept: application/xml', () => {
    it('answers 9.9 MB of text that is not XML as an XStream <string>, escaped, to an observer', async () => {
      const c = await cacheWith('text/plain');
      const text = repeated('not xml, just words & <angle> brackets; ', 9.9 * MB);
      expect((await application.put(`/rest/v2/caches/${c}/big`, text, { 'Content-Type': 'text/plain' })).status).to.equal(204);
      const r = await probed(() => observer.get(`/rest/v2/caches/${c}/big`, { Accept: 'application/xml' }));
      expect(r.status).to.equal(200);
      expect(r.headers.get('content-type')).to.equal('application/xml');
      const escaped = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
      expect(r.text.length).to.equal(escaped.length + '<string></string>'.length);
      expect(r.text === `<string>${escaped}</string>`, 'the body is the escaped text in <string>').to.equal(true);
    });

    it('answers a large well-formed XML value as it is', async () => {
      const c = await cacheWith('text/plain');
      const doc = `<list>${'<item a="1">x &amp; y</item>'.repeat(150_000)}</list>`;
      await application.put(`/rest/v2/caches/${c}/doc`, doc, { 'Content-Type': 'text/plain' });
      const r = await probed(() => observer.get(`/rest/v2/caches/${c}/doc`, { Accept: 'application/xml' }));
      expect(r.status).to.equal(200);
      expect(r.text === doc, 'the document as stored').to.equal(true);
    });
  });

  describe('PUT /rest/v2/caches/{cacheName}/{cacheKey} with Content-Type: application/xml into a Java object cache', () => {
    it('answers 400 with the parser\'s first error to 3 MB that is not XML, and stores nothing', async () => {
      const c = await cacheWith('application/x-java-object');
      const body = repeated('not xml, just words & <angle> brackets; ', 3 * MB);
      const r = await probed(() => application.put(`/rest/v2/caches/${c}/k`, body, { 'Content-Type': 'application/xml' }));
      expect(r.status).to.equal(400);
      expect(r.text).to.equal('Non-whitespace before first tag.');
      expect((await observer.get(`/rest/v2/caches/${c}/k`)).status).to.equal(404);
    });

    it('stores a 3 MB XStream <string> as the String it holds', async () => {
      const c = await cacheWith('application/x-java-object');
      const text = repeated('words & <angle> brackets; ', 3 * MB);
      const xml = `<string>${text.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</string>`;
      const r = await probed(() => application.put(`/rest/v2/caches/${c}/k`, xml, { 'Content-Type': 'application/xml' }));
      expect(r.status).to.equal(204);
      const back = await observer.get(`/rest/v2/caches/${c}/k`, { Accept: 'text/plain' });
      expect(back.text === text, 'the String the XML held').to.equal(true);
    });
  });

  describe('GET /rest/v2/caches/{cacheName}/{cacheKey} with Accept: application/x-www-form-urlencoded', () => {
    it('URL-encodes 9.8 MB of accented text as java.net.URLEncoder does, to an observer', async () => {
      const c = await cacheWith('text/plain');
      const unit = 'héllo wörld (x)! ';
      const text = unit.repeat(Math.ceil(9.8 * MB / Buffer.byteLength(unit)));
      await application.put(`/rest/v2/caches/${c}/form`, text, { 'Content-Type': 'text/plain' });
      const r = await probed(() => observer.get(`/rest/v2/caches/${c}/form`, { Accept: 'application/x-www-form-urlencoded' }));
      expect(r.status).to.equal(200);
      const expected = 'h%C3%A9llo+w%C3%B6rld+%28x%29%21+'.repeat(text.length / unit.length);
      expect(r.text.length).to.equal(expected.length);
      expect(r.text === expected, 'the URL-encoded text').to.equal(true);
    });
  });

  describe('protostream values of 3.5 MB', () => {
    const SCHEMA = 'package big;\nmessage Numbers {\n  optional string name = 1;\n  repeated int64 values = 2;\n}\n';
    // integers above 2^53, written out exactly (JSON.stringify would round them)
    const values = Array.from({ length: 250_000 }, (_, i) => (9_007_199_254_740_993n + BigInt(i) * 1000n).toString());
    const json = `{"_type":"big.Numbers","name":"n","values":[${values.join(',')}]}`;

    it('are written from JSON by an application user and read back as the same JSON by an observer, entries listing included', async () => {
      expect((await admin.post('/rest/v2/schemas/big.proto', SCHEMA)).status).to.equal(201);
      const c = await cacheWith('application/x-protostream');
      const put = await probed(() => application.put(`/rest/v2/caches/${c}/nums`, json, JSON_CT));
      expect(put.status).to.equal(204);
      const r = await probed(() => observer.get(`/rest/v2/caches/${c}/nums`));
      expect(r.status).to.equal(200);
      expect(r.headers.get('content-type')).to.equal('application/json');
      expect(r.text === json, 'the JSON as written, every digit kept').to.equal(true);
      const entries = await probed(() => observer.get(`/rest/v2/caches/${c}?action=entries`));
      expect(entries.status).to.equal(200);
      expect(entries.text === `[{"key":{"_type":"string","_value":"nums"},"value":${json}}]`, 'the listing holds the same JSON').to.equal(true);
    });
  });

  describe('a 400 that quotes the value', () => {
    it('quotes at most the first 200 characters of a 1 MB value that is not JSON', async () => {
      const c = await cacheWith('application/json');
      const body = repeated('not json at all ', MB);
      const r = await application.put(`/rest/v2/caches/${c}/${encodeURIComponent('"k"')}`, body, { 'Content-Type': 'text/plain' });
      expect(r.status).to.equal(400);
      expect(r.text).to.equal(`Invalid JSON content: ${body.slice(0, 200)}…`);
    });

    it('quotes at most the first 200 characters of a number that does not parse', async () => {
      const c = await cacheWith('application/x-java-object');
      const digits = '9'.repeat(1_000_000);
      const r = await probed(() => application.put(`/rest/v2/caches/${c}/n`, digits, { 'Content-Type': 'application/x-java-object; type=java.lang.Integer' }));
      expect(r.status).to.equal(400);
      expect(r.text).to.equal(`Value out of range. Value:"${digits.slice(0, 200)}…"`);
    });
  });
});

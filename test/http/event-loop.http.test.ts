import { expect } from 'chai';
import { mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Reply } from '../support/client';
import { useServer } from '../support/server';
import { STALL_BOUND_MS, whileProbing, type ProbeReport } from '../support/stall-probe';

// Each case sends what once held the event loop for seconds (docs/reliability.md#event-loop-stalls-and-fuzzing) — or the largest
// input the limits allow — while a health probe runs, and asserts the probe kept answering.

const XML = { 'Content-Type': 'application/xml', Accept: 'application/json' };
const JSON_TYPE = { 'Content-Type': 'application/json', Accept: 'application/xml' };
const YAML = { 'Content-Type': 'application/yaml', Accept: 'application/json' };

function expectResponsive(probe: ProbeReport): void {
  expect(probe.failures, 'health probes that failed').to.equal(0);
  expect(probe.probes, 'health probes answered').to.be.greaterThan(0);
  expect(probe.worstMs, 'slowest health probe (ms)').to.be.lessThan(STALL_BOUND_MS);
}

function xmlAttributes(count: number): string {
  const parts: string[] = [];
  for (let i = 0; i < count; i++) parts.push(` a${i}="v"`);
  return `<local-cache${parts.join('')}/>`;
}

/** One message of `fields` fields, or `messages` messages sharing them. */
function protoFile(messages: number, fields: number): string {
  const out: string[] = ['package big;'];
  for (let m = 0; m < messages; m++) {
    out.push(`message M${m} {`);
    for (let f = 1; f <= fields; f++) out.push(`  optional string field_${f} = ${f};`);
    out.push('}');
  }
  return out.join('\n') + '\n';
}

describe('event loop: hostile or large input never stalls the server', () => {
  const server = useServer();
  const monitor = server.as('monitor');
  const admin = server.as('admin');

  const probed = async (send: () => Promise<Reply>): Promise<Reply> => {
    const { result, probe } = await whileProbing(server.url, send);
    expectResponsive(probe);
    return result;
  };

  describe('POST /rest/v2/caches?action=convert', () => {
    it('answers 400 to 30,000 XML attributes (319 KB) from a monitor user', async () => {
      const body = xmlAttributes(30_000);
      expect(body.length).to.be.greaterThan(300_000);
      const r = await probed(() => monitor.post('/rest/v2/caches?action=convert', body, XML));
      expect(r.status).to.equal(400);
      expect(r.text).to.contain('limit config-attributes');
    });

    it('answers 400 to a document of 1 MiB of JSON keys', async () => {
      const keys: string[] = [];
      let size = 20;
      for (let i = 0; size < 1_000_000; i++) {
        const k = `"key-${i}":"v"`;
        keys.push(k);
        size += k.length + 1;
      }
      const body = `{"local-cache":{${keys.join(',')}}}`;
      const r = await probed(() => monitor.post('/rest/v2/caches?action=convert', body, JSON_TYPE));
      expect(r.status).to.equal(400);
      expect(r.text).to.contain('limit config-attributes');
    });

    it('answers 400 to 20,000 XML elements', async () => {
      const body = `<local-cache>${'<memory/>'.repeat(20_000)}</local-cache>`;
      const r = await probed(() => monitor.post('/rest/v2/caches?action=convert', body, XML));
      expect(r.status).to.equal(400);
      expect(r.text).to.contain('limit config-elements');
    });

    it('answers 400 to YAML with thousands of keys (80 KB)', async () => {
      const lines = ['localCache:'];
      for (let i = 0; lines.join('\n').length < 80_000 && i < 100_000; i++) lines.push(`  key${i}: value`);
      const r = await probed(() => monitor.post('/rest/v2/caches?action=convert', lines.join('\n') + '\n', YAML));
      expect(r.status).to.equal(400);
    });

    it('answers 400, not 500, to documents nested 10,000 deep in XML, JSON and YAML', async () => {
      const deep: Array<[string, Record<string, string>]> = [
        ['<a>'.repeat(10_000) + '</a>'.repeat(10_000), XML],
        ['{"local-cache":' + '{"memory":'.repeat(10_000) + '1' + '}'.repeat(10_001), JSON_TYPE],
        ['localCache: ' + '['.repeat(10_000) + ']'.repeat(10_000), YAML],
        ['a:\n' + Array.from({ length: 1_000 }, (_, i) => ' '.repeat(i + 1) + `k${i}:`).join('\n') + ' 1\n', YAML],
      ];
      for (const [body, headers] of deep) {
        const r = await probed(() => monitor.post('/rest/v2/caches?action=convert', body, headers));
        expect(r.status, body.slice(0, 40)).to.equal(400);
        expect(r.text).to.match(/nested|config-depth|Cannot find a parser/);
      }
    });

    it('answers 413 with a reason to a body over config-bytes, and still converts a normal one', async () => {
      const body = `<local-cache><!-- ${'x'.repeat(2 * 1024 * 1024)} --></local-cache>`;
      const r = await probed(() => monitor.post('/rest/v2/caches?action=convert', body, XML));
      expect(r.status).to.equal(413);
      expect(r.text).to.contain('1048576');
      const ok = await monitor.post('/rest/v2/caches?action=convert', '<local-cache statistics="true"/>', XML);
      expect(ok.status).to.equal(200);
      expect(ok.json()).to.deep.equal({ 'local-cache': { statistics: true } });
    });
  });

  describe('POST /rest/v2/caches/{name} and PUT', () => {
    it('refuses the same hostile documents on create and update', async () => {
      const r = await probed(() => admin.post('/rest/v2/caches/hostile', xmlAttributes(30_000), XML));
      expect(r.status).to.equal(400);
      const u = await probed(() => admin.put('/rest/v2/caches/hostile', `<local-cache>${'<memory/>'.repeat(20_000)}</local-cache>`, XML));
      expect(u.status).to.equal(400);
      expect((await admin.head('/rest/v2/caches/hostile')).status).to.equal(404);
    });
  });

  describe('POST /rest/v2/schemas/{name}', () => {
    it('answers 400 to a 180 KB schema of 5,000 fields in one message', async () => {
      const r = await probed(() => admin.post('/rest/v2/schemas/wide', protoFile(1, 5_000)));
      expect(r.status).to.equal(400);
      expect(r.text).to.contain('limit schema-fields');
      expect((await admin.get('/rest/v2/schemas/wide')).status).to.equal(404);
    });

    it('registers 5,000 fields spread over ten messages, and the next schema too, without a stall', async () => {
      const r = await probed(() => admin.post('/rest/v2/schemas/spread', protoFile(10, 500)));
      expect(r.status).to.equal(201);
      expect(r.json()).to.deep.equal({ name: 'spread.proto', error: null });
      const next = await probed(() => admin.post('/rest/v2/schemas/next', 'package nxt;\nmessage N { optional string s = 1; }\n'));
      expect(next.status).to.equal(201);
      const types = (await admin.get('/rest/v2/schemas?action=types')).json<string[]>();
      expect(types).to.include.members(['big.M0', 'big.M9', 'nxt.N']);
    });
  });

  describe('PUT /rest/v2/caches/___protobuf_metadata/{name}', () => {
    const metadata = (name: string) => `/rest/v2/caches/___protobuf_metadata/${name}`;

    it('answers 400 to a 2.6 MB schema (over schema-bytes)', async () => {
      const body = protoFile(2_000, 40);
      expect(body.length).to.be.greaterThan(2_500_000);
      const r = await probed(() => admin.put(metadata('huge.proto'), body, { 'Content-Type': 'text/plain' }));
      expect(r.status).to.equal(400);
      expect(r.text).to.contain('limit schema-bytes');
    });

    it('stores a schema just under 1 MiB and uses its types, without a stall', async () => {
      const body = protoFile(700, 40);
      expect(body.length).to.be.within(900_000, 1_048_576);
      const r = await probed(() => admin.put(metadata('large.proto'), body, { 'Content-Type': 'text/plain' }));
      expect(r.status).to.equal(204);
      await admin.createCache('typed', { 'local-cache': { encoding: { 'media-type': 'application/x-protostream' } } });
      const put = await probed(() => admin.put('/rest/v2/caches/typed/k', JSON.stringify({ _type: 'big.M699', field_40: 'x' }), { 'Content-Type': 'application/json' }));
      expect(put.status).to.equal(204);
      const get = await admin.get('/rest/v2/caches/typed/k', { Accept: 'application/json' });
      expect(get.json()).to.deep.equal({ _type: 'big.M699', field_40: 'x' });
    });
  });

  describe('GET /rest/v2/server/report', () => {
    it('streams a report holding 25 MB of logs without a stall', async () => {
      const logs = join(server.dataDir, 'log');
      mkdirSync(logs, { recursive: true });
      for (let i = 1; i <= 5; i++) writeFileSync(join(logs, `server.log.json.${i}`), randomBytes(3_750_000).toString('base64'));
      const { result, probe } = await whileProbing(server.url, () => download(server.url + '/rest/v2/server/report', 'admin:admin-pw'));
      expectResponsive(probe);
      expect(result.status).to.equal(200);
      expect(result.bytes).to.be.greaterThan(10_000_000);
    });
  });

  describe('GET /rest/v2/caches/{name}?action=search over a large cache', () => {
    // more than ON_LOOP_CANDIDATES (src/store/sqlite-index.store.ts): statements of these queries
    // run on the reader thread; the scan reads packed pages a few ms at a time
    const ENTRIES = 3_000;
    const SCHEMA = `package loop;
/* @Indexed */
message Item {
  /* @Basic(sortable = true, aggregable = true) */ optional int32 rank = 1;
  /* @Keyword(sortable = true) */ optional string name = 2;
  /* @Text */ optional string text = 3;
  optional int32 plain = 4;
}`;
    const search = async (cache: string, q: string, params = ''): Promise<{ hit_count: number; hit_count_exact: boolean; hits: Array<{ hit: Record<string, unknown> }> }> => {
      const r = await probed(() => admin.get(`/rest/v2/caches/${cache}?action=search&query=${encodeURIComponent(q)}${params}`));
      expect(r.status, r.text).to.equal(200);
      return r.json();
    };

    before(async function () {
      this.timeout(120_000);
      expect((await admin.post('/rest/v2/schemas/loop.proto', SCHEMA)).status).to.equal(201);
      const protostream = { encoding: { 'media-type': 'application/x-protostream' }, persistence: { 'file-store': {} } };
      await admin.createCache('loop-indexed', { 'local-cache': { ...protostream, indexing: { enabled: true, 'indexed-entities': ['loop.Item'] } } });
      await admin.createCache('loop-plain', { 'local-cache': protostream });
      let next = 0;
      await Promise.all(Array.from({ length: 32 }, async () => {
        while (next < ENTRIES) {
          const i = next++;
          const value = JSON.stringify({ _type: 'loop.Item', rank: i % 10, name: `n${String(i).padStart(5, '0')}`, text: i % 2 ? 'odd words' : 'even words', plain: i });
          for (const cache of ['loop-indexed', 'loop-plain']) {
            expect((await admin.put(`/rest/v2/caches/${cache}/k${i}`, value, { 'Content-Type': 'application/json' })).status).to.equal(204);
          }
        }
      }));
    });

    it('sorts, counts and groups every indexed entry without a stall', async () => {
      const sorted = await search('loop-indexed', 'select name from loop.Item order by rank desc, name desc', '&max_results=2&hit_count_accuracy=100000');
      expect(sorted).to.deep.equal({ hit_count: ENTRIES, hit_count_exact: true, hits: [{ hit: { name: 'n02999' } }, { hit: { name: 'n02989' } }] });
      const grouped = await search('loop-indexed', 'select rank, count(*) from loop.Item group by rank');
      expect(grouped.hits).to.have.length(10);
      expect(grouped.hits[3]).to.deep.equal({ hit: { rank: 3, 'COUNT(*)': ENTRIES / 10 } });
      const text = await search('loop-indexed', "select name from loop.Item where text : 'odd' and plain < 100 order by name", '&max_results=3');
      expect(text.hits.map((h) => h.hit.name)).to.deep.equal(['n00001', 'n00003', 'n00005']);
    });

    it('scans a persistent non-indexed cache without a stall', async () => {
      const found = await search('loop-plain', 'select name from loop.Item where plain = 1234 or rank = 11');
      expect(found).to.deep.equal({ hit_count: 1, hit_count_exact: true, hits: [{ hit: { name: 'n01234' } }] });
      const all = await search('loop-plain', 'select rank, count(*) from loop.Item group by rank order by rank desc', '&max_results=1');
      expect(all).to.deep.equal({ hit_count: 10, hit_count_exact: true, hits: [{ hit: { rank: 9, 'COUNT(*)': ENTRIES / 10 } }] });
    });
  });

  describe('everything at once', () => {
    it('keeps the probe answering while 16 clients send the hostile inputs together', async () => {
      const hostile = [
        () => monitor.post('/rest/v2/caches?action=convert', xmlAttributes(30_000), XML),
        () => admin.put('/rest/v2/schemas/wide2', protoFile(1, 5_000)),
        () => monitor.post('/rest/v2/caches?action=convert', `<local-cache>${'<memory/>'.repeat(20_000)}</local-cache>`, XML),
        () => download(server.url + '/rest/v2/server/report', 'admin:admin-pw'),
      ];
      const { result, probe } = await whileProbing(server.url, () => Promise.all(
        Array.from({ length: 16 }, (_, i) => hostile[i % hostile.length]()),
      ));
      expectResponsive(probe);
      for (const r of result) expect(r.status).to.be.oneOf([200, 400]);
    });
  });
});

/** GET with the body counted and dropped (decoding 25 MB as text would stall the test itself). */
function download(url: string, credentials: string): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { Authorization: `Basic ${Buffer.from(credentials).toString('base64')}` } }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => { bytes += chunk.length; });
      res.once('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
      res.once('error', reject);
    });
    req.once('error', reject);
    req.end();
  });
}

import { expect } from 'chai';
import type { Client } from '../support/client';
import { putAllJson, registerSchema, search, searchOk, type SearchParams } from '../support/search';
import { useServer } from '../support/server';
import { STALL_BOUND_MS, whileProbing } from '../support/stall-probe';

const SCHEMA = `package budget;
/* @Indexed */
message Doc {
  /* @Basic(sortable = true) */ optional int32 id = 1;
  /* @Keyword(sortable = true) */ optional string name = 2;
  /* @Text */ optional string text = 3;
  optional string pad = 4;
}`;
const TYPE = 'budget.Doc';
const WIDE_FIELDS = 70;
const WIDE_SCHEMA = `package wide;
/* @Indexed */
message Wide {
${Array.from({ length: WIDE_FIELDS }, (_, i) => `  /* @Basic(sortable = true) */ optional int32 f${i} = ${i + 1};`).join('\n')}
}`;

const PROTOSTREAM = { encoding: { 'media-type': 'application/x-protostream' } };
const plain = { 'local-cache': PROTOSTREAM };
const indexed = (entity: string) => ({ 'local-cache': { ...PROTOSTREAM, indexing: { enabled: true, 'indexed-entities': [entity] } } });
const ALL: SearchParams = { max_results: 2147483647 };

/** Entries d0…d(n-1): ids in order, ten distinct words each (a vocabulary of 10·n terms), `pad` of `padding` characters. */
function docs(n: number, padding = 0): Array<[string, unknown]> {
  return Array.from({ length: n }, (_, i) => [`d${i}`, {
    _type: TYPE, id: i, name: `n${String(i).padStart(5, '0')}`,
    text: Array.from({ length: 10 }, (_, w) => `w${i * 10 + w}`).join(' '), pad: 'p'.repeat(padding),
  }]);
}

/** The 400 JSON of a query the server refused: its cause. */
async function refusal(client: Client, cache: string, query: string, params: SearchParams = {}): Promise<string> {
  const r = await search(client, cache, query, params);
  expect(r.status, r.text).to.equal(400);
  const { error } = r.json<{ error: { message: string; cause: string } }>();
  expect(error.message).to.equal('Error executing search');
  return error.cause;
}

describe('query budgets: deadline (limit query-timeout)', function () {
  this.timeout(120_000);
  // a deadline of 1 ms: every query that still works once its first slice is spent is stopped
  const server = useServer({ limits: { queryTimeout: 1 } });
  const admin = server.as('admin');
  const observer = server.as('observer');

  before(async () => {
    await registerSchema(admin, 'budget.proto', SCHEMA);
    await admin.createCache('plain', plain);
    await admin.createCache('indexed', indexed(TYPE));
    await admin.createCache('tiny', plain);
    // more than the 2,000 candidates answered on the event loop: the indexed statements run on the reader thread
    const data = docs(3000, 200);
    await putAllJson(admin, 'plain', data);
    await putAllJson(admin, 'indexed', data);
    await putAllJson(admin, 'tiny', docs(3));
  });

  it('stops a scan, an index statement on the reader thread and a fuzzy expansion at the deadline, and keeps answering', async () => {
    const fuzzy = Array.from({ length: 300 }, (_, i) => `text : 'w${i * 7}'~2`).join(' OR ');
    const { result, probe } = await whileProbing(server.url, async () => [
      await refusal(observer, 'plain', `from ${TYPE} where pad like '%q%' or id > 1`, ALL),
      await refusal(observer, 'indexed', `from ${TYPE} where id >= 0 order by name desc`),
      await refusal(observer, 'indexed', `select count(*) from ${TYPE} where id >= 0 group by id`),
      await refusal(observer, 'indexed', `from ${TYPE} where ${fuzzy}`),
    ]);
    for (const cause of result) expect(cause).to.equal('The query did not complete within 1 ms (limit query-timeout)');
    expect(probe.failures).to.equal(0);
    expect(probe.worstMs).to.be.lessThan(STALL_BOUND_MS);
    // the server goes on answering (a query of its own may take more than 1 ms on a loaded machine)
    expect((await observer.get('/rest/v2/caches/tiny/d1')).status).to.equal(200);
  });

  it('needs BULK_READ as before: a monitor is refused before any query runs', async () => {
    expect((await search(server.as('monitor'), 'plain', `from ${TYPE}`)).status).to.equal(403);
  });
});

describe('query budgets: answer size (limits query-rows, query-answer-bytes)', function () {
  this.timeout(120_000);
  const server = useServer({ limits: { queryRows: 50, queryAnswerBytes: 100_000, queryExpansionTerms: 5_000 } });
  const admin = server.as('admin');
  const observer = server.as('observer');

  before(async () => {
    await registerSchema(admin, 'budget.proto', SCHEMA);
    await registerSchema(admin, 'wide.proto', WIDE_SCHEMA);
    for (const kind of ['plain', 'indexed']) {
      const config = kind === 'plain' ? plain : indexed(TYPE);
      await admin.createCache(`${kind}-60`, config);
      await admin.createCache(`${kind}-wide`, config);
      await admin.createCache(`${kind}-big`, config);
      await putAllJson(admin, `${kind}-60`, docs(60));
      await putAllJson(admin, `${kind}-wide`, docs(45, 2000));
      await putAllJson(admin, `${kind}-big`, docs(10, 12_000));
    }
    await admin.createCache('wide-sort', indexed('wide.Wide'));
    await putAllJson(admin, 'wide-sort', Array.from({ length: 6 }, (_, i) => [`w${i}`, {
      _type: 'wide.Wide', ...Object.fromEntries(Array.from({ length: WIDE_FIELDS }, (_, f) => [`f${f}`, f === WIDE_FIELDS - 1 ? i % 2 : i])),
    }]));
  });

  for (const kind of ['plain', 'indexed']) {
    describe(`on a ${kind} cache`, () => {
      const many = `${kind}-60`;

      it('answers max_results=2147483647 as the original while the matches fit in query-rows', async () => {
        const body = await searchOk(observer, many, `from ${TYPE} where id < 40 order by id`, ALL);
        expect(body.hit_count).to.equal(40);
        expect(body.hits.map((h) => h.hit.id)).to.deep.equal(Array.from({ length: 40 }, (_, i) => i));
        expect((await searchOk(observer, many, `from ${TYPE}`, { max_results: 50 })).hits).to.have.length(50);
        expect(await searchOk(observer, many, `from ${TYPE}`, { max_results: 0, offset: 1000 })).to.deep.equal({ hit_count: 60, hit_count_exact: true, hits: [] });
        expect((await searchOk(observer, many, `select id, count(*) from ${TYPE} group by id`, ALL)).hit_count).to.equal(60);
      });

      it('refuses with 400 an answer that would hold more than query-rows rows (offset + max_results)', async () => {
        const cause = 'The answer would hold more than 50 rows (offset + max_results); ask for a smaller page with offset and max_results (limit query-rows)';
        expect(await refusal(observer, many, `from ${TYPE}`, ALL)).to.equal(cause);
        expect(await refusal(observer, many, `from ${TYPE} order by id desc`, ALL)).to.equal(cause);
        expect(await refusal(observer, many, `select name from ${TYPE} where id >= 0 order by name`, { offset: 45, max_results: 10 })).to.equal(cause);
      });

      it('refuses with 400 an answer of more than query-answer-bytes, and writes a large one in parts with its length', async () => {
        const cause = 'The answer would hold more than 100000 bytes; ask for a smaller page with offset and max_results (limit query-answer-bytes)';
        expect(await refusal(observer, `${kind}-big`, `from ${TYPE}`, ALL)).to.equal(cause);
        const query = encodeURIComponent(`from ${TYPE} order by id`);
        const r = await observer.get(`/rest/v2/caches/${kind}-wide?action=search&max_results=2147483647&query=${query}`, { 'Accept-Encoding': 'identity' });
        expect(r.status, r.text).to.equal(200);
        expect(Number(r.headers.get('content-length'))).to.equal(r.bytes.length).and.to.be.greaterThan(64 * 1024);
        const body = r.json<{ hit_count: number; hits: Array<{ hit: { id: number; pad: string } }> }>();
        expect(body.hit_count).to.equal(45);
        expect(body.hits.map((h) => h.hit.id)).to.deep.equal(Array.from({ length: 45 }, (_, i) => i));
        expect(body.hits.every((h) => h.hit.pad.length === 2000)).to.equal(true);
      });
    });
  }

  describe('full-text expansion on the index (limit query-expansion-terms)', () => {
    it('expands fuzzy and regexp terms over the vocabulary until query-expansion-terms terms were looked at, then answers 400', async () => {
      // 60 entries of ten words: a vocabulary of 600 terms, looked at once per fuzzy or regexp term
      const eight = Array.from({ length: 8 }, (_, i) => `text : 'w${i * 50}'~1`).join(' OR ');
      expect((await searchOk(observer, 'indexed-60', `from ${TYPE} where ${eight}`)).hit_count).to.be.greaterThan(7);
      expect((await searchOk(observer, 'indexed-60', `from ${TYPE} where text : /w59[0-9]/`, ALL)).hit_count).to.equal(1);
      const cause = "The query's fuzzy, wildcard, regexp and range terms would look at more than 5000 terms of the index; use fewer or more specific terms (limit query-expansion-terms)";
      const nine = Array.from({ length: 9 }, (_, i) => `text : 'w${i * 50}'~1`).join(' OR ');
      expect(await refusal(observer, 'indexed-60', `from ${TYPE} where ${nine}`)).to.equal(cause);
      const regexps = Array.from({ length: 9 }, (_, i) => `text : /w${i}.*/`).join(' OR ');
      expect(await refusal(observer, 'indexed-60', `from ${TYPE} where ${regexps}`)).to.equal(cause);
    });
  });

  describe('long conditions on an indexed cache', () => {
    it('answers 600 OR-ed equalities and 1,200 AND-ed inequalities (SQLite refuses 500 UNION terms and expressions 1,000 deep)', async () => {
      const anyOf = Array.from({ length: 600 }, (_, i) => `id = ${i}`).join(' OR ');
      expect((await searchOk(observer, 'indexed-60', `from ${TYPE} where ${anyOf}`, {}, 'POST')).hit_count).to.equal(60);
      const noneOf = Array.from({ length: 1200 }, (_, i) => `name != 'x${i}'`).join(' AND ');
      expect((await searchOk(observer, 'indexed-60', `from ${TYPE} where id < 5 and ${noneOf}`, {}, 'POST')).hit_count).to.equal(5);
    });
  });

  describe('ORDER BY with many keys on an indexed cache', () => {
    it('answers 150 keys naming one field again and again as ORDER BY that field', async () => {
      const keys = Array.from({ length: 150 }, (_, i) => (i % 2 ? 'id asc' : 'id desc')).join(', ');
      const body = await searchOk(observer, 'indexed-60', `select id from ${TYPE} where id < 30 order by ${keys}`, { max_results: 5 });
      expect(body).to.deep.equal({ hit_count: 30, hit_count_exact: true, hits: [29, 28, 27, 26, 25].map((id) => ({ hit: { id } })) });
    });

    it('sorts by more distinct fields than SQLite joins in memory, in the right order', async () => {
      const keys = [`f${WIDE_FIELDS - 1}`, ...Array.from({ length: WIDE_FIELDS - 1 }, (_, i) => `f${i} desc`)].join(', ');
      const body = await searchOk(observer, 'wide-sort', `select f0 from wide.Wide order by ${keys}`, ALL);
      expect(body.hits.map((h) => h.hit.f0)).to.deep.equal([4, 2, 0, 5, 3, 1]);
    });
  });
});

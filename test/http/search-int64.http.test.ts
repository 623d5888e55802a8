import Database from 'better-sqlite3';
import { expect } from 'chai';
import { join } from 'node:path';
import type { Client, Reply } from '../support/client';
import { registerSchema, search, searchError, type Via } from '../support/search';
import { useServer, withServer } from '../support/server';

/**
 * 64-bit integers in queries (docs/query.md "64-bit integers"): every int64, uint64, sint64,
 * fixed64 and sfixed64 value is a Java long, exact in literals, comparisons, index ranges, sorting,
 * grouping, aggregates and the JSON answer. Answers are checked as raw text: JSON.parse would round
 * the very digits under test.
 */
const EVENT_PROTO = `package tl;

/* @Indexed */
message Event {
  /* @Basic(projectable = true, sortable = true, aggregable = true) */
  optional string name = 1;
  /* @Basic(projectable = true, sortable = true, aggregable = true) */
  optional int64 creationDate = 2;
  /* @Basic(projectable = true, sortable = true, aggregable = true) */
  optional uint64 counter = 3;
  /* @Basic(projectable = true, sortable = true) */
  optional sint64 delta = 4;
  /* @Basic(projectable = true, sortable = true) */
  optional fixed64 stamp = 5;
  /* @Basic(projectable = true, sortable = true) */
  optional sfixed64 shift = 6;
  /* @Basic(projectable = true, sortable = true) */
  optional double ratio = 7;
  repeated int64 marks = 8;
}
`;

const TWO_53 = '9007199254740992';
const TWO_53_PLUS_1 = '9007199254740993';
const LONG_MIN = '-9223372036854775808';
const LONG_MAX = '9223372036854775807';

/** Values as JSON text, written in this order: `a` (2^53 + 1) before `b` (2^53), so an index that rounds both ties them in `a, b` order. */
const EVENTS: Array<[string, string]> = [
  ['a', `{"_type":"tl.Event","name":"a","creationDate":${TWO_53_PLUS_1},"counter":18446744073709551615,"delta":-${TWO_53_PLUS_1},"stamp":${TWO_53_PLUS_1},"shift":-${TWO_53_PLUS_1},"ratio":2.5,"marks":[${TWO_53_PLUS_1},1]}`],
  ['b', `{"_type":"tl.Event","name":"b","creationDate":${TWO_53},"counter":1,"delta":-${TWO_53},"stamp":${TWO_53},"shift":-${TWO_53},"ratio":2,"marks":[${TWO_53}]}`],
  ['c', `{"_type":"tl.Event","name":"c","creationDate":${LONG_MIN},"counter":9223372036854775808}`],
  ['d', `{"_type":"tl.Event","name":"d","creationDate":${LONG_MAX},"ratio":1}`],
  ['e', `{"_type":"tl.Event","name":"e","creationDate":1,"ratio":3}`],
];

const PROTOSTREAM = { encoding: { 'media-type': 'application/x-protostream' } };
const CACHES: Record<string, unknown> = {
  'events-heap': { 'local-cache': { ...PROTOSTREAM } },
  'events-indexed': { 'local-cache': { ...PROTOSTREAM, indexing: { enabled: true, 'indexed-entities': ['tl.Event'] } } },
};

async function putEvents(client: Client, cache: string): Promise<void> {
  for (const [key, json] of EVENTS) {
    const r = await client.put(`/rest/v2/caches/${cache}/${key}`, json, { 'Content-Type': 'application/json' });
    expect(r.status, r.text).to.equal(204);
  }
}

/** A 200 answer's `hits` array exactly as the server wrote it. */
async function hitsText(client: Client, cache: string, query: string, via: Via = 'GET'): Promise<string> {
  const r: Reply = await search(client, cache, query, { max_results: 100 }, via);
  expect(r.status, `${query}: ${r.text}`).to.equal(200);
  const at = r.text.indexOf('"hits":');
  return r.text.slice(at + '"hits":'.length, -1);
}

/** The `name` of each hit, in answer order (names are strings: JSON.parse keeps them). */
async function names(client: Client, cache: string, query: string, via: Via = 'GET'): Promise<string[]> {
  const r = await search(client, cache, query, { max_results: 100 }, via);
  expect(r.status, `${query}: ${r.text}`).to.equal(200);
  return r.json<{ hits: Array<{ hit: { name: string } }> }>().hits.map((h) => h.hit.name);
}

const rows = (...hits: string[]): string => `[${hits.map((h) => `{"hit":{${h}}}`).join(',')}]`;

describe('search: 64-bit integers are Java longs (docs/query.md "64-bit integers")', () => {
  const server = useServer();
  const admin = server.as('admin');

  before(async () => {
    await registerSchema(admin, 'tl-event.proto', EVENT_PROTO);
    for (const [name, config] of Object.entries(CACHES)) {
      await admin.createCache(name, config);
      await putEvents(admin, name);
    }
  });

  for (const cache of Object.keys(CACHES)) {
    describe(`GET|POST /rest/v2/caches/${cache}?action=search`, () => {
      for (const via of ['GET', 'POST'] as Via[]) {
        it(`finds exactly the equal value, 2^53 + 1 apart from 2^53 (${via})`, async () => {
          expect(await names(admin, cache, `from tl.Event where creationDate = ${TWO_53_PLUS_1}`, via)).to.deep.equal(['a']);
          expect(await names(admin, cache, `from tl.Event where creationDate = ${TWO_53}`, via)).to.deep.equal(['b']);
          expect(await names(admin, cache, `from tl.Event where creationDate != ${TWO_53} order by name`, via)).to.deep.equal(['a', 'c', 'd', 'e']);
          expect(await names(admin, cache, `from tl.Event where creationDate in (${TWO_53_PLUS_1}, 1) order by name`, via)).to.deep.equal(['a', 'e']);
          expect(await names(admin, cache, `from tl.Event where marks = ${TWO_53_PLUS_1}`, via)).to.deep.equal(['a']);
          expect(await names(admin, cache, `from tl.Event where creationDate > 1 and marks = '${TWO_53}'`, via)).to.deep.equal(['b']);
        });
      }

      it('compares ranges exactly, Long.MIN_VALUE and Long.MAX_VALUE included', async () => {
        expect(await names(admin, cache, `from tl.Event where creationDate > ${TWO_53} order by name`)).to.deep.equal(['a', 'd']);
        expect(await names(admin, cache, `from tl.Event where creationDate >= ${TWO_53_PLUS_1} order by name`)).to.deep.equal(['a', 'd']);
        expect(await names(admin, cache, `from tl.Event where creationDate < ${TWO_53_PLUS_1} order by name`)).to.deep.equal(['b', 'c', 'e']);
        expect(await names(admin, cache, `from tl.Event where creationDate between 2 and ${TWO_53} order by name`)).to.deep.equal(['b']);
        expect(await names(admin, cache, `from tl.Event where creationDate < -9223372036854775807`)).to.deep.equal(['c']);
        expect(await names(admin, cache, `from tl.Event where creationDate >= ${LONG_MAX}`)).to.deep.equal(['d']);
      });

      it('sorts by the exact value, both ways', async () => {
        expect(await names(admin, cache, 'from tl.Event order by creationDate')).to.deep.equal(['c', 'e', 'b', 'a', 'd']);
        expect(await names(admin, cache, 'from tl.Event order by creationDate desc')).to.deep.equal(['d', 'a', 'b', 'e', 'c']);
        expect(await names(admin, cache, 'from tl.Event where stamp > 0 order by shift desc')).to.deep.equal(['b', 'a']);
      });

      it('projects exact values for every 64-bit kind', async () => {
        expect(await hitsText(admin, cache, "select creationDate from tl.Event where name in ('a', 'c', 'd') order by name")).to.equal(rows(
          `"creationDate":${TWO_53_PLUS_1}`, `"creationDate":${LONG_MIN}`, `"creationDate":${LONG_MAX}`,
        ));
        expect(await hitsText(admin, cache, `select delta, stamp, shift from tl.Event where stamp = ${TWO_53_PLUS_1}`)).to.equal(rows(
          `"delta":-${TWO_53_PLUS_1},"stamp":${TWO_53_PLUS_1},"shift":-${TWO_53_PLUS_1}`,
        ));
        expect(await hitsText(admin, cache, `from tl.Event where delta = -${TWO_53_PLUS_1}`)).to.equal(`[{"hit":${EVENTS[0][1]}}]`);
      });

      it('reads uint64 as a Java long (2^64 - 1 is -1), the entity JSON keeping it unsigned; a literal beyond Long is ISPN028505', async () => {
        expect(await hitsText(admin, cache, 'select name, counter from tl.Event where counter < 0 order by counter')).to.equal(rows(
          `"name":"c","counter":${LONG_MIN}`, '"name":"a","counter":-1',
        ));
        expect(await names(admin, cache, 'from tl.Event where counter = -1')).to.deep.equal(['a']);
        expect(await hitsText(admin, cache, "from tl.Event where name = 'a'")).to.contain('"counter":18446744073709551615');
        const error = await searchError(admin, cache, 'from tl.Event where counter = 18446744073709551615');
        expect(error.cause).to.equal("ISPN028505: Invalid numeric literal '18446744073709551615'");
      });

      it('answers MIN, MAX, COUNT and SUM as exact longs, SUM wrapping around as a Java long', async () => {
        expect(await hitsText(admin, cache, 'select min(creationDate), max(creationDate), count(creationDate) from tl.Event')).to.equal(rows(
          `"MIN(creationDate)":${LONG_MIN},"MAX(creationDate)":${LONG_MAX},"COUNT(creationDate)":5`,
        ));
        expect(await hitsText(admin, cache, `select sum(creationDate) from tl.Event where creationDate > 1 and creationDate < ${LONG_MAX}`)).to.equal(rows(
          '"SUM(creationDate)":18014398509481985',
        ));
        // 2^53 + 1 + 2^53 + (2^63 - 1) = 2^63 + 2^54, past Long.MAX_VALUE: Java wraps to 2^54 - 2^63
        expect(await hitsText(admin, cache, 'select sum(creationDate) from tl.Event where creationDate > 1')).to.equal(rows(
          '"SUM(creationDate)":-9205357638345293824',
        ));
        expect(await hitsText(admin, cache, "select sum(stamp), sum(shift) from tl.Event where name = 'a'")).to.equal(rows(
          `"SUM(stamp)":${TWO_53_PLUS_1},"SUM(shift)":-${TWO_53_PLUS_1}`,
        ));
      });

      it('answers AVG as the original\'s double: a compensated sum of the values as doubles, over the count', async () => {
        // 2^53 and 1 as doubles: the original's DoubleStat gives sum + compensation = 2^53 - 1, halved
        const r = await search(admin, cache, "select avg(creationDate) from tl.Event where name in ('b', 'e')");
        expect(r.json<{ hits: Array<{ hit: Record<string, number> }> }>().hits[0].hit['AVG(creationDate)']).to.equal(4503599627370495.5);
        const ratio = await search(admin, cache, 'select avg(ratio), sum(ratio) from tl.Event');
        expect(ratio.json<{ hits: Array<{ hit: Record<string, number> }> }>().hits[0].hit).to.deep.equal({ 'AVG(ratio)': 2.125, 'SUM(ratio)': 8.5 });
      });

      it('groups by the exact value, in the index and in memory, and filters groups with HAVING', async () => {
        expect(await hitsText(admin, cache, 'select creationDate, count(name) from tl.Event where creationDate > 1 group by creationDate')).to.equal(rows(
          `"creationDate":${TWO_53},"COUNT(name)":1`, `"creationDate":${TWO_53_PLUS_1},"COUNT(name)":1`, `"creationDate":${LONG_MAX},"COUNT(name)":1`,
        ));
        expect(await hitsText(admin, cache, 'select creationDate, sum(stamp), max(delta) from tl.Event where stamp > 0 group by creationDate')).to.equal(rows(
          `"creationDate":${TWO_53},"SUM(stamp)":${TWO_53},"MAX(delta)":-${TWO_53}`,
          `"creationDate":${TWO_53_PLUS_1},"SUM(stamp)":${TWO_53_PLUS_1},"MAX(delta)":-${TWO_53_PLUS_1}`,
        ));
        expect(await hitsText(admin, cache, `select creationDate, count(name) from tl.Event group by creationDate having max(creationDate) > ${TWO_53} and max(creationDate) < ${LONG_MAX}`)).to.equal(rows(
          `"creationDate":${TWO_53_PLUS_1},"COUNT(name)":1`,
        ));
      });

      it('keeps comparing double fields with integer literals', async () => {
        expect(await names(admin, cache, 'from tl.Event where ratio > 2 order by name')).to.deep.equal(['a', 'e']);
        expect(await names(admin, cache, 'from tl.Event where ratio = 2')).to.deep.equal(['b']);
        expect(await names(admin, cache, `from tl.Event where ratio < ${TWO_53_PLUS_1} order by ratio`)).to.deep.equal(['d', 'b', 'a', 'e']);
      });

      it('answers the v1 endpoint with exact projections', async () => {
        const r = await admin.get(`/rest/${cache}?action=search&query=${encodeURIComponent(`select creationDate from tl.Event where creationDate = ${TWO_53_PLUS_1}`)}`);
        expect(r.status, r.text).to.equal(200);
        expect(r.text).to.equal(`{"total_results":1,"hits":[{"hit":{"creationDate":${TWO_53_PLUS_1}}}]}`);
      });
    });
  }

  describe('permissions', () => {
    it('lets an observer (BULK_READ) search exactly, and refuses a monitor with 403', async () => {
      expect(await hitsText(server.as('observer'), 'events-indexed', `select creationDate from tl.Event where creationDate = ${TWO_53_PLUS_1}`)).to.equal(rows(
        `"creationDate":${TWO_53_PLUS_1}`,
      ));
      const r = await search(server.as('monitor'), 'events-indexed', `from tl.Event where creationDate = ${TWO_53_PLUS_1}`);
      expect(r.status).to.equal(403);
    });
  });

  describe('aggregates in WHERE', () => {
    it('answers ISPN028515 for an aggregate on the right side of a comparison, as for one on the left', async () => {
      for (const query of ['from tl.Event e where e.name = MIN(e.name)', 'from tl.Event e where MAX(e.creationDate) > 1']) {
        const error = await searchError(admin, 'events-heap', query);
        expect(error).to.deep.equal({ message: 'Error executing search', cause: `ISPN028515: Cannot have aggregate functions in the WHERE clause : ${query.includes('MIN') ? 'MIN' : 'MAX'}.` });
      }
    });
  });

  describe('a persistent index written before 64-bit integers were exact', () => {
    it('is indexed again from the entries at the next start, then answers exactly', async function () {
      this.timeout(60_000);
      await withServer({}, async (server) => {
        await registerSchema(server.as('admin'), 'tl-event.proto', EVENT_PROTO);
        await server.as('admin').createCache('events-stored', { 'local-cache': { ...PROTOSTREAM, persistence: { 'file-store': {} }, indexing: { enabled: true, 'indexed-entities': ['tl.Event'] } } });
        await putEvents(server.as('admin'), 'events-stored');
        await server.stop();
        const db = new Database(join(server.dataDir, 'grid.db'));
        try { // what earlier versions wrote: values beyond 2^53 as rounded REALs
          db.exec(`UPDATE index_values SET value = CAST(value AS REAL) WHERE typeof(value) = 'integer' AND (value > 9007199254740991 OR value < -9007199254740991);
            DELETE FROM schema_migrations WHERE version >= 13`);
        } finally {
          db.close();
        }
        await server.start();
        const query = `from tl.Event where creationDate = ${TWO_53_PLUS_1}`;
        let found: string[] = [];
        for (let i = 0; i < 400 && found.length !== 1; i++) {
          found = await names(server.as('admin'), 'events-stored', query);
          if (found.length !== 1) await new Promise((resolve) => setTimeout(resolve, 25));
        }
        expect(found).to.deep.equal(['a']);
        expect(await names(server.as('admin'), 'events-stored', 'from tl.Event order by creationDate')).to.deep.equal(['c', 'e', 'b', 'a', 'd']);
      });
    });
  });

  describe('DELETE /rest/v2/caches/{cache}?action=deleteByQuery', () => {
    for (const [cache, config] of Object.entries(CACHES)) {
      it(`removes only the entry equal to 2^53 + 1 (${cache})`, async () => {
        const name = `${cache}-delete`;
        await admin.createCache(name, config);
        await putEvents(admin, name);
        const r = await admin.delete(`/rest/v2/caches/${name}?action=deleteByQuery&query=${encodeURIComponent(`DELETE FROM tl.Event WHERE creationDate = ${TWO_53_PLUS_1}`)}`);
        expect(r.status, r.text).to.equal(200);
        expect(r.json<{ hit_count: number }>().hit_count).to.equal(1);
        expect(await names(admin, name, 'from tl.Event order by name')).to.deep.equal(['b', 'c', 'd', 'e']);
      });
    }
  });
});

import { expect } from 'chai';
import { PERSON, PERSON_PROTO, PERSON_PROTO_LEGACY, people, ENTITY_PROTO } from '../support/query-fixtures';
import { type LegacyBody, putJson, registerSchema, search, searchError, searchOk, type Via } from '../support/search';
import { useServer } from '../support/server';

const PROTOSTREAM = { encoding: { 'media-type': 'application/x-protostream' } };

/** The cache kinds of BaseRestSearchTest this server has (docs/reference/query.md#scenario-person). */
const INDEXED = { indexing: { enabled: true, 'indexed-entities': [PERSON] } };
export const SEARCH_CACHES: Record<string, unknown> = {
  'people-heap': { 'local-cache': { ...PROTOSTREAM } },
  'people-store': { 'local-cache': { ...PROTOSTREAM, persistence: { 'file-store': {} } } },
  'people-indexed': { 'local-cache': { ...PROTOSTREAM, statistics: true, ...INDEXED } },
  'people-indexed-store': { 'local-cache': { ...PROTOSTREAM, statistics: true, ...INDEXED, persistence: { 'file-store': {} } } },
};

describe('search /rest/v2/caches/{cache}?action=search', () => {
  const server = useServer();
  const admin = server.as('admin');

  before(async () => {
    await registerSchema(admin, 'person.proto', PERSON_PROTO);
    for (const [name, config] of Object.entries(SEARCH_CACHES)) {
      await admin.createCache(name, config);
      for (const [key, person] of people()) await putJson(admin, name, key, person);
    }
  });

  for (const cache of Object.keys(SEARCH_CACHES)) {
    for (const via of ['GET', 'POST'] as Via[]) {
      describe(`GET|POST ?action=search on ${cache} by ${via} (BaseRestSearchTest)`, () => {
        it('answers 400 naming the unknown type', async () => {
          const error = await searchError(admin, cache, 'from Whatever', via);
          expect(error).to.deep.equal({ message: 'Error executing search', cause: 'Unknown type name : Whatever' });
        });

        it('finds nobody, then Luke Cage by surname', async () => {
          expect((await searchOk(admin, cache, `from ${PERSON} p where p.name = 'nobody'`, {}, via)).hits).to.deep.equal([]);
          const r = await searchOk(admin, cache, `from ${PERSON} p where p.surname = 'Cage'`, {}, via);
          expect(r.hit_count).to.equal(1);
          expect(r.hits[0].hit).to.include({ _type: PERSON, id: 2, name: 'Luke', surname: 'Cage' });
        });

        it('combines conditions: three men among ids below 5', async () => {
          const r = await searchOk(admin, cache, `from ${PERSON} p where p.id < 5 and p.gender = 'MALE'`, {}, via);
          expect([r.hit_count, r.hits.length]).to.deep.equal([3, 3]);
        });

        it('projects name and surname of all 50, ten by default', async () => {
          const r = await searchOk(admin, cache, `Select name, surname from ${PERSON}`, {}, via);
          expect([r.hit_count, r.hits.length]).to.deep.equal([50, 10]);
          for (const { hit } of r.hits) expect(Object.keys(hit).sort()).to.deep.equal(['name', 'surname']);
        });

        it('groups by gender, enums ordered by number (MALE first)', async () => {
          const r = await searchOk(admin, cache, `select p.gender, count(p.name) from ${PERSON} p where p.id < 5 group by p.gender order by p.gender`, {}, via);
          expect(r.hit_count).to.equal(2);
          expect(r.hits.map((h) => h.hit['COUNT(name)'])).to.deep.equal([3, 1]);
          expect(r.hits.map((h) => h.hit.gender)).to.deep.equal([0, 1]);
        });

        it('pages a sorted projection: offset 2, max 2 of 4', async () => {
          const r = await searchOk(admin, cache, `select p.name from ${PERSON} p where p.id < 5 order by p.name desc`, { offset: 2, max_results: 2 }, via);
          expect([r.hit_count, r.hit_count_exact]).to.deep.equal([4, true]);
          expect(r.hits.map((h) => h.hit.name)).to.deep.equal(['Jessica', 'Danny']);
        });

        it('counts all 50; max_results 0 counts only', async () => {
          expect((await searchOk(admin, cache, `from ${PERSON}`, {}, via)).hit_count).to.equal(50);
          const r = await searchOk(admin, cache, `from ${PERSON}`, { max_results: 0 }, via);
          expect([r.hit_count, r.hits]).to.deep.equal([50, []]);
        });

        it('refuses full-text on a field that is not analyzed (ISPN028521)', async () => {
          const error = await searchError(admin, cache, `from ${PERSON} where id:1`, via);
          expect(error.cause).to.contain('ISPN028521');
        });
      });
    }
  }

  describe('GET|POST ?action=search request errors', () => {
    it('answers 400 JSON when the query is missing (GET) or the body is empty (POST)', async () => {
      const get = await admin.get('/rest/v2/caches/people-heap?action=search');
      expect([get.status, get.json()]).to.deep.equal([400, { error: { message: "Invalid search request, missing 'query' parameter", cause: null } }]);
      expect(get.headers.get('content-type')).to.contain('application/json');
      const post = await admin.post('/rest/v2/caches/people-heap?action=search', '');
      expect([post.status, post.json()]).to.deep.equal([400, { error: { message: 'Invalid search request', cause: null } }]);
      const noQuery = await admin.post('/rest/v2/caches/people-heap?action=search', '{"max_results":3}');
      expect(noQuery.json()).to.deep.equal({ error: { message: "Invalid search request, missing 'query' parameter", cause: null } });
    });

    it('answers 400 plain text for a number that does not parse, and for malformed JSON', async () => {
      const r = await admin.get(`/rest/v2/caches/people-heap?action=search&query=from%20${PERSON}&max_results=ten`);
      expect([r.status, r.text]).to.deep.equal([400, 'For input string: "ten"']);
      const bad = await admin.post('/rest/v2/caches/people-heap?action=search', '{"query":');
      expect(bad.status).to.equal(400);
      expect(bad.headers.get('content-type')).to.contain('text/plain');
    });

    it('refuses a query longer than 100,000 characters before parsing it', async () => {
      const long = `from ${PERSON} where name in (${Array.from({ length: 20_000 }, (_, i) => `'n${i}'`).join(',')})`;
      const r = await admin.post('/rest/v2/caches/people-heap?action=search', JSON.stringify({ query: long }));
      expect([r.status, r.json()]).to.deep.equal([400, { error: { message: 'Error executing search', cause: 'The query is longer than 100000 characters' } }]);
    });

    it('reports syntax errors with line and column (ISPN028526)', async () => {
      const error = await searchError(admin, 'people-heap', `select p.* from ${PERSON} p`);
      expect(error.message).to.equal('Error executing search');
      expect(error.cause).to.match(/^ISPN028526: Invalid query: select p\.\* from .*; Parser error messages: \[\[.*\]: line 1:9 mismatched token/);
    });

    it('answers 400 ISPN028015 for a cache whose values are not queryable', async () => {
      await admin.createCache('json-values', { 'local-cache': { encoding: { 'media-type': 'application/json' } } });
      const error = await searchError(admin, 'json-values', `from ${PERSON}`);
      expect(error.cause).to.equal("ISPN028015: Cache 'json-values' with storage type 'application/json' cannot be queried. Please configure the cache encoding as 'application/x-protostream' or 'application/x-java-object'");
    });

    it('answers 400 ISPN028510 in a java-object cache, whose classes this server does not have', async () => {
      await admin.createCache('java-values', { 'local-cache': { encoding: { 'media-type': 'application/x-java-object' } } });
      expect((await searchError(admin, 'java-values', 'from Whatever')).cause).to.equal('ISPN028510: Unknown entity name Whatever');
    });

    it('refuses a DELETE statement unless paging is the cache default (ISPN014057)', async () => {
      const r = await search(admin, 'people-heap', `DELETE FROM ${PERSON} WHERE id > 100`, { max_results: 10 }, 'POST');
      expect([r.status, r.json()]).to.deep.equal([400, { error: { message: 'Error executing search', cause: 'ISPN014057: DELETE statements cannot use paging (firstResult/maxResults)' } }]);
    });

    it('answers 404 for an unknown cache and 403 without BULK_READ', async () => {
      expect((await admin.get(`/rest/v2/caches/nope?action=search&query=from%20${PERSON}`)).status).to.equal(404);
      expect((await server.as('monitor').get(`/rest/v2/caches/people-heap?action=search&query=from%20${PERSON}`)).status).to.equal(403);
      expect((await server.as('observer').get(`/rest/v2/caches/people-heap?action=search&query=from%20${PERSON}`)).status).to.equal(200);
    });
  });

  describe('a DELETE statement through ?action=search', () => {
    const size = async (cache: string): Promise<string> => (await admin.get(`/rest/v2/caches/${cache}?action=size`)).text;
    const DELETE_ALL = `DELETE FROM ${PERSON}`;

    for (const cache of ['people-heap', 'people-store']) {
      it(`is refused through GET (v2 and v1), even for the admin, and ${cache} keeps every entry`, async () => {
        const cause = 'A DELETE statement changes data and does not run through GET: send it with POST ?action=search or POST|DELETE ?action=deleteByQuery';
        const v2 = await search(admin, cache, DELETE_ALL, { max_results: -1 });
        expect([v2.status, v2.json()]).to.deep.equal([400, { error: { message: 'Error executing search', cause } }]);
        const v1 = await search(admin, cache, DELETE_ALL, { max_results: -1 }, 'GET', true);
        expect([v1.status, v1.json()]).to.deep.equal([400, { error: { message: 'Invalid search request', cause } }]);
        expect(await size(cache)).to.equal('50');
      });

      it(`needs BULK_WRITE through POST: the observer gets 403 and ${cache} keeps every entry`, async () => {
        const r = await search(server.as('observer'), cache, DELETE_ALL, { max_results: -1 }, 'POST');
        expect([r.status, r.text]).to.deep.equal([403, "ISPN000287: Unauthorized access: subject 'Subject with principal(s): [observer]' lacks 'BULK_WRITE' permission"]);
        const v1 = await search(server.as('observer'), cache, DELETE_ALL, { max_results: -1 }, 'POST', true);
        expect(v1.status).to.equal(403);
        expect(await size(cache)).to.equal('50');
      });
    }

    it('runs through POST for a user with BULK_WRITE, with the default paging', async () => {
      await admin.createCache('people-doomed', { 'local-cache': { ...PROTOSTREAM } });
      for (const [key, person] of people()) await putJson(admin, 'people-doomed', key, person);
      const r = await search(server.as('application'), 'people-doomed', `${DELETE_ALL} WHERE id > 10`, { max_results: -1 }, 'POST');
      expect([r.status, r.json()]).to.deep.equal([200, { hit_count: 40, hit_count_exact: true, hits: [] }]);
      expect(await size('people-doomed')).to.equal('10');
    });

    it('needs BULK_WRITE on a secured cache through the cache\'s own roles', async () => {
      await admin.createCache('people-secured', { 'local-cache': { ...PROTOSTREAM, security: { authorization: { enabled: true, roles: ['observer', 'admin'] } } } });
      for (const [key, person] of people().slice(0, 5)) await putJson(admin, 'people-secured', key, person);
      const r = await search(server.as('observer'), 'people-secured', DELETE_ALL, { max_results: -1 }, 'POST');
      expect(r.status).to.equal(403);
      expect((await search(server.as('observer'), 'people-secured', `from ${PERSON}`)).status).to.equal(200);
      expect(await size('people-secured')).to.equal('5');
    });
  });

  describe('DELETE|POST /rest/v2/caches/{cache}?action=deleteByQuery', () => {
    it('removes what the statement matches and answers 200 with the count (CacheResourceV2Test.testDeleteByQuery)', async () => {
      await registerSchema(admin, 'entity.proto', ENTITY_PROTO);
      await admin.createCache('another', { 'local-cache': { ...PROTOSTREAM } });
      const values = [11, 11, 11, 9, 9];
      for (let i = 0; i < values.length; i++) await putJson(admin, 'another', `k${i}`, { _type: 'Another', value: values[i] });
      const del = await admin.delete('/rest/v2/caches/another?action=deleteByQuery&query=DELETE%20FROM%20Another%20WHERE%20value%20%3E%2010&local=true');
      expect([del.status, del.json()]).to.deep.equal([200, { hit_count: 3, hit_count_exact: true, hits: [] }]);
      expect((await admin.get('/rest/v2/caches/another?action=size')).text).to.equal('2');
      const post = await admin.post('/rest/v2/caches/another?action=deleteByQuery', JSON.stringify({ query: 'DELETE FROM Another WHERE value = 9' }));
      expect(post.status).to.equal(200);
      expect((await admin.get('/rest/v2/caches/another?action=size')).text).to.equal('0');
    });

    it('answers 400 JSON for a missing or non-DELETE statement and an empty body', async () => {
      const notDelete = await admin.delete('/rest/v2/caches/another?action=deleteByQuery&query=FROM%20Another%20WHERE%20value%20%3D%209');
      expect([notDelete.status, notDelete.json()]).to.deep.equal([400, { error: { message: "Invalid delete by query request, missing 'query' parameter or not 'DELETE' statement", cause: null } }]);
      const empty = await admin.post('/rest/v2/caches/another?action=deleteByQuery', '');
      expect(empty.json()).to.deep.equal({ error: { message: 'Invalid delete by query request', cause: null } });
      const unknown = await admin.delete('/rest/v2/caches/another?action=deleteByQuery&query=DELETE%20FROM%20Nope');
      expect(unknown.json()).to.deep.equal({ error: { message: 'Error executing search or query operation', cause: 'Unknown type name : Nope' } });
    });

    it('needs BULK_WRITE', async () => {
      const r = await server.as('observer').delete('/rest/v2/caches/another?action=deleteByQuery&query=DELETE%20FROM%20Another');
      expect(r.status).to.equal(403);
    });
  });

  describe('GET /rest/v2/caches/{cache} queryable', () => {
    it('is true for protostream and java-object caches, false for others', async () => {
      const details = async (c: string) => (await admin.get(`/rest/v2/caches/${c}`)).json<{ queryable: boolean }>().queryable;
      expect(await details('people-heap')).to.equal(true);
      expect(await details('java-values')).to.equal(true);
      expect(await details('json-values')).to.equal(false);
    });
  });
});

describe('search /rest/{cache}?action=search (v1)', () => {
  const server = useServer();
  const admin = server.as('admin');
  const cache = 'v1-people';

  before(async () => {
    await registerSchema(admin, 'person.proto', PERSON_PROTO_LEGACY);
    await admin.createCache(cache, { 'local-cache': { ...PROTOSTREAM } });
    for (const [key, person] of people(4)) await putJson(admin, cache, key, person);
  });

  const legacy = async (query: string, params: Record<string, number> = {}, via: Via = 'GET'): Promise<LegacyBody> => {
    const r = await search(admin, cache, query, params, via, true);
    expect(r.status, r.text).to.equal(200);
    return r.json<LegacyBody>();
  };

  for (const via of ['GET', 'POST'] as Via[]) {
    describe(`GET|POST /rest/{cache}?action=search by ${via} (10.0 BaseRestSearchTest)`, () => {
      it('answers total_results and the hits', async () => {
        const r = await legacy(`from ${PERSON} p where p.surname = 'Cage'`, {}, via);
        expect(r.total_results).to.equal(1);
        expect(r.hits[0].hit).to.include({ id: 2 });
        expect((await legacy(`from ${PERSON} p where p.gender = 'MALE'`, {}, via)).total_results).to.equal(3);
      });

      it('projects with bare keys, aggregates included', async () => {
        const names = await legacy(`Select name, surname from ${PERSON}`, {}, via);
        expect(names.total_results).to.equal(4);
        expect(names.hits.map((h) => Object.keys(h.hit).sort())).to.deep.equal(Array(4).fill(['name', 'surname']));
        const grouped = await legacy(`select p.gender, count(p.name) from ${PERSON} p group by p.gender order by p.gender`, {}, via);
        expect(grouped.total_results).to.equal(2);
        expect(grouped.hits.map((h) => h.hit.name)).to.deep.equal([3, 1]);
      });

      it('pages: offset 2, max_results 2', async () => {
        const r = await legacy(`select p.name from ${PERSON} p order by p.name desc`, { offset: 2, max_results: 2 }, via);
        expect(r.total_results).to.equal(4);
        expect(r.hits.map((h) => h.hit.name)).to.deep.equal(['Jessica', 'Danny']);
      });

      it('answers 400 "Invalid search request" with the cause', async () => {
        const error = await searchError(admin, cache, `from ${PERSON} where id:1`, via, true);
        expect(error.message).to.equal('Invalid search request');
        expect(error.cause).to.contain('ISPN028521');
        const unknown = await searchError(admin, cache, 'from Whatever', via, true);
        expect(unknown.cause).to.contain('Unknown type name');
      });
    });
  }

  it('answers 400 for a missing query, and for a query_mode that is not FETCH or BROADCAST', async () => {
    const r = await admin.get(`/rest/${cache}?action=search`);
    expect([r.status, r.json()]).to.deep.equal([400, { error: { message: "Invalid search request, missing 'query' parameter", cause: null } }]);
    expect((await admin.get(`/rest/${cache}?action=search&query=from%20${PERSON}&query_mode=BROADCAST`)).status).to.equal(200);
    expect((await admin.get(`/rest/${cache}?action=search&query=from%20${PERSON}&query_mode=fetch`)).status).to.equal(400);
  });

  it('needs BULK_READ', async () => {
    expect((await server.as('monitor').get(`/rest/${cache}?action=search&query=from%20${PERSON}`)).status).to.equal(403);
  });
});

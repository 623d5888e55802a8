import { expect } from 'chai';
import { ENTITY_PROTO, PERSON, PERSON_CHANGED_PROTO, PERSON_PROTO, people } from '../support/query-fixtures';
import { putJson, registerSchema, searchOk } from '../support/search';
import { useServer } from '../support/server';

const PROTOSTREAM = { encoding: { 'media-type': 'application/x-protostream' } };
const indexed = (entities: string[], extra: Record<string, unknown> = {}) =>
  ({ 'local-cache': { ...PROTOSTREAM, statistics: true, indexing: { enabled: true, 'indexed-entities': entities }, ...extra } });

const INDEXED_CACHES = ['admin-heap', 'admin-store'];

describe('search admin /rest/v2/caches/{cache}/search', () => {
  const server = useServer();
  const admin = server.as('admin');
  const searchPath = (cache: string, rest: string) => `/rest/v2/caches/${cache}/search/${rest}`;
  const count = async (cache: string): Promise<number> => (await searchOk(admin, cache, `from ${PERSON}`, { max_results: 0 })).hit_count;

  before(async () => {
    await registerSchema(admin, 'person.proto', PERSON_PROTO);
    await registerSchema(admin, 'entity.proto', ENTITY_PROTO);
    await admin.createCache('admin-heap', indexed([PERSON]));
    await admin.createCache('admin-store', indexed([PERSON], { persistence: { 'file-store': {} } }));
    await admin.createCache('admin-plain', { 'local-cache': { ...PROTOSTREAM, statistics: true } });
    for (const cache of [...INDEXED_CACHES, 'admin-plain']) {
      await Promise.all(people().map(([key, person]) => putJson(admin, cache, key, person)));
    }
  });

  describe('POST /rest/v2/caches/{cache}/search/indexes?action=clear|reindex|mass-index', () => {
    for (const cache of INDEXED_CACHES) {
      it(`empties the index of ${cache} (count 0, data kept) and rebuilds it (count 50)`, async () => {
        expect((await admin.post(searchPath(cache, 'indexes?action=clear'))).status).to.equal(204);
        expect(await count(cache)).to.equal(0);
        expect((await admin.get(`/rest/v2/caches/${cache}?action=size`)).text).to.equal('50');
        expect((await admin.post(searchPath(cache, 'indexes?action=reindex'))).status).to.equal(204);
        expect(await count(cache)).to.equal(50);
      });
    }

    it('accepts the deprecated mass-index and mode=async (answered at once, done soon after)', async () => {
      await admin.post(searchPath('admin-heap', 'indexes?action=clear'));
      expect((await admin.post(searchPath('admin-heap', 'indexes?action=mass-index&mode=async&local=true'))).status).to.equal(204);
      for (let i = 0; i < 100 && (await count('admin-heap')) !== 50; i++) await new Promise((r) => setTimeout(r, 20));
      expect(await count('admin-heap')).to.equal(50);
    });

    it('answers 400 ISPN012045 (plain text) for a cache without indexing', async () => {
      for (const action of ['clear', 'reindex', 'updateSchema']) {
        const r = await admin.post(searchPath('admin-plain', `indexes?action=${action}`));
        expect([r.status, r.text]).to.deep.equal([400, "ISPN012045: Cache 'admin-plain' is not indexed"]);
      }
    });

    it('answers 400 for an unknown action and 404 for an unknown cache', async () => {
      expect((await admin.post(searchPath('admin-heap', 'indexes?action=rebuild'))).status).to.equal(400);
      expect((await admin.post(searchPath('nope', 'indexes?action=reindex'))).status).to.equal(404);
    });

    it('needs ADMIN', async () => {
      expect((await server.as('deployer').post(searchPath('admin-heap', 'indexes?action=reindex'))).status).to.equal(403);
      expect((await server.as('observer').post(searchPath('admin-heap', 'indexes?action=clear'))).status).to.equal(403);
    });
  });

  describe('POST /rest/v2/caches/{cache}/search/indexes?action=updateSchema', () => {
    it('takes an added field after a schema change; a reindex makes it queryable (BaseRestSearchTest)', async () => {
      await registerSchema(admin, 'person.proto', PERSON_CHANGED_PROTO);
      expect((await admin.post(searchPath('admin-heap', 'indexes?action=updateSchema'))).status).to.equal(204);
      expect((await admin.post(searchPath('admin-heap', 'indexes?action=reindex'))).status).to.equal(204);
      const r = await searchOk(admin, 'admin-heap', `FROM ${PERSON} where newField = 'value'`);
      expect(r.hits).to.deep.equal([]);
      await putJson(admin, 'admin-heap', '51', { _type: PERSON, id: 51, name: 'New', surname: 'Field', newField: 'value' });
      expect((await searchOk(admin, 'admin-heap', `FROM ${PERSON} where newField = 'value'`)).hit_count).to.equal(1);
      await admin.delete('/rest/v2/caches/admin-heap/51');
      await registerSchema(admin, 'person.proto', PERSON_PROTO);
    });
  });

  describe('GET /rest/v2/caches/{cache}/search/indexes/metamodel', () => {
    it('describes each indexed entity (CacheResourceV2Test)', async () => {
      await admin.createCache('entities', indexed(['Entity', 'Another']));
      const r = await admin.get(searchPath('entities', 'indexes/metamodel'));
      expect(r.status).to.equal(200);
      const model = r.json<Array<Record<string, unknown>>>();
      expect(model).to.have.length(2);
      expect(model[0]).to.deep.equal({
        'entity-name': 'Entity',
        'java-class': '[B',
        'index-name': 'Entity',
        'value-fields': {
          value: {
            'multi-valued': false, 'multi-valued-in-root': false, type: 'java.lang.Integer', 'projection-type': 'java.lang.Integer',
            'argument-type': 'java.lang.Integer', searchable: true, sortable: false, projectable: false, aggregable: false,
          },
        },
      });
    });

    it('shows embedded entities as object fields with the analyzer of text fields', async () => {
      const [person] = (await admin.get(searchPath('admin-store', 'indexes/metamodel'))).json<Array<Record<string, any>>>();
      expect(person['value-fields'].name).to.include({ sortable: true, projectable: true, searchable: true });
      expect(person['object-fields'].address).to.include({ nested: true, 'multi-valued': false });
      expect(person['object-fields'].address['value-fields'].street).to.include({ analyzer: 'standard', type: 'java.lang.String' });
      expect(person['object-fields'].phoneNumbers).to.include({ 'multi-valued': true, 'multi-valued-in-root': true });
    });

    it('answers 400 ISPN012045 for a cache without indexing; monitors may read it', async () => {
      expect((await admin.get(searchPath('admin-plain', 'indexes/metamodel'))).status).to.equal(400);
      expect((await server.as('monitor').get(searchPath('entities', 'indexes/metamodel'))).status).to.equal(200);
    });
  });

  describe('GET /rest/v2/caches/{cache}/search/stats, POST ?action=clear', () => {
    it('counts queries per execution kind and documents per type (CacheResourceV2Test.testSearchStatistics)', async () => {
      for (const [k, v] of [['1', 1], ['11', 11], ['21', 21]] as const) await putJson(admin, 'entities', `e${k}`, { _type: 'Entity', value: v });
      for (const v of [3, 33]) await putJson(admin, 'entities', `a${v}`, { _type: 'Another', value: v });
      const clear = await admin.post(searchPath('entities', 'stats?action=clear'));
      expect([clear.status, clear.text]).to.deep.equal([200, '']);
      let stats = (await admin.get(searchPath('entities', 'stats'))).json<any>();
      for (const kind of ['indexed_local', 'indexed_distributed', 'hybrid', 'non_indexed']) expect(stats.query[kind]).to.deep.equal({ count: 0, average: 0, max: 0 });
      for (let i = 0; i < 3; i++) {
        const r = await searchOk(admin, 'entities', 'FROM Entity WHERE value > 5');
        expect([r.hit_count, r.hit_count_exact]).to.deep.equal([2, true]);
      }
      const hybrid = await searchOk(admin, 'entities', "FROM Entity WHERE value > 5 AND description = 'One'");
      expect([hybrid.hit_count, hybrid.hits.length]).to.deep.equal([2, 0]);
      stats = (await admin.get(searchPath('entities', 'stats'))).json<any>();
      expect(stats.query.indexed_local.count).to.equal(3);
      expect(stats.query.indexed_distributed.count).to.equal(3);
      expect(stats.query.indexed_local.slowest).to.equal('FROM Entity WHERE value > 5');
      expect(stats.query.hybrid.count).to.equal(1);
      expect(stats.query.non_indexed.count).to.equal(0);
      expect(stats.index.types.Entity.count).to.equal(3);
      expect(stats.index.types.Another.count).to.equal(2);
      expect(stats.index.types.Entity.size).to.be.above(1000);
      expect(stats.index.reindexing).to.equal(false);
      // one node: the cluster's statistics are this node's
      expect((await admin.get(searchPath('entities', 'stats?scope=cluster'))).json()).to.deep.equal(stats);
    });

    it('answers 404 to a clear without statistics, and lets monitors read but not clear', async () => {
      await admin.createCache('no-stats', { 'local-cache': { ...PROTOSTREAM, indexing: { enabled: true, 'indexed-entities': ['Entity'] } } });
      expect((await admin.post(searchPath('no-stats', 'stats?action=clear'))).status).to.equal(404);
      expect((await admin.get(searchPath('no-stats', 'stats'))).status).to.equal(200);
      expect((await server.as('monitor').get(searchPath('entities', 'stats'))).status).to.equal(200);
      expect((await server.as('monitor').post(searchPath('entities', 'stats?action=clear'))).status).to.equal(403);
    });
  });

  describe('deprecated GET search/indexes/stats, GET search/query/stats, POST search/query/stats?action=clear', () => {
    it('answer 400 for a cache without indexing (BaseRestSearchTest)', async () => {
      for (const path of ['indexes/stats', 'query/stats']) {
        const r = await admin.get(searchPath('admin-plain', path));
        expect([r.status, r.text]).to.deep.equal([400, "ISPN012045: Cache 'admin-plain' is not indexed"]);
      }
    });

    it('report index and query statistics, and clear the latter', async () => {
      const index = (await admin.get(searchPath('admin-heap', 'indexes/stats'))).json<any>();
      expect(index.indexed_class_names[0]).to.equal(PERSON);
      expect(index.index_sizes[PERSON]).to.be.at.least(0);
      expect(index.indexed_entities_count[PERSON]).to.equal(50);
      await searchOk(admin, 'admin-heap', `from ${PERSON}`);
      const before = (await admin.get(searchPath('admin-heap', 'query/stats'))).json<any>();
      expect(before.search_query_execution_count).to.be.above(0);
      expect(before.objects_loaded_count).to.be.above(0);
      expect((await admin.post(searchPath('admin-heap', 'query/stats?action=clear'))).status).to.equal(204);
      const after = (await admin.get(searchPath('admin-heap', 'query/stats'))).json<any>();
      expect(after.search_query_execution_count).to.equal(0);
      expect(after.objects_loaded_count).to.equal(0);
    });

    it('need statistics (400 ISPN012046)', async () => {
      const r = await admin.get(searchPath('no-stats', 'query/stats'));
      expect([r.status, r.text]).to.deep.equal([400, "ISPN012046: Cache 'no-stats' does not have statistics enabled"]);
    });
  });
});

import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { COUNT_PROTO, GAME_PROTO, JavaRandom, SALE_PROTO } from '../support/query-fixtures';
import { putAllJson, putJson, registerSchema, searchError, searchOk, type SearchParams } from '../support/search';
import { useServer } from '../support/server';

const PROTOSTREAM = { encoding: { 'media-type': 'application/x-protostream' } };
const indexed = (entities: string[], extra: Record<string, unknown> = {}) =>
  ({ 'local-cache': { ...PROTOSTREAM, statistics: true, indexing: { enabled: true, 'indexed-entities': entities }, ...extra } });

const ALL: SearchParams = { max_results: 2147483647 };
const DEF: SearchParams = {};
const page = (max: number, offset: number): SearchParams => ({ max_results: max, offset });

describe('search on indexed caches (docs/reference/query.md#scenario-count, docs/reference/query.md#scenario-others)', function () {
  this.timeout(120_000);
  const server = useServer();
  const admin = server.as('admin');

  before(async () => {
    for (const [name, proto] of [['count.proto', COUNT_PROTO], ['sale.proto', SALE_PROTO], ['game.proto', GAME_PROTO]]) await registerSchema(admin, name, proto);
  });

  describe('GET ?action=search counts (SearchCountLocalTest)', () => {
    before(async () => {
      await admin.createCache('indexed', indexed(['IndexedEntity']));
      await admin.createCache('not-indexed', { 'local-cache': { ...PROTOSTREAM } });
      await putAllJson(admin, 'indexed', Array.from({ length: 300 }, (_, i) => [`k${i}`, {
        _type: 'IndexedEntity', indexedStoredField: `index ${i}`, indexedNotStoredField: `index ${i}`, sortableNotStoredField: `index_${i % 20}`,
        sortableStoredField: i % 20, notIndexedField: `index ${i}`,
      }]));
      await putAllJson(admin, 'not-indexed', Array.from({ length: 200 }, (_, i) => [`k${i}`, { _type: 'NotIndexedEntity', field1: `text ${i}`, field2: `text ${i}` }]));
    });

    const table: Array<[string, string, SearchParams, number, number]> = [
      ['indexed', 'FROM IndexedEntity', ALL, 300, 300],
      ['indexed', 'FROM IndexedEntity', page(17, 0), 300, 17],
      ['indexed', 'FROM IndexedEntity', DEF, 300, 10],
      ['indexed', 'FROM IndexedEntity', page(0, 0), 300, 0],
      ['indexed', 'FROM IndexedEntity ORDER BY sortableStoredField DESC', ALL, 300, 300],
      ['indexed', 'SELECT sortableStoredField FROM IndexedEntity ORDER BY sortableStoredField DESC', page(35, 0), 300, 35],
      ['indexed', 'SELECT indexedStoredField FROM IndexedEntity', ALL, 300, 300],
      ['indexed', 'SELECT indexedStoredField FROM IndexedEntity', DEF, 300, 10],
      ['indexed', 'SELECT indexedStoredField FROM IndexedEntity', page(8, 2), 300, 8],
      ['indexed', 'SELECT count(sortableStoredField) FROM IndexedEntity GROUP BY sortableStoredField', ALL, 20, 20],
      ['indexed', 'SELECT count(sortableStoredField) FROM IndexedEntity GROUP BY sortableStoredField', DEF, 20, 10],
      ['indexed', 'FROM IndexedEntity ORDER BY sortableNotStoredField DESC', ALL, 300, 300],
      ['indexed', 'FROM IndexedEntity ORDER BY sortableNotStoredField DESC', DEF, 300, 10],
      ['indexed', 'SELECT indexedNotStoredField FROM IndexedEntity', ALL, 300, 300],
      ['indexed', 'SELECT indexedNotStoredField FROM IndexedEntity', DEF, 300, 10],
      ['indexed', 'SELECT notIndexedField FROM IndexedEntity', ALL, 300, 300],
      ['indexed', 'SELECT notIndexedField FROM IndexedEntity', DEF, 300, 10],
      ['indexed', 'SELECT notIndexedField FROM IndexedEntity', page(0, 0), 300, 0],
      ['indexed', "SELECT notIndexedField FROM IndexedEntity WHERE indexedStoredField : 'index'", DEF, 300, 10],
      ['indexed', "SELECT notIndexedField FROM IndexedEntity WHERE indexedStoredField : 'index'", ALL, 300, 300],
      ['not-indexed', 'FROM NotIndexedEntity', ALL, 200, 200],
      ['not-indexed', 'FROM NotIndexedEntity', DEF, 200, 10],
      ['not-indexed', 'FROM NotIndexedEntity', page(5, 1), 200, 5],
      ['not-indexed', 'FROM NotIndexedEntity ORDER BY field2', ALL, 200, 200],
      ['not-indexed', 'FROM NotIndexedEntity ORDER BY field2', DEF, 200, 10],
      ['not-indexed', 'SELECT field1 FROM NotIndexedEntity', page(5, 2), 200, 5],
      ['not-indexed', 'SELECT field1 FROM NotIndexedEntity', DEF, 200, 10],
      ['not-indexed', 'SELECT field1 FROM NotIndexedEntity', page(0, 0), 200, 0],
    ];
    for (const [cache, query, params, hitCount, hits] of table) {
      it(`${query} ${JSON.stringify(params)} ⇒ ${hitCount}/${hits}`, async () => {
        const r = await searchOk(admin, cache, query, params);
        expect([r.hit_count, r.hits.length, r.hit_count_exact]).to.deep.equal([hitCount, hits, true]);
      });
    }

    it('counts the same whether the page ends the matches or not (offsets at, inside and past the last page)', async () => {
      const where = 'FROM IndexedEntity WHERE sortableStoredField = 7'; // 15 matches
      const cases: Array<[SearchParams, number, number, boolean]> = [
        [page(10, 0), 15, 10, true], [page(15, 0), 15, 15, true], [page(16, 0), 15, 15, true], [page(10, 10), 15, 5, true],
        [page(5, 10), 15, 5, true], [page(3, 14), 15, 1, true], [page(3, 15), 15, 0, true], [page(3, 40), 15, 0, true],
        [page(0, 0), 15, 0, true], [{ max_results: 20, hit_count_accuracy: 4 }, 4, 15, false], [{ max_results: 20, hit_count_accuracy: 15 }, 15, 15, true],
      ];
      for (const [params, hitCount, hits, exact] of cases) {
        const r = await searchOk(admin, 'indexed', where, params);
        expect([r.hit_count, r.hits.length, r.hit_count_exact], JSON.stringify(params)).to.deep.equal([hitCount, hits, exact]);
      }
    });

    it('counts and aggregates in the same answer', async () => {
      for (const params of [ALL, DEF]) {
        expect((await searchOk(admin, 'indexed', 'SELECT count(indexedStoredField) FROM IndexedEntity', params)).hits[0].hit['COUNT(indexedStoredField)']).to.equal(300);
        expect((await searchOk(admin, 'indexed', 'SELECT count(indexedStoredField), max(notIndexedField) FROM IndexedEntity', params)).hits[0].hit['COUNT(indexedStoredField)']).to.equal(300);
        expect((await searchOk(admin, 'not-indexed', 'SELECT count(field1), max(field2) FROM NotIndexedEntity', params)).hits[0].hit['COUNT(field1)']).to.equal(200);
      }
    });

    it('answers aggregates without GROUP BY with one global row, even when nothing matches (RowGrouper)', async () => {
      for (const [cache, query] of [['indexed', 'SELECT count(*), max(notIndexedField) FROM IndexedEntity WHERE sortableStoredField = -1'], ['not-indexed', "SELECT count(*), max(field2) FROM NotIndexedEntity WHERE field1 = 'none'"]]) {
        const r = await searchOk(admin, cache, query, ALL);
        expect([r.hit_count, r.hits.length, r.hits[0].hit['COUNT(*)']], cache).to.deep.equal([1, 1, 0]);
        expect(Object.values(r.hits[0].hit).filter((v) => v !== null && v !== undefined), cache).to.deep.equal([0]);
      }
    });

    it('sorts by indexed fields in the index, by other fields in memory', async () => {
      const inIndex = await searchOk(admin, 'indexed', 'SELECT sortableStoredField, indexedStoredField FROM IndexedEntity ORDER BY sortableStoredField DESC, sortableNotStoredField', page(3, 0));
      for (const { hit } of inIndex.hits) expect([hit.sortableStoredField, Number(String(hit.indexedStoredField).slice(6)) % 20]).to.deep.equal([19, 19]);
      const inMemory = await searchOk(admin, 'indexed', 'SELECT sortableStoredField, notIndexedField FROM IndexedEntity ORDER BY sortableStoredField DESC, notIndexedField', page(3, 0));
      expect(inMemory.hits.map((h) => [h.hit.sortableStoredField, h.hit.notIndexedField])).to.deep.equal([[19, 'index 119'], [19, 'index 139'], [19, 'index 159']]);
      expect(inMemory.hit_count).to.equal(300);
    });
  });

  describe('GET ?action=search aggregations (RestQueryAggregationCountTest)', () => {
    before(async () => {
      await admin.createCache('items', indexed(['Sale']));
      const statuses = ['OPEN', 'CLOSE', 'IN_PROGRESS', 'WAITING', 'BLOCKED'];
      const random = new JavaRandom(739);
      const sales: Array<[string, unknown]> = [];
      for (let day = 1; day <= 100; day++) {
        for (let ordinal = 0; ordinal < 100; ordinal++) {
          const id = `${String(day).padStart(3, '0')}:${String(ordinal).padStart(3, '0')}`;
          const status = statuses[random.nextInt(5)];
          const sale: Record<string, unknown> = { _type: 'Sale', id, status, day };
          if (ordinal % 5 !== 0) sale.code = randomUUID();
          sales.push([id, sale]);
        }
      }
      await putAllJson(admin, 'items', sales, 64);
    });

    const expected = (counts: number[], key = 'COUNT(code)') =>
      ['BLOCKED', 'CLOSE', 'IN_PROGRESS', 'OPEN', 'WAITING'].map((status, i) => ({ hit: { [key]: counts[i], status } }));

    it('counts codes per status over ten days, however the query is written', async () => {
      for (const q of [
        'select status, count(code) from Sale where day >= 45 and day <= 54 group by status order by status',
        'select count(code), status from Sale where day >= 45 and day <= 54 group by status order by status',
        'select status, count(code) from Sale where day >= 45 and day <= 54 group by status',
        'select s.status, count(s.code) from Sale s where s.day >= 45 and s.day <= 54 group by s.status order by s.status',
      ]) {
        expect((await searchOk(admin, 'items', q)).hits, q).to.deep.equal(expected([164, 143, 178, 141, 174]));
      }
    });

    it('counts every sale per status without WHERE, nulls included, as the original does', async () => {
      expect((await searchOk(admin, 'items', 'select status, count(code) from Sale group by status')).hits).to.deep.equal(expected([2082, 1929, 2005, 1931, 2053]));
    });

    it('names count(s) and count(*) COUNT(*)', async () => {
      const want = expected([207, 185, 216, 179, 213], 'COUNT(*)');
      expect((await searchOk(admin, 'items', 'select s.status, count(s) from Sale s where s.day >= 45 and s.day <= 54 group by s.status order by s.status')).hits).to.deep.equal(want);
      expect((await searchOk(admin, 'items', 'select status, count(*) from Sale where day >= 45 and day <= 54 group by status')).hits).to.deep.equal(want);
    });

    it('runs other aggregations in memory over the index matches, with HAVING and paging', async () => {
      const r = await searchOk(admin, 'items', 'select status, count(code), min(day), max(day) from Sale where day between 45 and 54 group by status having count(code) > 142 order by count(code) desc', page(2, 1));
      expect(r.hit_count).to.equal(4);
      expect(r.hits).to.deep.equal([
        { hit: { status: 'WAITING', 'COUNT(code)': 174, 'MIN(day)': 45, 'MAX(day)': 54 } },
        { hit: { status: 'BLOCKED', 'COUNT(code)': 164, 'MIN(day)': 45, 'MAX(day)': 54 } },
      ]);
    });
  });

  describe('GET ?action=search projections and full text (RestProjectionTest, RestHitCountAccuracyTest)', () => {
    before(async () => {
      await admin.createCache('games', indexed(['Game']));
      await putAllJson(admin, 'games', Array.from({ length: 10 }, (_, i) => [`g${i + 1}`, { _type: 'Game', name: `bla${i + 1}`, description: `bla bla${i + 1}` }]));
      await admin.createCache('many-games', indexed(['Game'], { query: { 'hit-count-accuracy': 10 } }));
      await putAllJson(admin, 'many-games', Array.from({ length: 5000 }, (_, i) => [`g${i}`, { _type: 'Game', name: `Game n.${i}`, description: `This is the game #${i}` }]), 64);
    });

    it('matches a whole word only, and projects fields, the entity and both', async () => {
      const plain = await searchOk(admin, 'games', "from Game g where g.description : 'bla3'");
      expect([plain.hits.length, plain.hits[0].hit.name]).to.deep.equal([1, 'bla3']);
      expect((await searchOk(admin, 'games', "select g.description from Game g where g.description : 'bla3'")).hits[0].hit).to.deep.equal({ description: 'bla bla3' });
      const entity = (await searchOk(admin, 'games', "select g from Game g where g.description : 'bla3'")).hits[0].hit;
      expect(entity['*']).to.deep.equal({ _type: 'Game', name: 'bla3', description: 'bla bla3' });
      const both = (await searchOk(admin, 'games', "select g, g.description from Game g where g.description : 'bla3'")).hits[0].hit;
      expect(Object.keys(both).sort()).to.deep.equal(['*', 'description']);
    });

    it('counts up to hit_count_accuracy: a lower bound beyond it, exact within', async () => {
      const bounded = await searchOk(admin, 'many-games', "from Game where description : 'game'");
      expect([bounded.hit_count_exact, bounded.hits.length]).to.deep.equal([false, 10]);
      const exact = await searchOk(admin, 'many-games', "from Game where description : 'game'", { hit_count_accuracy: 5000 });
      expect([exact.hit_count, exact.hit_count_exact]).to.deep.equal([5000, true]);
      expect((await searchOk(admin, 'many-games', "from Game where description : 'GAME'", { max_results: 0, hit_count_accuracy: 10000 })).hit_count).to.equal(5000);
    });

    const fullText: Array<[string, string[]]> = [
      ["description : 'bla10'", ['bla10']],
      ["description : 'BLA bla10'", ['bla10']],
      ["description : 'bla1'~1", ['bla1', 'bla2', 'bla3', 'bla4', 'bla5', 'bla6', 'bla7', 'bla8', 'bla9', 'bla10']],
      ["description : 'bla1'~0", ['bla1']],
      ["description : 'bla1*'", ['bla1', 'bla10']],
      ["description : 'bla?'", ['bla1', 'bla2', 'bla3', 'bla4', 'bla5', 'bla6', 'bla7', 'bla8', 'bla9']],
      ['description : /bla[23]/', ['bla2', 'bla3']],
      ["description : ['bla7' to 'bla9']", ['bla7', 'bla8', 'bla9']],
      ["description : {'bla7' to 'bla9'}", ['bla8']],
      ["description : ('bla2' 'bla4')", ['bla2', 'bla4']],
      ["description : ('bla' and 'bla5')", ['bla5']],
      ["description : (+'bla' -'bla5') and name = 'bla6'", ['bla6']],
      ["description : 'bla bla3'~1", ['bla3']],
      ["description : 'bla3 bla'~1", ['bla3']],
      ["description : 'bla3 bla'", []],
      ["not description : 'bla1*' and name like 'bla%'", ['bla2', 'bla3', 'bla4', 'bla5', 'bla6', 'bla7', 'bla8', 'bla9']],
      ["-description : 'bla1*' and name in ('bla1', 'bla2')", ['bla2']],
      // LIKE patterns that start with a wildcard have no prefix for the index to start from
      ["name like '%a3'", ['bla3']],
      ["name like '_la1_'", ['bla10']],
      ["name like '%' and description : 'bla3'", ['bla3']],
      ["not name like '%1%'", ['bla2', 'bla3', 'bla4', 'bla5', 'bla6', 'bla7', 'bla8', 'bla9']],
      ["description : 'bla2'^3 or description : 'bla3'", ['bla2', 'bla3']],
    ];
    for (const [where, names] of fullText) {
      it(`full text: ${where}`, async () => {
        const r = await searchOk(admin, 'games', `select name from Game where ${where} order by name`, ALL);
        expect(r.hits.map((h) => h.hit.name)).to.deep.equal([...names].sort());
      });
    }

    it('orders full-text hits by relevance without ORDER BY, and reports score()', async () => {
      await putJson(admin, 'games', 'g99', { _type: 'Game', name: 'echo', description: 'bla3 bla3 bla3' });
      const r = await searchOk(admin, 'games', "select name, score(g) from Game g where description : 'bla3'");
      expect(r.hits.map((h) => h.hit.name)).to.deep.equal(['echo', 'bla3']);
      expect(r.hits[0].hit['score()']).to.be.above(r.hits[1].hit['score()'] as number);
      await admin.delete('/rest/v2/caches/games/g99');
    });

    it('refuses fuzziness above 2, a fuzzy wildcard and a regexp that does not parse with 400', async () => {
      expect((await searchError(admin, 'games', "from Game where description : 'bla'~3")).cause).to.equal('maxEdits must be between 0 and 2: 3');
      expect((await searchError(admin, 'games', "from Game where description : 'bl*'~1")).cause).to.equal('ISPN014036: Prefix, wildcard or regexp queries cannot be fuzzy: bl*');
      expect((await searchError(admin, 'games', 'from Game where description : /bla(2/')).cause).to.equal("The regular expression /bla(2/ does not parse: expected ')' at position 5");
    });

    it('matches regexps a backtracking engine could not answer, on an automaton', async () => {
      const r = await searchOk(admin, 'games', 'select name from Game where description : /(b+l+a+)+[23]/ order by name');
      expect(r.hits.map((h) => h.hit.name)).to.deep.equal(['bla2', 'bla3']);
    });

    it('answers knn and geo with 400 "not supported"', async () => {
      expect((await searchError(admin, 'games', 'from Game where v <-> [1.0, 2.0]~3')).cause).to.equal('Vector search (knn) is not supported by this server');
      expect((await searchError(admin, 'games', 'from Game where location within circle(1.0, 2.0, 3.0)')).cause).to.equal('Spatial (geo) search is not supported by this server');
    });
  });

  describe('indexing-mode manual (RestReindexRemoveAndStatisticsTest)', () => {
    it('leaves the index alone until a reindex, and clears it on request', async () => {
      await admin.createCache('manual', indexed(['Game'], { indexing: { enabled: true, 'indexing-mode': 'MANUAL', 'indexed-entities': ['Game'] } }));
      const stats = async () => (await admin.get('/rest/v2/caches/manual/search/stats')).json<any>().index.types.Game.count;
      expect((await admin.post('/rest/v2/caches/manual/search/indexes?action=reindex')).status).to.equal(204);
      expect((await admin.post('/rest/v2/caches/manual/search/indexes?action=clear')).status).to.equal(204);
      expect(await stats()).to.equal(0);
      await putAllJson(admin, 'manual', Array.from({ length: 5000 }, (_, i) => [`g${i}`, { _type: 'Game', name: `Game n.${i}`, description: `This is the game #${i}` }]), 64);
      expect(await stats()).to.equal(0);
      const reindex = admin.post('/rest/v2/caches/manual/search/indexes?action=reindex');
      expect((await admin.get('/rest/v2/caches/manual/search/stats')).status).to.equal(200);
      expect((await reindex).status).to.equal(204);
      expect(await stats()).to.equal(5000);
      expect((await admin.post('/rest/v2/caches/manual/search/indexes?action=clear')).status).to.equal(204);
      expect(await stats()).to.equal(0);
    });
  });

  describe('indexed-entities that cannot be used (IndexedCacheNonIndexedEntityTest, CacheResourceV2Test)', () => {
    it('refuses queries, writes and index clears on a type without @Indexed (ISPN028021)', async () => {
      await registerSchema(admin, 'nonindexed.proto', 'message NonIndexed { optional string name = 1; }');
      await admin.createCache('non-indexed-entity', indexed(['NonIndexed']));
      const text = "ISPN028021: The configured indexed-entity type 'NonIndexed' must be indexed. Please annotate it with @Indexed and make sure at least one field has some indexing annotation, or remove it from the configuration.";
      expect((await searchError(admin, 'non-indexed-entity', 'FROM NonIndexed')).cause).to.equal(text);
      const clear = await admin.post('/rest/v2/caches/non-indexed-entity/search/indexes?action=clear');
      expect([clear.status, clear.text]).to.deep.equal([400, text]);
    });

    it('refuses a write of an @Indexed type without annotated fields, writing nothing', async () => {
      await registerSchema(admin, 'bare.proto', 'package bare;\n/* @Indexed */\nmessage Entity { optional string name = 1; }');
      await admin.createCache('bare-entity', indexed(['bare.Entity']));
      const r = await admin.put('/rest/v2/caches/bare-entity/1', JSON.stringify({ _type: 'bare.Entity', name: 'x' }), { 'Content-Type': 'application/json' });
      expect(r.status).to.equal(400);
      expect(r.text).to.contain('make sure at least one field has some indexing annotation');
      expect((await admin.get('/rest/v2/caches/bare-entity?action=size')).text).to.equal('0');
    });

    it('answers "Unknown type name" until the declared type is registered, then works', async () => {
      await admin.createCache('future', indexed(['future.Entity']));
      expect((await searchError(admin, 'future', 'FROM future.Entity')).cause).to.contain('Unknown type name : future.Entity');
      const put = await admin.put('/rest/v2/caches/future/1', JSON.stringify({ _type: 'future.Entity', value: 1 }), { 'Content-Type': 'application/json' });
      expect(put.text).to.contain('Unknown type name : future.Entity');
      await registerSchema(admin, 'future.proto', 'package future;\n/* @Indexed */\nmessage Entity {\n  /* @Basic */\n  optional int32 value = 1;\n}');
      await putJson(admin, 'future', '1', { _type: 'future.Entity', value: 1 });
      expect((await searchOk(admin, 'future', 'FROM future.Entity WHERE value = 1')).hit_count).to.equal(1);
    });
  });
});

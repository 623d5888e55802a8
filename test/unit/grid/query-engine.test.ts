import { expect } from 'chai';
import { InvalidQueryError } from '../../../src/errors';
import { Cache } from '../../../src/grid/cache';
import { MAX_GROUPS } from '../../../src/grid/query/group-table';
import { Indexing } from '../../../src/grid/query/indexing';
import { LocalCacheData } from '../../../src/grid/local-cache-data';
import { QueryEngine } from '../../../src/grid/query/query-engine';
import { RawJson } from '../../../src/grid/query/query-result';
import { querySettingsOf } from '../../../src/grid/query/query-settings';
import { parseCacheConfig, toCacheSettings } from '../../../src/model/cache-config';
import { checkProtoFiles, findType } from '../../../src/model/protobuf/proto-files';
import { jsonToProtostream, type ProtobufTypes } from '../../../src/model/protobuf/protostream-json';
import type { Store } from '../../../src/store/store';
import { ManualClock } from '../../../src/util/clock';
import { collectGarbage } from '../../support/gc';

const LIMITS = { timeoutMs: 30_000, rows: 10_000, answerBytes: 32 * 1024 * 1024, expansionTerms: 1_000_000 };

const SCHEMA = `package shop;
message Item {
  optional string name = 1;
  optional int32 price = 2;
  optional string category = 3;
  repeated string tags = 4;
  optional float weight = 5;
}`;

const check = checkProtoFiles([{ name: 'shop.proto', content: SCHEMA }]);
const types: ProtobufTypes = { find: (n) => findType(check.root, n), typeIdOf: () => undefined, nameOfTypeId: () => undefined };

/** A memory-only cache: the store is never touched. */
function memoryCache(): Cache {
  const definition = parseCacheConfig('{"local-cache":{"encoding":{"media-type":"application/x-protostream"}}}', 'json');
  return new Cache(1, 'items', toCacheSettings(definition), { store: {} as Store, clock: new ManualClock() });
}

function put(cache: Cache, key: string, item: Record<string, unknown>): void {
  cache.put(Buffer.from(key), jsonToProtostream(JSON.stringify({ _type: 'shop.Item', ...item }), types), null, { lifespan: -1, maxIdle: -1 });
}

describe('QueryEngine over a non-indexed cache (scan)', () => {
  const engine = new QueryEngine(types, new Indexing({ deleteMemoryOnlyIndexDocuments: () => 0 } as unknown as Store, types), new ManualClock(), LIMITS);
  const cache = memoryCache();
  const settings = querySettingsOf(parseCacheConfig('{"local-cache":{}}', 'json'), cache.settings);
  const run = (q: string, offset = 0, maxResults = 10) => engine.search(cache, new LocalCacheData(cache), engine.prepare(cache, settings, q, 'protobuf'), { offset, maxResults }, 10_000);

  before(() => {
    for (let i = 0; i < 20_000; i++) {
      put(cache, `k${i}`, { name: `item ${i}`, price: i % 100, category: ['a', 'b', 'c', 'd'][i % 4], tags: i % 2 ? ['odd', `t${i % 7}`] : [], weight: 1.1 });
    }
    cache.put(Buffer.from('not-an-item'), Buffer.from('raw bytes'), null, { lifespan: -1, maxIdle: -1 });
  });

  it('counts every match while keeping only the page, in cache order without ORDER BY', async () => {
    const r = await run('from shop.Item where price = 7', 1, 2);
    expect([r.hitCount, r.hitCountExact, r.kind]).to.deep.equal([200, true, 'non_indexed']);
    expect(r.hits.map((h) => JSON.parse((h as RawJson).json).name)).to.deep.equal(['item 107', 'item 207']);
  });

  it('sorts with a bounded heap: ties keep cache order, descending keys reverse', async () => {
    const r = await run('select name, price from shop.Item where category = \'b\' order by price desc, name', 0, 3);
    expect(r.hitCount).to.equal(5000);
    expect(r.hits).to.deep.equal([['item 10097', 97], ['item 10197', 97], ['item 10297', 97]]);
  });

  it('matches repeated fields when any element matches, and NOT when none does (absent included)', async () => {
    expect((await run("from shop.Item where tags = 'odd'", 0, 0)).hitCount).to.equal(10_000);
    expect((await run("from shop.Item where not tags = 't3'", 0, 0)).hitCount).to.equal(20_000 - Math.round(20_000 / 14));
    expect((await run('from shop.Item where tags is null', 0, 0)).hitCount).to.equal(10_000);
  });

  it('compares floats as float32 and projects them as Java prints floats', async () => {
    const r = await run('select weight from shop.Item where weight = 1.1', 0, 1);
    expect(r.hitCount).to.equal(20_000);
    expect(r.hits).to.deep.equal([[1.1]]);
  });

  it('groups, aggregates, filters groups with HAVING and pages the groups', async () => {
    const r = await run('select category, count(*), sum(price), avg(price), min(name), max(price) from shop.Item group by category having count(*) > 1 order by category desc', 1, 2);
    expect(r.hitCount).to.equal(4);
    expect(r.columns!.map((c) => c.key)).to.deep.equal(['category', 'COUNT(*)', 'SUM(price)', 'AVG(price)', 'MIN(name)', 'MAX(price)']);
    expect(r.hits).to.deep.equal([['c', 5000, 250_000, 50, 'item 10', 98], ['b', 5000, 245_000, 49, 'item 1', 97]]);
  });

  it('never holds the event loop long while scanning (generous stall bound)', async () => {
    let longest = 0;
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
    }, 1);
    try {
      await run("from shop.Item where name like '%9%' order by name", 0, 5);
    } finally {
      clearInterval(timer);
    }
    expect(longest).to.be.below(1000);
  });

  it('removes what a DELETE statement matches', async () => {
    const exec = engine.prepare(cache, settings, 'delete from shop.Item where price >= 99', 'protobuf');
    expect(await engine.remove(new LocalCacheData(cache), exec)).to.equal(200);
    expect((await run('from shop.Item where price >= 99', 0, 0)).hitCount).to.equal(0);
  });
});

describe('QueryEngine grouping budget', () => {
  it('refuses a GROUP BY of more than 100,000 groups with a 400-kind error instead of holding them', async function () {
    this.timeout(60_000);
    const engine = new QueryEngine(types, new Indexing({ deleteMemoryOnlyIndexDocuments: () => 0 } as unknown as Store, types), new ManualClock(), LIMITS);
    const cache = memoryCache();
    const settings = querySettingsOf(parseCacheConfig('{"local-cache":{}}', 'json'), cache.settings);
    for (let i = 0; i <= MAX_GROUPS; i++) put(cache, `k${i}`, { price: i });
    const group = (q: string) => engine.search(cache, new LocalCacheData(cache), engine.prepare(cache, settings, q, 'protobuf'), { offset: 0, maxResults: 1 }, 10_000);

    const err = await group('select price, count(*) from shop.Item group by price').catch((e: unknown) => e);
    expect(err).to.be.instanceOf(InvalidQueryError);
    expect((err as Error).message).to.equal('The query makes more than 100000 groups; narrow it with a WHERE clause');
    const fewer = await group(`select price, count(*) from shop.Item where price < ${MAX_GROUPS} group by price`);
    expect(fewer.hitCount).to.equal(MAX_GROUPS);
  });
});

describe('QueryEngine memo across schema changes', () => {
  /** Types whose tree is rebuilt on every change, as SchemaService's is, with its version. */
  function changingTypes(first: string) {
    let root = checkProtoFiles([{ name: 'shop.proto', content: first }]).root;
    let version = 1;
    const t: ProtobufTypes & { change(content: string): void } = {
      find: (n) => findType(root, n),
      typeIdOf: () => undefined,
      nameOfTypeId: () => undefined,
      get version() { return version; },
      change(content: string) {
        root = checkProtoFiles([{ name: 'shop.proto', content }]).root;
        version++;
      },
    };
    return t;
  }

  it('compiles each query once per schema version, and again against the changed type', async () => {
    const t = changingTypes(SCHEMA);
    const engine = new QueryEngine(t, new Indexing({ deleteMemoryOnlyIndexDocuments: () => 0 } as unknown as Store, t), new ManualClock(), LIMITS);
    const cache = memoryCache();
    const settings = querySettingsOf(parseCacheConfig('{"local-cache":{}}', 'json'), cache.settings);
    const byPrice = 'from shop.Item where price > 1';
    const first = engine.prepare(cache, settings, byPrice, 'protobuf');
    expect(engine.prepare(cache, settings, byPrice, 'protobuf'), 'remembered').to.equal(first);
    const other = engine.prepare(cache, settings, 'from shop.Item where name = "x"', 'protobuf');
    expect(other.type).to.equal(first.type);

    t.change(SCHEMA.replace('optional int32 price = 2;', 'optional string price = 2;'));
    const again = engine.prepare(cache, settings, byPrice, 'protobuf');
    expect(again, 'compiled again').to.not.equal(first);
    expect(again.type).to.equal(t.find('shop.Item'));
    expect(again.type.fields.price.type).to.equal('string');
    expect(engine.prepare(cache, settings, 'from shop.Item where name = "x"', 'protobuf')).to.not.equal(other);
    cache.put(Buffer.from('k'), jsonToProtostream(JSON.stringify({ _type: 'shop.Item', name: 'n', price: '7' }), t), null, { lifespan: -1, maxIdle: -1 });
    const hits = await engine.search(cache, new LocalCacheData(cache), engine.prepare(cache, settings, 'from shop.Item where price = "7"', 'protobuf'), { offset: 0, maxResults: 10 }, 10_000);
    expect(hits.hitCount).to.equal(1);
  });

  it('lets the type tree of a replaced schema go once one query runs under the new one', async () => {
    const t = changingTypes(SCHEMA);
    const engine = new QueryEngine(t, new Indexing({ deleteMemoryOnlyIndexDocuments: () => 0 } as unknown as Store, t), new ManualClock(), LIMITS);
    const cache = memoryCache();
    const settings = querySettingsOf(parseCacheConfig('{"local-cache":{}}', 'json'), cache.settings);
    // queries that are never asked again would otherwise hold their tree until evicted
    const oldType = new WeakRef(prepareUnrelated(engine, cache, settings));
    t.change(SCHEMA);
    engine.prepare(cache, settings, 'from shop.Item where price > 1', 'protobuf');
    await collectGarbage();
    expect(oldType.deref(), 'the replaced type').to.equal(undefined);
  });
});

describe('QueryEngine memo size', () => {
  it('holds its compiled queries within a byte budget, and remembers the recent ones', async () => {
    const engine = new QueryEngine(types, new Indexing({ deleteMemoryOnlyIndexDocuments: () => 0 } as unknown as Store, types), new ManualClock(), LIMITS);
    const cache = memoryCache();
    const settings = querySettingsOf(parseCacheConfig('{"local-cache":{}}', 'json'), cache.settings);
    // ORs of comparisons hold the most per character (~60 bytes); 256 such 9.9 KB queries held ~150 MB
    const query = (i: number): string => {
      let q = `from shop.Item where price = ${i * 1000}`;
      for (let j = 1; q.length < 9_900; j++) q += ` or price = ${i * 1000 + j}`;
      return q;
    };
    await collectGarbage();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 256; i++) engine.prepare(cache, settings, query(i), 'protobuf');
    await collectGarbage();
    expect(process.memoryUsage().heapUsed - before, 'heap held (bytes)').to.be.below(64 * 1024 * 1024);
    const recent = engine.prepare(cache, settings, query(255), 'protobuf');
    expect(engine.prepare(cache, settings, query(255), 'protobuf'), 'remembered').to.equal(recent);
    const long = `${query(1)} or ${query(2).slice('from shop.Item where '.length)}`;
    expect(engine.prepare(cache, settings, long, 'protobuf'), 'texts over 10,000 characters are not remembered').to.not.equal(engine.prepare(cache, settings, long, 'protobuf'));
  });
});

describe('QueryEngine memo contents', () => {
  it('keeps no value a remembered query read while it ran', async () => {
    const engine = new QueryEngine(types, new Indexing({ deleteMemoryOnlyIndexDocuments: () => 0 } as unknown as Store, types), new ManualClock(), LIMITS);
    const cache = memoryCache();
    const settings = querySettingsOf(parseCacheConfig('{"local-cache":{}}', 'json'), cache.settings);
    put(cache, 'big', { name: 'n'.repeat(1_000_000), price: 1 });
    await collectGarbage();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 8; i++) {
      // the wire filter reads `name` once per condition: each once kept its own copy of the value
      const query = `from shop.Item where ${Array.from({ length: 50 }, (_, j) => `name = 'q${i}v${j}'`).join(' or ')}`;
      expect((await engine.search(cache, new LocalCacheData(cache), engine.prepare(cache, settings, query, 'protobuf'), { offset: 0, maxResults: 10 }, 10_000)).hitCount).to.equal(0);
    }
    await collectGarbage();
    expect(process.memoryUsage().heapUsed - before, 'heap held (bytes)').to.be.below(64 * 1024 * 1024);
  });
});

function prepareUnrelated(engine: QueryEngine, cache: Cache, settings: ReturnType<typeof querySettingsOf>): object {
  return engine.prepare(cache, settings, 'from shop.Item where category = "never asked again"', 'protobuf').type;
}

import { expect } from 'chai';
import { rmSync } from 'node:fs';
import type { IndexDocument, IndexSelection } from '../../src/store/store';
import { SqliteStore } from '../../src/store/sqlite-store';
import { ON_LOOP_CANDIDATES } from '../../src/store/sqlite-index.store';
import { DEADLINE_PASSED } from '../../src/store/sqlite-deadline';
import { sharedNow } from '../../src/util/clock';
import { tempDir } from '../support/server';

const doc = (key: string, name: string, age: number, words: string[], expiresAt: number | null = null): IndexDocument => ({
  key: Buffer.from(key),
  type: 'shop.Person',
  expiresAt,
  values: [['name', name], ['age', age], ['tags', 't1'], ['tags', 't2']],
  texts: [['bio', [words]]],
  memoryOnly: false,
});

describe('SqliteIndexStore (query indexes in SQLite)', () => {
  let dir: string;
  let store: SqliteStore;
  const sel = (filter: IndexSelection['filter'], now = 1000): IndexSelection => ({ cacheId: 7, type: 'shop.Person', filter, now });
  const keys = async (s: IndexSelection, sort = [{ field: 'age', descending: false }]) => (await store.indexes.page(s, sort, 0, 100)).map((h) => h.key.toString());
  const count = async (s: IndexSelection, limit = 10_000) => (await store.indexes.count(s, limit)).count;

  before(async () => {
    dir = tempDir();
    store = new SqliteStore({ dataDir: dir, durability: 'process' });
    for (let i = 0; i < 2000; i++) store.write({ kind: 'index.put', cacheId: 7, doc: doc(`k${i}`, `name${i}`, i % 100, ['likes', i % 2 ? 'tea' : 'coffee']) });
    await store.write({ kind: 'index.put', cacheId: 8, doc: doc('other', 'name1', 1, ['tea']) }).promise;
  });
  after(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers equality through the (field, value) B-tree: EXPLAIN QUERY PLAN shows no scan of the documents', async () => {
    const plan = store.indexes.explain(sel({ kind: 'eq', field: 'name', value: 'name42' }), []).join('\n');
    expect(plan).to.match(/SEARCH index_values USING PRIMARY KEY \(field_id=\? AND value=\?\)/);
    expect(plan).to.match(/SEARCH d USING (COVERING INDEX index_docs_type \(type_id=\? AND rowid=\?\)|INTEGER PRIMARY KEY \(rowid=\?\))/);
    expect(plan).to.not.match(/SCAN (d|index_docs|index_values)\b/);
    expect(plan.indexOf('index_values')).to.be.below(plan.indexOf('SEARCH d'));
    expect(await keys(sel({ kind: 'eq', field: 'name', value: 'name42' }))).to.deep.equal(['k42']);
  });

  it('answers ranges with a B-tree range, and checks the rest of a condition per candidate', async () => {
    const range = { kind: 'range' as const, field: 'age', lower: 10, upper: 12, includeLower: true, includeUpper: false };
    const plan = store.indexes.explain(sel(range), []).join('\n');
    expect(plan).to.match(/SEARCH index_values USING PRIMARY KEY \(field_id=\? AND value>\? AND value<\?\)/);
    expect(await store.indexes.count(sel(range), 10_000)).to.deep.equal({ count: 40, exact: true });
    const both = { kind: 'and' as const, items: [range, { kind: 'text' as const, search: { kind: 'terms' as const, field: 'bio', terms: ['tea'] } }] };
    expect(store.indexes.explain(sel(both), []).join('\n')).to.match(/SEARCH v EXISTS USING COVERING INDEX index_values_doc \(doc_id=\? AND field_id=\? AND value>\? AND value<\?\)/);
    expect(await store.indexes.count(sel(both), 10_000)).to.deep.equal({ count: 20, exact: true });
  });

  it('answers full text through FTS5, phrases in order, prefixes, and the vocabulary in order', async () => {
    const plan = store.indexes.explain(sel({ kind: 'text', search: { kind: 'terms', field: 'bio', terms: ['tea'] } }), []).join('\n');
    expect(plan).to.match(/VIRTUAL TABLE INDEX/);
    expect(await count(sel({ kind: 'text', search: { kind: 'terms', field: 'bio', terms: ['tea'] } }))).to.equal(1000);
    expect(await count(sel({ kind: 'text', search: { kind: 'phrase', field: 'bio', terms: ['likes', 'tea'], slop: 0 } }))).to.equal(1000);
    expect(await count(sel({ kind: 'text', search: { kind: 'phrase', field: 'bio', terms: ['tea', 'likes'], slop: 0 } }))).to.equal(0);
    expect(await count(sel({ kind: 'text', search: { kind: 'prefix', field: 'bio', prefix: 'co' } }))).to.equal(1000);
    expect(store.indexes.terms(7, 'shop.Person', 'bio', '', 10)).to.deep.equal(['coffee', 'likes', 'tea']);
  });

  it('counts up to the accuracy, sorts nulls first and pages', async () => {
    expect(await store.indexes.count(sel({ kind: 'all' }), 100)).to.deep.equal({ count: 100, exact: false });
    expect(await keys(sel({ kind: 'in', field: 'name', values: ['name5', 'name1', 'name3'] }), [{ field: 'name', descending: true }])).to.deep.equal(['k5', 'k3', 'k1']);
    expect((await store.indexes.page(sel({ kind: 'all' }), [{ field: 'age', descending: true }], 10, 2)).map((h) => h.key.toString())).to.deep.equal(['k1099', 'k1199']);
  });

  it('streams every match once in bounded doc_id windows, ordered drivers or not', async () => {
    const stream = async (filter: IndexSelection['filter']): Promise<string[]> => {
      const keys: string[] = [];
      let after: number | undefined = 0;
      while (after !== undefined) {
        const { hits, next } = await store.indexes.batch(sel(filter), after, 7);
        keys.push(...hits.map((h) => h.key.toString()));
        after = next;
      }
      return keys;
    };
    expect(await stream({ kind: 'eq', field: 'age', value: 42 })).to.have.length(20);
    const range = await stream({ kind: 'range', field: 'age', lower: 10, upper: 13, includeLower: true, includeUpper: false });
    expect(new Set(range).size).to.equal(60);
    expect(range).to.have.length(60);
    expect(await stream({ kind: 'text', search: { kind: 'terms', field: 'bio', terms: ['coffee'] } })).to.have.length(1000);
  });

  it('nests long unions and long conditions: SQLite refuses 500 compound terms and expressions 1,000 deep', async () => {
    const anyOf = Array.from({ length: 600 }, (_, i) => ({ kind: 'eq' as const, field: 'name', value: `name${i}` }));
    expect(await count(sel({ kind: 'or', items: anyOf }))).to.equal(600);
    const noneOf = Array.from({ length: 1200 }, (_, i) => ({ kind: 'not' as const, item: { kind: 'eq' as const, field: 'name', value: `name${i + 1}` } }));
    expect(await count(sel({ kind: 'and', items: [{ kind: 'eq', field: 'age', value: 0 }, ...noneOf] }))).to.equal(8);
    expect(await count(sel({ kind: 'in', field: 'name', values: [...Array(40_000).fill('name3'), 'name4'] }))).to.equal(2);
  });

  it('negates with NOT EXISTS, so documents without the field match NOT', async () => {
    expect(await count(sel({ kind: 'not', item: { kind: 'exists', field: 'missing' } }))).to.equal(2000);
    expect(await count(sel({ kind: 'not', item: { kind: 'eq', field: 'age', value: 3 } }))).to.equal(1980);
  });

  it('counts groups in the index', async () => {
    const groups = await store.indexes.groupCount(sel({ kind: 'range', field: 'age', upper: 2, includeLower: false, includeUpper: false }), 'age', undefined, true, 100);
    expect(groups).to.deep.equal([{ value: 1, n: 20 }, { value: 0, n: 20 }]);
  });

  it('replaces a document on put, removes it on delete, hides and purges expired ones, clears per cache', async () => {
    await store.write({ kind: 'index.put', cacheId: 7, doc: doc('k1', 'renamed', 1, ['water'], 500) }).promise;
    expect(await keys(sel({ kind: 'eq', field: 'name', value: 'name1' }, 100))).to.deep.equal([]);
    expect(await keys(sel({ kind: 'eq', field: 'name', value: 'renamed' }, 100))).to.deep.equal(['k1']);
    expect(await keys(sel({ kind: 'eq', field: 'name', value: 'renamed' }, 500))).to.deep.equal([]);
    await store.write({ kind: 'index.purgeExpired', cacheId: 7, now: 500 }).promise;
    expect(await count(sel({ kind: 'all' }, 0))).to.equal(1999);
    await store.write({ kind: 'index.delete', cacheId: 7, key: Buffer.from('k2') }).promise;
    expect(await count(sel({ kind: 'all' }))).to.equal(1998);
    const stats = await store.indexes.stats(7);
    expect(stats).to.deep.include({ type: 'shop.Person', count: 1998, size: stats[0].size });
    await store.write({ kind: 'index.clear', cacheId: 7 }).promise;
    expect(await count(sel({ kind: 'all' }))).to.equal(0);
    expect(await count({ ...sel({ kind: 'all' }), cacheId: 8 })).to.equal(1);
  });

  it('forgets, at the next start, the documents of entries only memory held', async () => {
    const memoryOnly = (key: string, flag: boolean): IndexDocument => ({ ...doc(key, key, 1, ['held']), memoryOnly: flag });
    store.write({ kind: 'index.put', cacheId: 9, doc: memoryOnly('kept', false) });
    store.write({ kind: 'index.put', cacheId: 9, doc: memoryOnly('passivated', true) });
    store.write({ kind: 'index.put', cacheId: 9, doc: memoryOnly('activated', false) });
    store.write({ kind: 'index.put', cacheId: 9, doc: memoryOnly('lost', true) });
    store.write({ kind: 'index.memoryOnly', cacheId: 9, key: Buffer.from('passivated'), memoryOnly: false });
    await store.write({ kind: 'index.memoryOnly', cacheId: 9, key: Buffer.from('activated'), memoryOnly: true }).promise;
    expect(store.deleteMemoryOnlyIndexDocuments()).to.equal(2);
    expect(await keys({ ...sel({ kind: 'all' }), cacheId: 9 })).to.deep.equal(['kept', 'passivated']);
    expect(store.deleteMemoryOnlyIndexDocuments()).to.equal(0);
  });

  it('keeps an index with the same tables for memory-only caches, in a file of its own emptied at open', async () => {
    const volatile = store.openVolatileIndexes(() => undefined);
    volatile.apply({ kind: 'index.put', cacheId: 1, doc: doc('m', 'mem', 5, ['x']) });
    expect((await volatile.count({ cacheId: 1, type: 'shop.Person', filter: { kind: 'eq', field: 'age', value: 5 }, now: 0 }, 10)).count).to.equal(1);
    const reopened = store.openVolatileIndexes(() => undefined);
    expect((await reopened.count({ cacheId: 1, type: 'shop.Person', filter: { kind: 'all' }, now: 0 }, 10)).count).to.equal(0);
  });
});

describe('SqliteIndexStore: statements over a large selection run on the reader thread', () => {
  const DOCS = ON_LOOP_CANDIDATES * 3;
  let dir: string;
  let store: SqliteStore;
  const sel = (filter: IndexSelection['filter']): IndexSelection => ({ cacheId: 3, type: 'shop.Person', filter, now: 1000 });

  /** Runs `work` and says whether its statements ran on the reader thread. */
  async function where<T>(work: () => Promise<T>): Promise<{ result: T; offLoop: boolean }> {
    const before = store.reader.answered;
    const result = await work();
    return { result, offLoop: store.reader.answered > before };
  }

  before(async () => {
    dir = tempDir();
    store = new SqliteStore({ dataDir: dir, durability: 'process' });
    for (let i = 0; i < DOCS; i++) store.write({ kind: 'index.put', cacheId: 3, doc: doc(`k${i}`, `name${i}`, i % 100, ['likes', i % 2 ? 'tea' : 'coffee']) });
    await store.write({ kind: 'index.put', cacheId: 3, doc: doc('last', 'last', 100, ['tea']) }).promise;
  });
  after(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sorts, counts and groups a large match set on the reader thread, with the answers of the event loop', async () => {
    const sorted = await where(() => store.indexes.page(sel({ kind: 'all' }), [{ field: 'age', descending: true }, { field: 'name', descending: false }], 1, 2));
    expect(sorted).to.deep.equal({ result: [{ docId: 1100, key: Buffer.from('k1099'), score: 1 }, { docId: 1200, key: Buffer.from('k1199'), score: 1 }], offLoop: true });
    const counted = await where(() => store.indexes.count(sel({ kind: 'range', field: 'age', lower: 50, includeLower: true, includeUpper: false }), 1_000_000));
    expect(counted).to.deep.equal({ result: { count: DOCS / 2 + 1, exact: true }, offLoop: true });
    const grouped = await where(() => store.indexes.groupCount(sel({ kind: 'all' }), 'age', undefined, false, 1000));
    expect(grouped.offLoop).to.equal(true);
    expect(grouped.result).to.have.length(101);
    expect(grouped.result[0]).to.deep.equal({ value: 0, n: DOCS / 100 });
  });

  it('stops a statement at its deadline instead of running it to its end, on either thread', async () => {
    const failure = (p: Promise<unknown>): Promise<{ code?: string }> => p.then(() => expect.fail('the statement ran to its end'), (err: { code?: string }) => err);
    // every document checked against 300 conditions that never hold: seconds of work on the reader thread
    const never = Array.from({ length: 300 }, (_, i) => ({ kind: 'eq' as const, field: 'name', value: `nobody${i}` }));
    const slow = sel({ kind: 'or', items: [...never, { kind: 'not', item: { kind: 'exists', field: 'name' } }] });
    expect((await failure(store.indexes.count({ ...slow, deadline: sharedNow() + 100 }, 1_000_000))).code).to.equal(DEADLINE_PASSED);
    // a small selection, answered on the event loop, past its deadline before it starts
    expect((await failure(store.indexes.count({ ...sel({ kind: 'eq', field: 'name', value: 'name7' }), deadline: sharedNow() - 1 }, 100))).code).to.equal(DEADLINE_PASSED);
    // the reader thread goes on answering
    expect(await store.indexes.count(sel({ kind: 'eq', field: 'age', value: 7 }), 1_000_000)).to.deep.equal({ count: DOCS / 100, exact: true });
  });

  it('answers a small selection on the event loop, and streams a large one in windows', async () => {
    const small = await where(() => store.indexes.count(sel({ kind: 'eq', field: 'name', value: 'name7' }), 100));
    expect(small).to.deep.equal({ result: { count: 1, exact: true }, offLoop: false });
    // a full-text search of many terms (300 fuzzy terms expand to 15,000) is large whatever it matches
    const terms = ['tea', ...Array.from({ length: 300 }, (_, i) => `absent${i}`)];
    const manyTerms = await where(() => store.indexes.count(sel({ kind: 'and', items: [{ kind: 'eq', field: 'name', value: 'name1' }, { kind: 'text', search: { kind: 'terms', field: 'bio', terms } }] }), 100));
    expect(manyTerms).to.deep.equal({ result: { count: 1, exact: true }, offLoop: true });
    const keys = new Set<string>();
    let after: number | undefined = 0;
    while (after !== undefined) {
      const { hits, next } = await store.indexes.batch(sel({ kind: 'text', search: { kind: 'terms', field: 'bio', terms: ['tea'] } }), after, 500);
      for (const h of hits) keys.add(h.key.toString());
      after = next;
    }
    expect(keys.size).to.equal(DOCS / 2 + 1);
  });
});

describe('SqliteIndexStore: 64-bit integers are exact INTEGERs (docs/query.md "64-bit integers")', () => {
  const TWO_53 = 2n ** 53n;
  const LONG_MIN = -(2n ** 63n);
  const LONG_MAX = 2n ** 63n - 1n;
  /** More documents than the event loop takes: statements over all of them run on the reader thread. */
  const DOCS = ON_LOOP_CANDIDATES + 400;
  let dir: string;
  let store: SqliteStore;
  const sel = (filter: IndexSelection['filter']): IndexSelection => ({ cacheId: 5, type: 'tl.Event', filter, now: 1000 });
  const event = (key: string, stamp: bigint): IndexDocument => ({ key: Buffer.from(key), type: 'tl.Event', expiresAt: null, values: [['stamp', stamp]], texts: [], memoryOnly: false });

  before(async () => {
    dir = tempDir();
    store = new SqliteStore({ dataDir: dir, durability: 'process' });
    // 2^53 + 1 written first: a store that rounded it would tie it with 2^53 and keep this order
    for (let i = 0; i < DOCS; i++) store.write({ kind: 'index.put', cacheId: 5, doc: event(`k${i}`, TWO_53 + BigInt((i + 1) % 3)) });
    store.write({ kind: 'index.put', cacheId: 5, doc: event('min', LONG_MIN) });
    await store.write({ kind: 'index.put', cacheId: 5, doc: event('max', LONG_MAX) }).promise;
  });
  after(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('finds equal values and ranges exactly, and sorts by them', async () => {
    expect((await store.indexes.count(sel({ kind: 'eq', field: 'stamp', value: TWO_53 + 1n }), 10_000)).count).to.equal(DOCS / 3);
    expect((await store.indexes.count(sel({ kind: 'range', field: 'stamp', lower: TWO_53 + 1n, includeLower: false, includeUpper: false }), 10_000)).count).to.equal(DOCS / 3 + 1);
    const first = await store.indexes.page(sel({ kind: 'range', field: 'stamp', upper: TWO_53 + 1n, includeLower: false, includeUpper: true }), [{ field: 'stamp', descending: false }], 0, 2);
    expect(first.map((h) => h.key.toString())).to.deep.equal(['min', 'k2']);
  });

  it('counts groups with their exact values, on the event loop and on the reader thread', async () => {
    const before = store.reader.answered;
    const all = await store.indexes.groupCount(sel({ kind: 'all' }), 'stamp', undefined, false, 10);
    expect(store.reader.answered).to.be.above(before);
    expect(all).to.deep.equal([
      { value: LONG_MIN, n: 1 }, { value: TWO_53, n: DOCS / 3 }, { value: TWO_53 + 1n, n: DOCS / 3 }, { value: TWO_53 + 2n, n: DOCS / 3 }, { value: LONG_MAX, n: 1 },
    ]);
    const small = await store.indexes.groupCount(sel({ kind: 'range', field: 'stamp', lower: TWO_53 + 2n, includeLower: true, includeUpper: false }), 'stamp', undefined, true, 10);
    expect(small).to.deep.equal([{ value: LONG_MAX, n: 1 }, { value: TWO_53 + 2n, n: DOCS / 3 }]);
  });
});

import { expect } from 'chai';
import { rmSync } from 'node:fs';
import type { IndexDocument, IndexSelection } from '../../src/store/store';
import { SqliteStore } from '../../src/store/sqlite-store';
import { tempDir } from '../support/server';

const doc = (key: string, name: string, age: number, words: string[], expiresAt: number | null = null): IndexDocument => ({
  key: Buffer.from(key),
  type: 'shop.Person',
  expiresAt,
  values: [['name', name], ['age', age], ['tags', 't1'], ['tags', 't2']],
  texts: [['bio', [words]]],
});

describe('SqliteIndexStore (query indexes in SQLite)', () => {
  let dir: string;
  let store: SqliteStore;
  const sel = (filter: IndexSelection['filter'], now = 1000): IndexSelection => ({ cacheId: 7, type: 'shop.Person', filter, now });
  const keys = (s: IndexSelection, sort = [{ field: 'age', descending: false }]) => store.indexes.page(s, sort, 0, 100).map((h) => h.key.toString());

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

  it('answers equality through the (field, value) B-tree: EXPLAIN QUERY PLAN shows no scan of the documents', () => {
    const plan = store.indexes.explain(sel({ kind: 'eq', field: 'name', value: 'name42' }), []).join('\n');
    expect(plan).to.match(/SEARCH index_values USING PRIMARY KEY \(field_id=\? AND value=\?\)/);
    expect(plan).to.match(/SEARCH d USING (COVERING INDEX index_docs_type \(type_id=\? AND rowid=\?\)|INTEGER PRIMARY KEY \(rowid=\?\))/);
    expect(plan).to.not.match(/SCAN (d|index_docs|index_values)\b/);
    expect(plan.indexOf('index_values')).to.be.below(plan.indexOf('SEARCH d'));
    expect(keys(sel({ kind: 'eq', field: 'name', value: 'name42' }))).to.deep.equal(['k42']);
  });

  it('answers ranges with a B-tree range, and checks the rest of a condition per candidate', () => {
    const range = { kind: 'range' as const, field: 'age', lower: 10, upper: 12, includeLower: true, includeUpper: false };
    const plan = store.indexes.explain(sel(range), []).join('\n');
    expect(plan).to.match(/SEARCH index_values USING PRIMARY KEY \(field_id=\? AND value>\? AND value<\?\)/);
    expect(store.indexes.count(sel(range), 10_000)).to.deep.equal({ count: 40, exact: true });
    const both = { kind: 'and' as const, items: [range, { kind: 'text' as const, search: { kind: 'terms' as const, field: 'bio', terms: ['tea'] } }] };
    expect(store.indexes.explain(sel(both), []).join('\n')).to.match(/SEARCH v EXISTS USING COVERING INDEX index_values_doc \(doc_id=\? AND field_id=\? AND value>\? AND value<\?\)/);
    expect(store.indexes.count(sel(both), 10_000)).to.deep.equal({ count: 20, exact: true });
  });

  it('answers full text through FTS5, phrases in order, prefixes, and the vocabulary in order', () => {
    const plan = store.indexes.explain(sel({ kind: 'text', search: { kind: 'terms', field: 'bio', terms: ['tea'] } }), []).join('\n');
    expect(plan).to.match(/VIRTUAL TABLE INDEX/);
    expect(store.indexes.count(sel({ kind: 'text', search: { kind: 'terms', field: 'bio', terms: ['tea'] } }), 10_000).count).to.equal(1000);
    expect(store.indexes.count(sel({ kind: 'text', search: { kind: 'phrase', field: 'bio', terms: ['likes', 'tea'], slop: 0 } }), 10_000).count).to.equal(1000);
    expect(store.indexes.count(sel({ kind: 'text', search: { kind: 'phrase', field: 'bio', terms: ['tea', 'likes'], slop: 0 } }), 10_000).count).to.equal(0);
    expect(store.indexes.count(sel({ kind: 'text', search: { kind: 'prefix', field: 'bio', prefix: 'co' } }), 10_000).count).to.equal(1000);
    expect(store.indexes.terms(7, 'shop.Person', 'bio', '', 10)).to.deep.equal(['coffee', 'likes', 'tea']);
  });

  it('counts up to the accuracy, sorts nulls first and pages', () => {
    expect(store.indexes.count(sel({ kind: 'all' }), 100)).to.deep.equal({ count: 100, exact: false });
    expect(keys(sel({ kind: 'in', field: 'name', values: ['name5', 'name1', 'name3'] }), [{ field: 'name', descending: true }])).to.deep.equal(['k5', 'k3', 'k1']);
    expect(store.indexes.page(sel({ kind: 'all' }), [{ field: 'age', descending: true }], 10, 2).map((h) => h.key.toString())).to.deep.equal(['k1099', 'k1199']);
  });

  it('streams every match once in bounded doc_id windows, ordered drivers or not', () => {
    const stream = (filter: IndexSelection['filter']): string[] => {
      const keys: string[] = [];
      let after: number | undefined = 0;
      while (after !== undefined) {
        const { hits, next } = store.indexes.batch(sel(filter), after, 7);
        keys.push(...hits.map((h) => h.key.toString()));
        after = next;
      }
      return keys;
    };
    expect(stream({ kind: 'eq', field: 'age', value: 42 })).to.have.length(20);
    const range = stream({ kind: 'range', field: 'age', lower: 10, upper: 13, includeLower: true, includeUpper: false });
    expect(new Set(range).size).to.equal(60);
    expect(range).to.have.length(60);
    expect(stream({ kind: 'text', search: { kind: 'terms', field: 'bio', terms: ['coffee'] } })).to.have.length(1000);
  });

  it('negates with NOT EXISTS, so documents without the field match NOT', () => {
    expect(store.indexes.count(sel({ kind: 'not', item: { kind: 'exists', field: 'missing' } }), 10_000).count).to.equal(2000);
    expect(store.indexes.count(sel({ kind: 'not', item: { kind: 'eq', field: 'age', value: 3 } }), 10_000).count).to.equal(1980);
  });

  it('counts groups in the index', () => {
    const groups = store.indexes.groupCount(sel({ kind: 'range', field: 'age', upper: 2, includeLower: false, includeUpper: false }), 'age', undefined, true);
    expect(groups).to.deep.equal([{ value: 1, n: 20 }, { value: 0, n: 20 }]);
  });

  it('replaces a document on put, removes it on delete, hides and purges expired ones, clears per cache', async () => {
    await store.write({ kind: 'index.put', cacheId: 7, doc: doc('k1', 'renamed', 1, ['water'], 500) }).promise;
    expect(keys(sel({ kind: 'eq', field: 'name', value: 'name1' }, 100))).to.deep.equal([]);
    expect(keys(sel({ kind: 'eq', field: 'name', value: 'renamed' }, 100))).to.deep.equal(['k1']);
    expect(keys(sel({ kind: 'eq', field: 'name', value: 'renamed' }, 500))).to.deep.equal([]);
    await store.write({ kind: 'index.purgeExpired', cacheId: 7, now: 500 }).promise;
    expect(store.indexes.count(sel({ kind: 'all' }, 0), 10_000).count).to.equal(1999);
    await store.write({ kind: 'index.delete', cacheId: 7, key: Buffer.from('k2') }).promise;
    expect(store.indexes.count(sel({ kind: 'all' }), 10_000).count).to.equal(1998);
    expect(store.indexes.stats(7)).to.deep.include({ type: 'shop.Person', count: 1998, size: store.indexes.stats(7)[0].size });
    await store.write({ kind: 'index.clear', cacheId: 7 }).promise;
    expect(store.indexes.count(sel({ kind: 'all' }), 10_000).count).to.equal(0);
    expect(store.indexes.count({ ...sel({ kind: 'all' }), cacheId: 8 }, 10_000).count).to.equal(1);
  });

  it('keeps an in-memory index with the same tables for memory-only caches', () => {
    const volatile = store.openVolatileIndexes();
    volatile.apply({ kind: 'index.put', cacheId: 1, doc: doc('m', 'mem', 5, ['x']) });
    expect(volatile.count({ cacheId: 1, type: 'shop.Person', filter: { kind: 'eq', field: 'age', value: 5 }, now: 0 }, 10).count).to.equal(1);
  });
});

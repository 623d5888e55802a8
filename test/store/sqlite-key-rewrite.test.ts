import { expect } from 'chai';
import type { StoredEntry } from '../../src/store/records';
import { SqliteEntryStore } from '../../src/store/sqlite-entry.store';
import { rewriteKeys } from '../../src/store/sqlite-key-rewrite';
import { useDatabase } from '../support/database';

const upper = (key: Buffer): Buffer | undefined => {
  const up = Buffer.from(key.toString('utf8').toUpperCase());
  return up.equals(key) ? undefined : up;
};

function entry(k: string, value: string, created = 1000): StoredEntry {
  return { key: Buffer.from(k), value: Buffer.from(value), valueType: null, created, lastUsed: created, lifespan: -1, maxIdle: -1 };
}

describe('rewriteKeys (one-time key data migration)', () => {
  const database = useDatabase('grid-rewrite-');
  let entries: SqliteEntryStore;
  const all = (cacheId: number) => entries.listKeys(cacheId, Buffer.alloc(0), 10_000).map(({ key }) => `${key.toString()}=${entries.find(cacheId, key)!.value.toString()}`);

  beforeEach(() => {
    entries = new SqliteEntryStore(database.db);
  });

  it('moves entries to their new keys, with their values and times, only in the caches it is given', async () => {
    entries.upsert(1, entry('a', 'va', 5));
    entries.upsert(1, entry('B', 'vb'));
    entries.upsert(2, entry('c', 'vc'));
    const outcome = await rewriteKeys(database.db, 'test', [{ cacheId: 1, convert: upper }], 1);
    expect(outcome).to.deep.equal({ rewritten: 1, collisions: 0 });
    expect(all(1)).to.deep.equal(['A=va', 'B=vb']);
    expect(entries.find(1, Buffer.from('A'))!.created).to.equal(5);
    expect(all(2)).to.deep.equal(['c=vc']);
  });

  it('keeps the most recently written entry when two keys meet, whether moved or already there', async () => {
    entries.upsert(1, entry('x', 'old x', 1));
    entries.upsert(1, entry('X', 'new X', 2));
    entries.upsert(1, entry('y', 'new y', 9));
    entries.upsert(1, entry('Y', 'old Y', 3));
    const outcome = await rewriteKeys(database.db, 'test', [{ cacheId: 1, convert: upper }], 1);
    expect(outcome).to.deep.equal({ rewritten: 2, collisions: 2 });
    expect(all(1)).to.deep.equal(['X=new X', 'Y=new y']);
  });

  it('pages through a cache larger than one page', async () => {
    database.db.transaction(() => { for (let i = 0; i < 1234; i++) entries.upsert(1, entry(`k${i}`, `v${i}`)); })();
    expect(await rewriteKeys(database.db, 'test', [{ cacheId: 1, convert: upper }], 1)).to.deep.equal({ rewritten: 1234, collisions: 0 });
    expect(await entries.count(1, 0)).to.equal(1234);
    expect(entries.find(1, Buffer.from('K1233'))!.value.toString()).to.equal('v1233');
  });

  it('runs once per name', async () => {
    entries.upsert(1, entry('a', 'va'));
    await rewriteKeys(database.db, 'test', [{ cacheId: 1, convert: upper }], 1);
    entries.upsert(1, entry('b', 'vb'));
    expect(await rewriteKeys(database.db, 'test', [{ cacheId: 1, convert: upper }], 2)).to.equal(undefined);
    expect(all(1)).to.deep.equal(['A=va', 'b=vb']);
  });

  it('changes nothing, and stays to be run again, when the conversion fails', async () => {
    entries.upsert(1, entry('a', 'va'));
    entries.upsert(1, entry('b', 'vb'));
    const failing = (key: Buffer) => { if (key.toString() === 'b') throw new Error('boom'); return upper(key); };
    let error: unknown;
    await rewriteKeys(database.db, 'test', [{ cacheId: 1, convert: failing }], 1).catch((e: unknown) => { error = e; });
    expect((error as Error).message).to.equal('boom');
    expect(all(1)).to.deep.equal(['a=va', 'b=vb']);
    expect(database.db.inTransaction).to.equal(false);
    expect(await rewriteKeys(database.db, 'test', [{ cacheId: 1, convert: upper }], 1)).to.deep.equal({ rewritten: 2, collisions: 0 });
  });
});

import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Commit, GroupCommitter, type Syncer } from '../../src/store/group-commit';
import type { StoredEntry } from '../../src/store/records';
import { KEY_PAGE_SQL, SqliteEntryStore } from '../../src/store/sqlite-entry.store';
import { SqliteStore } from '../../src/store/sqlite-store';
import type { WriteOp } from '../../src/store/write-ops';
import { useDatabase } from '../support/database';

const CACHE = 1;
const OTHER_CACHE = 2;

function key(k: string | number[]): Buffer {
  return typeof k === 'string' ? Buffer.from(k, 'utf8') : Buffer.from(k);
}

/** An immortal entry created at t=1000 unless `more` says otherwise. */
function entry(k: string | number[], value: string, more: Partial<StoredEntry> = {}): StoredEntry {
  return { key: key(k), value: Buffer.from(value), valueType: null, created: 1000, lastUsed: 1000, lifespan: -1, maxIdle: -1, ...more };
}

function hex(...keys: Array<string | number[]>): string[] {
  return keys.map((k) => key(k).toString('hex'));
}

describe('SqliteEntryStore', () => {
  const database = useDatabase('grid-entries-');
  let entries: SqliteEntryStore;

  beforeEach(() => {
    entries = new SqliteEntryStore(database.db);
  });

  describe('upsert / find', () => {
    it('finds what was stored, every field', () => {
      const e = entry('k', 'v', { valueType: 'text/plain', created: 1234, lastUsed: 5678, lifespan: 60_000, maxIdle: 30_000 });
      entries.upsert(CACHE, e);
      expect(entries.find(CACHE, key('k'))).to.deep.equal(e);
    });

    it('stores binary keys and values byte for byte', () => {
      const e = { ...entry([0x00, 0xff, 0x80], ''), value: Buffer.from([0x00, 0x01, 0xfe]) };
      entries.upsert(CACHE, e);
      expect(entries.find(CACHE, key([0x00, 0xff, 0x80]))?.value).to.deep.equal(Buffer.from([0x00, 0x01, 0xfe]));
    });

    it('stores an empty value', () => {
      entries.upsert(CACHE, entry('k', ''));
      expect(entries.find(CACHE, key('k'))?.value).to.deep.equal(Buffer.alloc(0));
    });

    it('finds nothing for an absent key', () => {
      expect(entries.find(CACHE, key('missing'))).to.equal(undefined);
    });

    it('keeps caches apart', () => {
      entries.upsert(CACHE, entry('k', 'v'));
      expect(entries.find(OTHER_CACHE, key('k'))).to.equal(undefined);
    });

    it('replaces the value of an existing key', async () => {
      entries.upsert(CACHE, entry('k', 'first'));
      entries.upsert(CACHE, entry('k', 'second', { created: 2000 }));
      expect(entries.find(CACHE, key('k'))).to.deep.include({ value: Buffer.from('second'), created: 2000 });
      expect(await entries.count(CACHE, 0)).to.equal(1);
    });
  });

  describe('count', () => {
    beforeEach(() => {
      entries.upsert(CACHE, entry('immortal', 'v'));
      entries.upsert(CACHE, entry('lifespan', 'v', { created: 1000, lifespan: 500 }));      // expires at 1500
      entries.upsert(CACHE, entry('idle', 'v', { lastUsed: 2000, maxIdle: 1000 }));         // expires at 3000
      entries.upsert(CACHE, entry('both', 'v', { lifespan: 5000, lastUsed: 1000, maxIdle: 1500 })); // idle first: 2500
      entries.upsert(OTHER_CACHE, entry('elsewhere', 'v'));
    });

    it('counts every entry of the cache before anything expires', async () => {
      expect(await entries.count(CACHE, 1499)).to.equal(4);
    });

    it('leaves out an entry from the moment its lifespan has elapsed', async () => {
      expect(await entries.count(CACHE, 1500)).to.equal(3);
    });

    it('leaves out an entry idle for longer than its max idle, whichever limit comes first', async () => {
      expect(await entries.count(CACHE, 2499)).to.equal(3);
      expect(await entries.count(CACHE, 2500)).to.equal(2);
      expect(await entries.count(CACHE, 3000)).to.equal(1);
    });

    it('counts only the given cache', async () => {
      expect(await entries.count(OTHER_CACHE, 10_000)).to.equal(1);
      expect(await entries.count(3, 0)).to.equal(0);
    });
  });

  describe('listKeys', () => {
    beforeEach(() => {
      for (const k of ['b', 'a', [0xff], 'ab', [0x00]]) entries.upsert(CACHE, entry(k, 'v'));
      entries.upsert(OTHER_CACHE, entry('aa', 'v'));
    });

    const keysAfter = (cacheId: number, after: Buffer, limit: number) => entries.listKeys(cacheId, after, limit).map((r) => r.key.toString('hex'));

    it('pages through the keys of the cache in key byte order', () => {
      const first = entries.listKeys(CACHE, Buffer.alloc(0), 2);
      expect(first.map((r) => r.key.toString('hex'))).to.deep.equal(hex([0x00], 'a'));
      const second = entries.listKeys(CACHE, first[1].key, 2);
      expect(second.map((r) => r.key.toString('hex'))).to.deep.equal(hex('ab', 'b'));
      expect(keysAfter(CACHE, second[1].key, 2)).to.deep.equal(hex([0xff]));
      expect(keysAfter(CACHE, key([0xff]), 2)).to.deep.equal([]);
    });

    it('gives each key with its stored expiry', () => {
      entries.upsert(CACHE, entry('mortal', 'v', { created: 1000, lifespan: 500 }));
      expect(entries.listKeys(CACHE, key('m'), 1)).to.deep.equal([{ key: key('mortal'), expiresAt: 1500 }]);
      expect(entries.listKeys(CACHE, Buffer.alloc(0), 1)).to.deep.equal([{ key: key([0x00]), expiresAt: null }]);
    });

    it('starts after a key that is not stored', () => {
      expect(keysAfter(CACHE, key('aa'), 10)).to.deep.equal(hex('ab', 'b', [0xff]));
    });

    it('lists only the given cache', () => {
      expect(keysAfter(OTHER_CACHE, Buffer.alloc(0), 10)).to.deep.equal(hex('aa'));
    });

    it('reads indexes only, never the rows that hold the values', () => {
      const plan = (database.db.prepare(`EXPLAIN QUERY PLAN ${KEY_PAGE_SQL} ORDER BY k.key LIMIT ?`).all(CACHE, Buffer.alloc(0), 1) as Array<{ detail: string }>).map((p) => p.detail);
      expect(plan).to.have.length(2);
      expect(plan.every((p) => p.includes('COVERING INDEX'))).to.equal(true);
    });

    it('follows an entry that becomes mortal, and immortal again', () => {
      entries.upsert(CACHE, entry('a', 'v', { lifespan: 500 }));
      expect(entries.listKeys(CACHE, key([0x00]), 1)).to.deep.equal([{ key: key('a'), expiresAt: 1500 }]);
      entries.upsert(CACHE, entry('a', 'v'));
      expect(entries.listKeys(CACHE, key([0x00]), 1)).to.deep.equal([{ key: key('a'), expiresAt: null }]);
    });
  });

  describe('delete / clear / deleteExpired', () => {
    it('delete removes the key and says whether it was there', () => {
      entries.upsert(CACHE, entry('k', 'v'));
      expect(entries.delete(CACHE, key('k'))).to.equal(true);
      expect(entries.find(CACHE, key('k'))).to.equal(undefined);
      expect(entries.delete(CACHE, key('k'))).to.equal(false);
    });

    it('delete leaves the same key of another cache', () => {
      entries.upsert(CACHE, entry('k', 'v'));
      entries.upsert(OTHER_CACHE, entry('k', 'v'));
      entries.delete(CACHE, key('k'));
      expect(entries.find(OTHER_CACHE, key('k'))).to.not.equal(undefined);
    });

    it('clear removes every entry of the cache, returns how many, and leaves other caches', async () => {
      for (const k of ['a', 'b', 'c']) entries.upsert(CACHE, entry(k, 'v'));
      entries.upsert(OTHER_CACHE, entry('a', 'v'));
      expect(entries.clear(CACHE)).to.equal(3);
      expect(await entries.count(CACHE, 0)).to.equal(0);
      expect(await entries.count(OTHER_CACHE, 0)).to.equal(1);
      expect(entries.clear(CACHE)).to.equal(0);
    });

    it('deleteExpired removes the entries expired at `now`, returns how many, keeps the rest', () => {
      entries.upsert(CACHE, entry('immortal', 'v'));
      entries.upsert(CACHE, entry('expired', 'v', { lifespan: 500 }));    // 1500
      entries.upsert(CACHE, entry('at-now', 'v', { lifespan: 1000 }));    // 2000
      entries.upsert(CACHE, entry('later', 'v', { maxIdle: 5000 }));      // 6000
      entries.upsert(OTHER_CACHE, entry('expired', 'v', { lifespan: 500 }));
      expect(entries.deleteExpired(CACHE, 2000)).to.equal(2);
      expect(entries.listKeys(CACHE, Buffer.alloc(0), 10).map((r) => r.key.toString('hex'))).to.deep.equal(hex('immortal', 'later'));
      expect(entries.find(OTHER_CACHE, key('expired'))).to.not.equal(undefined);
      expect(entries.deleteExpired(CACHE, 2000)).to.equal(0);
    });
  });
});

describe('GroupCommitter on a SQLite file', () => {
  let entries: SqliteEntryStore;
  let batches: WriteOp[][];
  let failures: Array<{ ops: WriteOp[]; err: Error }>;
  let committer: GroupCommitter;

  const upsert = (k: string, v: string): WriteOp => ({ kind: 'entry.upsert', cacheId: CACHE, entry: entry(k, v) });
  // A value of NULL breaks the NOT NULL constraint of entries.value: a write SQLite refuses.
  const refused = (k: string): WriteOp => ({ kind: 'entry.upsert', cacheId: CACHE, entry: { ...entry(k, ''), value: null as unknown as Buffer } });

  afterEach(() => committer.flush()); // declared first: it runs before the database closes
  const database = useDatabase('grid-commit-');

  beforeEach(() => {
    entries = new SqliteEntryStore(database.db);
    batches = [];
    failures = [];
    const transaction = database.db.transaction((ops: WriteOp[]) => {
      for (const op of ops) if (op.kind === 'entry.upsert') entries.upsert(op.cacheId, op.entry);
    });
    committer = new GroupCommitter((ops) => {
      batches.push(ops);
      transaction(ops);
    }, (ops, err) => failures.push({ ops, err }));
  });

  it('writes submitted in one turn share one Commit and one batch, in arrival order', async () => {
    const a = upsert('a', '1');
    const b = upsert('b', '2');
    const c = upsert('a', '3');
    const first = committer.submit(a);
    expect(committer.submit(b)).to.equal(first);
    expect(committer.submit(c)).to.equal(first);
    await first.promise;
    expect(batches).to.deep.equal([[a, b, c]]);
    expect(entries.find(CACHE, key('a'))?.value.toString()).to.equal('3');
  });

  it('writes in different turns get different commits', async () => {
    const first = committer.submit(upsert('a', '1'));
    await first.promise;
    const second = committer.submit(upsert('b', '2'));
    expect(second).to.not.equal(first);
    await second.promise;
    expect(batches).to.have.length(2);
  });

  it('resolves the promise only after the batch is applied', async () => {
    const commit = committer.submit(upsert('k', 'v'));
    expect(commit.done).to.equal(false);
    expect(entries.find(CACHE, key('k'))).to.equal(undefined);
    await commit.promise;
    expect(commit.done).to.equal(true);
    expect(commit.error).to.equal(undefined);
    expect(entries.find(CACHE, key('k'))?.value.toString()).to.equal('v');
  });

  it('shows the collecting commit as pending until it is committed', async () => {
    expect(committer.pending).to.equal(undefined);
    const commit = committer.submit(upsert('k', 'v'));
    expect(committer.pending).to.equal(commit);
    await commit.promise;
    expect(committer.pending).to.equal(undefined);
  });

  it('flush commits what is pending at once', () => {
    const commit = committer.submit(upsert('k', 'v'));
    committer.flush();
    expect(commit.done).to.equal(true);
    expect(entries.find(CACHE, key('k'))).to.not.equal(undefined);
  });

  it('a failing batch rejects its promise, rolls back the whole batch and calls onFailure with its writes', async () => {
    const good = upsert('good', 'v');
    const bad = refused('bad');
    const commit = committer.submit(good);
    committer.submit(bad);
    let rejected: unknown;
    await commit.promise.catch((err: unknown) => { rejected = err; });
    expect(rejected).to.be.instanceOf(Error);
    expect(commit.error).to.equal(rejected);
    expect(failures).to.have.length(1);
    expect(failures[0].ops).to.deep.equal([good, bad]);
    expect(failures[0].err).to.equal(rejected);
    expect(entries.find(CACHE, key('good'))).to.equal(undefined);
  });

  it('commits the next batch normally after a failed one', async () => {
    await committer.submit(refused('bad')).promise.catch(() => undefined);
    await committer.submit(upsert('next', 'v')).promise;
    expect(entries.find(CACHE, key('next'))?.value.toString()).to.equal('v');
  });

  it('a Commit can be finished by hand with an error', async () => {
    const commit = new Commit();
    commit.finish(new Error('disk full'));
    let message = '';
    await commit.promise.catch((err: Error) => { message = err.message; });
    expect(message).to.equal('disk full');
  });
});

/** A syncer the test releases by hand: each sync() waits until `release()` or `refuse()`. */
class HandSyncer implements Syncer {
  calls: Array<{ resolve: () => void; reject: (err: Error) => void }> = [];
  now = 0;
  sync(): Promise<void> {
    return new Promise((resolve, reject) => this.calls.push({ resolve, reject }));
  }
  syncNow(): void {
    this.now++;
  }
  release(i = this.calls.length - 1): void {
    this.calls[i].resolve();
  }
  refuse(err: Error, i = this.calls.length - 1): void {
    this.calls[i].reject(err);
  }
}

const turn = () => new Promise((r) => setImmediate(r));

describe('GroupCommitter with a syncer (--durability power: the WAL synced off the event loop)', () => {
  let applied: WriteOp[][];
  let failures: Array<{ ops: WriteOp[]; err: Error }>;
  let syncer: HandSyncer;
  let committer: GroupCommitter;
  const op = (k: string): WriteOp => ({ kind: 'entry.upsert', cacheId: CACHE, entry: entry(k, 'v') });

  beforeEach(() => {
    applied = [];
    failures = [];
    syncer = new HandSyncer();
    committer = new GroupCommitter((ops) => applied.push(ops), (ops, err) => failures.push({ ops, err }), syncer);
  });

  it('finishes a commit only once a sync begun after its batch was written has returned', async () => {
    const commit = committer.submit(op('a'));
    await turn();
    expect(applied).to.have.length(1);
    expect(syncer.calls).to.have.length(1);
    expect(commit.done).to.equal(false);
    expect(committer.pending).to.equal(commit);
    syncer.release();
    await commit.promise;
    expect(commit.done).to.equal(true);
    expect(committer.pending).to.equal(undefined);
  });

  it('writes batches while a sync runs, each synced at once; a sync that returns finishes every batch written before it began', async () => {
    const first = committer.submit(op('a'));
    await turn();
    const second = committer.submit(op('b'));
    await turn();
    const third = committer.submit(op('c'));
    await turn();
    expect(applied).to.have.length(3); // written meanwhile: the loop was not held by the syncs
    expect(syncer.calls).to.have.length(3);
    expect(committer.pending).to.equal(third);
    syncer.release(0);
    await first.promise;
    expect([second.done, third.done]).to.deep.equal([false, false]);
    syncer.release(2); // began after the second batch was written too
    await Promise.all([second.promise, third.promise]);
    expect(committer.pending).to.equal(undefined);
    syncer.release(1); // returning late changes nothing
    await turn();
  });

  it('a failed sync refuses every write not yet finished and every write after it; nothing more is written', async () => {
    const first = committer.submit(op('a'));
    await turn();
    const second = committer.submit(op('b'));
    await turn();
    syncer.refuse(new Error('EIO'), 0);
    const errors = await Promise.all([first, second].map((c) => c.promise.then(() => undefined, (err: Error) => err.message)));
    expect(errors).to.deep.equal(['EIO', 'EIO']);
    expect(failures.map((f) => f.ops.length)).to.deep.equal([1, 1]);
    const later = committer.submit(op('c'));
    expect(await later.promise.then(() => undefined, (err: Error) => err.message)).to.equal('EIO');
    await turn();
    expect(applied).to.have.length(2);
  });

  it('written() resolves once the collecting batch is written, durable() once every written batch is synced', async () => {
    committer.submit(op('a'));
    expect(committer.collecting).to.not.equal(undefined);
    let written = false;
    const w = committer.written().then(() => { written = true; });
    await w;
    expect([written, applied.length, committer.collecting]).to.deep.equal([true, 1, undefined]);
    committer.submit(op('b'));
    await committer.written();
    let durable = false;
    const d = committer.durable().then(() => { durable = true; });
    syncer.release(0);
    await turn();
    expect(durable).to.equal(false); // the second batch is not synced yet
    syncer.release(1);
    await d;
    expect(durable).to.equal(true);
  });

  it('durable() rejects when a sync fails', async () => {
    committer.submit(op('a'));
    await committer.written();
    const d = committer.durable().then(() => 'durable', (err: Error) => err.message);
    syncer.refuse(new Error('EIO'));
    expect(await d).to.equal('EIO');
  });

  it('flushNow writes and syncs what is pending before returning (shutdown)', async () => {
    const written = committer.submit(op('a'));
    await turn();
    const open = committer.submit(op('b'));
    committer.flushNow();
    expect(syncer.now).to.equal(1);
    expect([written.done, open.done]).to.deep.equal([true, true]);
    expect(applied).to.have.length(2);
  });
});

describe('SqliteStore write path', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'grid-store-'));
  });

  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('commits writes of one turn together and makes them readable', async () => {
    const store = new SqliteStore({ dataDir: dir, durability: 'process' });
    try {
      const one = store.write({ kind: 'entry.upsert', cacheId: CACHE, entry: entry('a', '1') });
      const two = store.write({ kind: 'entry.upsert', cacheId: CACHE, entry: entry('b', '2') });
      expect(two).to.equal(one);
      expect(store.pendingCommit).to.equal(one);
      await one.promise;
      expect(await store.entries.count(CACHE, 0)).to.equal(2);
    } finally {
      store.close();
    }
  });

  it('rolls back a batch SQLite refuses and tells the failure listener', async () => {
    const failed: WriteOp[][] = [];
    const store = new SqliteStore({ dataDir: dir, durability: 'process', onCommitFailure: (ops) => failed.push(ops) });
    try {
      const record = { id: 7, name: 'orders', config: '{}', createdAt: 1 };
      const commit = store.write({ kind: 'cache.insert', record });
      store.write({ kind: 'entry.upsert', cacheId: 7, entry: entry('k', 'v') });
      store.write({ kind: 'cache.insert', record: { ...record, id: 8 } }); // same name: UNIQUE refuses
      let rejected = false;
      await commit.promise.catch(() => { rejected = true; });
      expect(rejected).to.equal(true);
      expect(failed).to.have.length(1);
      expect(failed[0]).to.have.length(3);
      expect(store.definitions.listCaches()).to.deep.equal([]);
      expect(store.entries.find(7, key('k'))).to.equal(undefined);
    } finally {
      store.close();
    }
  });

  it('close commits what is still pending, so it is there after reopening', () => {
    const store = new SqliteStore({ dataDir: dir, durability: 'power' });
    store.write({ kind: 'entry.upsert', cacheId: CACHE, entry: entry('k', 'v') });
    store.close();
    const reopened = new SqliteStore({ dataDir: dir, durability: 'power' });
    try {
      expect(reopened.entries.find(CACHE, key('k'))?.value.toString()).to.equal('v');
    } finally {
      reopened.close();
    }
  });
});

import type { WriteOp } from './write-ops';

/** One transaction's worth of writes; every request that wrote into it waits on `promise`. */
export class Commit {
  done = false;
  error: Error | undefined;
  readonly promise: Promise<void>;
  private settle!: (err?: Error) => void;

  constructor() {
    this.promise = new Promise<void>((resolve, reject) => {
      this.settle = (err) => (err ? reject(err) : resolve());
    });
    this.promise.catch(() => undefined); // awaited by requests; never an unhandled rejection
  }

  finish(err?: Error): void {
    if (this.done) return;
    this.done = true;
    this.error = err;
    this.settle(err);
  }
}

/**
 * Makes written transactions durable: `sync()` off the event loop (the libuv thread pool),
 * `syncNow()` at shutdown. Covers every transaction written before it was called.
 */
export interface Syncer {
  sync(): Promise<void>;
  syncNow(): void;
}

interface Written {
  commit: Commit;
  ops: WriteOp[];
}

/**
 * Group commit: writes submitted during one turn of the event loop share one transaction, run on
 * `setImmediate`, so N concurrent writers pay for one fsync. A request is answered only after the
 * commit its write belongs to has finished — with a `Syncer`, once a sync that began after its
 * transaction was written has returned. Syncs run off the event loop, so while one runs the loop
 * keeps reading requests and writing their transactions. A failed sync refuses every write not yet
 * finished and every write after it: what is durable is no longer known (docs/reliability.md).
 */
export class GroupCommitter {
  private ops: WriteOp[] = [];
  private open: Commit | undefined;
  private scheduled = false;
  /** Written, waiting for a sync to begin (only between a write and the sync it starts). */
  private unsynced: Written[] = [];
  /** Written and waiting for a sync that began after them to return, in the order written. */
  private syncing: Written[] = [];
  private broken: Error | undefined;
  /** Who waits for the collecting batch to be written (`written()`). */
  private writtenWaiters: Array<() => void> = [];

  constructor(
    private readonly applyBatch: (ops: WriteOp[]) => void,
    private readonly onFailure: (ops: WriteOp[], err: Error) => void,
    private readonly syncer?: Syncer,
  ) {}

  submit(op: WriteOp): Commit {
    if (this.broken) {
      const refused = new Commit();
      this.onFailure([op], this.broken);
      refused.finish(this.broken);
      return refused;
    }
    this.ops.push(op);
    this.open ??= new Commit();
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
    return this.open;
  }

  /** The latest commit not finished yet (reads of pending keys and bulk reads wait on it). */
  get pending(): Commit | undefined {
    return this.open ?? this.unsynced.at(-1)?.commit ?? this.syncing.at(-1)?.commit;
  }

  /** The commit still collecting writes of this turn, not yet written to the store. */
  get collecting(): Commit | undefined {
    return this.open;
  }

  /** Resolves once the collecting batch, if any, is written (its sync may still run). */
  written(): Promise<void> {
    if (!this.open) return Promise.resolve();
    return new Promise((resolve) => this.writtenWaiters.push(resolve));
  }

  /** Resolves once every batch written so far is durable; rejects if one could not be made so. */
  durable(): Promise<void> {
    const last = this.syncing.at(-1) ?? this.unsynced.at(-1);
    return last ? last.commit.promise : Promise.resolve();
  }

  /** Writes what is collecting now; its sync follows off the loop. */
  flush(): void {
    this.scheduled = false;
    const waiters = this.writtenWaiters;
    this.writtenWaiters = [];
    try {
      this.write();
    } finally {
      // after the failure handlers of a refused batch, which drop what memory holds of it
      for (const w of waiters) queueMicrotask(w);
    }
  }

  private write(): void {
    const commit = this.open;
    const ops = this.ops;
    this.open = undefined;
    this.ops = [];
    if (!commit) return;
    if (this.broken) {
      this.fail([{ commit, ops }], this.broken);
      return;
    }
    try {
      this.applyBatch(ops);
    } catch (e) {
      this.fail([{ commit, ops }], e);
      return;
    }
    if (!this.syncer) {
      commit.finish();
      return;
    }
    this.unsynced.push({ commit, ops });
    this.startSync();
  }

  /** At shutdown: writes and syncs everything pending before returning. */
  flushNow(): void {
    this.flush();
    if (!this.syncer || (this.unsynced.length === 0 && this.syncing.length === 0)) return;
    const covered = [...this.syncing, ...this.unsynced];
    this.syncing = [];
    this.unsynced = [];
    try {
      this.syncer.syncNow();
    } catch (e) {
      this.fail(covered, e);
      return;
    }
    for (const w of covered) w.commit.finish();
  }

  /**
   * Syncs the batches written since the last sync began, at once: a batch never waits behind a
   * sync begun before it was written. When a sync returns, every batch written before it began is
   * durable — earlier ones still waiting on their own sync included — and is finished.
   */
  private startSync(): void {
    if (!this.unsynced.length || !this.syncer) return;
    const last = this.unsynced[this.unsynced.length - 1];
    this.syncing.push(...this.unsynced);
    this.unsynced = [];
    this.syncer.sync().then(() => {
      const upTo = this.syncing.indexOf(last);
      if (upTo < 0) return; // already finished by a later sync, or at shutdown
      for (const w of this.syncing.splice(0, upTo + 1)) w.commit.finish();
    }, (e: unknown) => {
      this.broken ??= e instanceof Error ? e : new Error(String(e));
      this.fail([...this.syncing.splice(0), ...this.unsynced.splice(0)], e);
    });
  }

  private fail(written: Written[], e: unknown): void {
    const err = e instanceof Error ? e : new Error(String(e));
    for (const w of written) {
      if (w.commit.done) continue;
      this.onFailure(w.ops, err);
      w.commit.finish(err);
    }
  }
}

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
    this.done = true;
    this.error = err;
    this.settle(err);
  }
}

/**
 * Group commit: writes submitted during one turn of the event loop share one transaction, run on
 * `setImmediate`, so N concurrent writers pay for one fsync. A request is answered only after the
 * commit its write belongs to has finished.
 */
export class GroupCommitter {
  private ops: WriteOp[] = [];
  private open: Commit | undefined;
  private scheduled = false;

  constructor(
    private readonly applyBatch: (ops: WriteOp[]) => void,
    private readonly onFailure: (ops: WriteOp[], err: Error) => void,
  ) {}

  submit(op: WriteOp): Commit {
    this.ops.push(op);
    this.open ??= new Commit();
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
    return this.open;
  }

  /** The commit still collecting writes, if any (reads of pending keys wait on it). */
  get pending(): Commit | undefined {
    return this.open;
  }

  /** Commits what is pending now; also called at shutdown. */
  flush(): void {
    this.scheduled = false;
    const commit = this.open;
    const ops = this.ops;
    this.open = undefined;
    this.ops = [];
    if (!commit) return;
    try {
      this.applyBatch(ops);
      commit.finish();
    } catch (e) {
      const err = e instanceof Error ? e : new Error(String(e));
      this.onFailure(ops, err);
      commit.finish(err);
    }
  }
}

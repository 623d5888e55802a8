import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ReaderReply, ReaderRequest } from './sqlite-reader.worker';

interface Waiting {
  resolve: (rows: unknown[]) => void;
  reject: (err: Error) => void;
}

/**
 * Read-only statements on a worker thread with its own connection to a database file: statements
 * whose work grows with the data (sorting, counting or grouping a large match set) run there, so
 * the event loop only waits for their rows. WAL lets that connection read while the main one
 * writes; each statement sees what was committed when it started. Statements run one at a time,
 * in order. The thread starts on first use, does not keep the process alive, and is started
 * again if it fails.
 */
export class SqliteReader {
  /** Statements answered by the thread so far (search statistics, tests). */
  answered = 0;
  private worker: Worker | undefined;
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 0;
  private closed = false;

  constructor(private readonly file: string) {}

  /**
   * Every row of `sql`, as `stmt.all(...params)` would give them. With a `deadline` (epoch ms,
   * util/clock.ts `sharedNow`), a statement still waiting at it is not started, and one whose SQL calls
   * `grid_in_time()` stops there; both fail with `code` DEADLINE_PASSED.
   */
  all<T>(sql: string, params: unknown[], deadline?: number): Promise<T[]> {
    if (this.closed) return Promise.reject(new Error('the database is closed'));
    const id = ++this.nextId;
    return new Promise<T[]>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (rows: unknown[]) => void, reject });
      const request: ReaderRequest = { id, sql, params, deadline };
      this.thread().postMessage(request);
    });
  }

  close(): void {
    this.closed = true;
    this.failAll(new Error('the database is closed'));
    void this.worker?.terminate();
    this.worker = undefined;
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(join(__dirname, 'sqlite-reader.worker.js'), { workerData: { file: this.file } });
    worker.unref();
    worker.on('message', (reply: ReaderReply) => {
      const w = this.waiting.get(reply.id);
      if (!w) return;
      this.waiting.delete(reply.id);
      this.answered++;
      if (reply.error !== undefined) w.reject(Object.assign(new Error(reply.error), { code: reply.code }));
      else w.resolve(withBuffers(reply.rows, reply.blobs));
    });
    const lost = (err: Error): void => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.failAll(err);
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`the index reader thread stopped (${code})`)));
    this.worker = worker;
    return worker;
  }

  private failAll(err: Error): void {
    for (const w of this.waiting.values()) w.reject(err);
    this.waiting.clear();
  }
}

/** Blob values back as Buffers, views into the one buffer they crossed threads in. */
function withBuffers(rows: Array<Record<string, unknown>>, blobs: Uint8Array): unknown[] {
  const all = Buffer.from(blobs.buffer, blobs.byteOffset, blobs.byteLength);
  for (const row of rows) {
    for (const k of Object.keys(row)) {
      const v = row[k] as { at: number; length: number } | null;
      if (v !== null && typeof v === 'object') row[k] = all.subarray(v.at, v.at + v.length);
    }
  }
  return rows;
}

import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { GridError, ServiceUnavailableError } from '../../errors';
import type { Logger } from '../../util/logger';
import type { OffLoopJobs, OffLoopKind } from './off-loop.jobs';
import type { JobMessage, JobReply } from './off-loop.worker';

/** Byte arrays of a job's payload larger than this are copied a slice at a time and moved to the thread. */
const SLICE_BYTES = 1024 * 1024;

export interface OffLoopOptions {
  /** Jobs waiting beyond this many are refused with 503. */
  maxQueue: number;
  /** A job running longer is abandoned (503) and its worker replaced. */
  deadlineMs: number;
  /** The thread stops after this long without a job (10 s by default) and starts again on the next one. */
  idleMs?: number;
  log: Logger;
}

interface Pending {
  message: JobMessage;
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
}

/**
 * One worker thread for CPU work that grows with a request or with stored state (configuration
 * parsing, schema validation): the event loop only posts and receives plain data. Jobs run one at
 * a time in arrival order; the queue and each job's time are bounded. The thread starts on first
 * use, does not keep the process alive, and stops after a while without jobs: an idle isolate holds
 * ~10 MB, and its jobs (creating caches, registering schemas) come in bursts, far apart.
 */
export class OffLoop {
  private worker: Worker | undefined;
  private running: Pending | undefined;
  private deadline: NodeJS.Timeout | undefined;
  private idle: NodeJS.Timeout | undefined;
  private readonly queue: Pending[] = [];
  private nextId = 0;
  private closed = false;

  constructor(private readonly opts: OffLoopOptions) {}

  /** Whether the thread is up (it starts on the first job and stops when idle). */
  get threadStarted(): boolean {
    return this.worker !== undefined;
  }

  run<K extends OffLoopKind>(kind: K, payload: Parameters<OffLoopJobs[K]>[0]): Promise<ReturnType<OffLoopJobs[K]>> {
    if (this.closed) return Promise.reject(new ServiceUnavailableError('The server is shutting down'));
    if (this.queue.length >= this.opts.maxQueue) {
      return Promise.reject(new ServiceUnavailableError('The server is busy: too many requests are waiting for processing; retry later'));
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ message: { id: ++this.nextId, kind, payload }, resolve: resolve as (v: unknown) => void, reject });
      this.pump();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const p of this.queue.splice(0)) p.reject(new ServiceUnavailableError('The server is shutting down'));
    this.finish()?.reject(new ServiceUnavailableError('The server is shutting down'));
    if (this.idle) clearTimeout(this.idle);
    this.idle = undefined;
    const worker = this.worker;
    this.worker = undefined;
    if (worker) {
      worker.removeAllListeners();
      await worker.terminate();
    }
  }

  private pump(): void {
    if (this.running) return;
    if (this.queue.length === 0) return this.stopWhenIdle();
    if (this.idle) clearTimeout(this.idle);
    this.idle = undefined;
    const job = (this.running = this.queue.shift()!);
    const post = (payload: unknown, transfer: ArrayBuffer[]) => {
      if (this.running !== job) return; // closed while its bytes were being copied
      this.deadline = setTimeout(() => this.abandon(), this.opts.deadlineMs);
      this.deadline.unref();
      this.thread().postMessage({ ...job.message, payload }, transfer);
    };
    const large = largeByteFields(job.message.payload);
    if (large.length === 0) return post(job.message.payload, []);
    void movedInSlices(job.message.payload as Record<string, unknown>, large).then(({ payload, transfer }) => post(payload, transfer));
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    // its heap is bounded so that a job cannot grow the process without limit
    const worker = new Worker(join(__dirname, 'off-loop.worker.js'), { resourceLimits: { maxOldGenerationSizeMb: 512 } });
    worker.unref();
    worker.on('message', (reply: JobReply) => this.settle(reply));
    const lost = (err: unknown) => {
      if (this.worker !== worker) return;
      this.opts.log.error({ err }, 'off-loop worker failed');
      this.replace(worker);
      this.finish()?.reject(new Error('the off-loop worker failed'));
      this.pump();
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`worker exited with code ${code}`)));
    this.worker = worker;
    return worker;
  }

  private settle(reply: JobReply): void {
    if (!this.running || reply.id !== this.running.message.id) return;
    const job = this.finish()!;
    if ('result' in reply) job.resolve(reply.result);
    else if ('error' in reply) job.reject(new GridError(reply.error.status, reply.error.code, reply.error.message, reply.error.headers));
    else {
      this.opts.log.error({ job: job.message.kind, failure: reply.failure }, 'off-loop job failed');
      job.reject(new Error(`off-loop job ${job.message.kind} failed`));
    }
    this.pump();
  }

  /** A job past its deadline: the thread is stopped (there is no other way to stop it) and replaced. */
  private abandon(): void {
    const job = this.finish();
    if (this.worker) this.replace(this.worker);
    if (job) {
      this.opts.log.warn({ job: job.message.kind, ms: this.opts.deadlineMs }, 'off-loop job abandoned after its deadline');
      job.reject(new ServiceUnavailableError(`Processing the request took longer than ${this.opts.deadlineMs} ms and was abandoned`));
    }
    this.pump();
  }

  private stopWhenIdle(): void {
    if (!this.worker || this.idle) return;
    this.idle = setTimeout(() => {
      this.idle = undefined;
      if (this.worker && !this.running && this.queue.length === 0) this.replace(this.worker);
    }, this.opts.idleMs ?? 10_000);
    this.idle.unref();
  }

  private replace(worker: Worker): void {
    if (this.worker === worker) this.worker = undefined;
    worker.removeAllListeners();
    worker.on('error', () => undefined);
    void worker.terminate();
  }

  private finish(): Pending | undefined {
    const job = this.running;
    this.running = undefined;
    if (this.deadline) clearTimeout(this.deadline);
    this.deadline = undefined;
    return job;
  }
}

/** The payload's fields that are byte arrays over SLICE_BYTES (values to convert). */
function largeByteFields(payload: unknown): string[] {
  if (payload === null || typeof payload !== 'object') return [];
  return Object.entries(payload).filter(([, v]) => v instanceof Uint8Array && v.byteLength > SLICE_BYTES).map(([k]) => k);
}

/**
 * The payload with those fields copied into memory of their own, SLICE_BYTES per turn of the
 * loop, to be moved to the thread rather than cloned: a structured clone copies the whole value
 * in one go, and writing 10 MB of fresh memory held the loop 100–200 ms on a busy machine.
 */
async function movedInSlices(payload: Record<string, unknown>, fields: string[]): Promise<{ payload: Record<string, unknown>; transfer: ArrayBuffer[] }> {
  const moved: Record<string, unknown> = { ...payload };
  const transfer: ArrayBuffer[] = [];
  for (const field of fields) {
    const source = payload[field] as Uint8Array;
    const copy = new Uint8Array(source.byteLength);
    for (let at = 0; at < source.byteLength; at += SLICE_BYTES) {
      copy.set(source.subarray(at, at + SLICE_BYTES), at);
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    moved[field] = copy;
    transfer.push(copy.buffer);
  }
  return { payload: moved, transfer };
}

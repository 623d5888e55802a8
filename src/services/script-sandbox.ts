import ivm from 'isolated-vm';
import { ScriptExecutionError } from '../errors';

export interface SandboxLimits {
  /** V8 heap (and array buffer) limit of each execution's isolate. */
  memoryMb: number;
  /** Wall-clock limit of one execution. */
  timeoutMs: number;
  /** Executions running at once; more wait their turn (each may hold `memoryMb`). */
  maxConcurrent: number;
}

export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = { memoryMb: 64, timeoutMs: 5_000, maxConcurrent: 4 };

/**
 * The host side of the bindings: `op` with string arguments, answered with JSON text (or
 * undefined for "nothing"). Thrown errors reach the script as exceptions it may catch.
 */
export type HostCall = (op: string, args: string[]) => Promise<string | undefined>;

export interface ScriptRun {
  source: string;
  /** Each becomes a global string variable (the task's `param.*`). */
  parameters: Record<string, string>;
  /** Binds `cache` to this cache when given. */
  cacheName: string | undefined;
  host: HostCall;
}

export type ScriptOutcome = { kind: 'json'; text: string } | { kind: 'bytes'; bytes: Buffer };

/**
 * Runs in the isolate before the script: defines `cache` and `cacheManager` over one host
 * function kept in closures only, so the script can reach the host through these methods alone.
 */
const PRELUDE = `
const host = $0;
const call = (op, args) => {
  const text = host.applySyncPromise(undefined, [op, args], { arguments: { copy: true } });
  return text === undefined ? null : JSON.parse(text);
};
const text = (v, what) => {
  if (v === undefined || v === null) throw new TypeError(what + ' must not be null');
  return String(v);
};
const makeCache = (name) => Object.freeze({
  getName: () => name,
  get: (k) => call('get', [name, text(k, 'key')]),
  containsKey: (k) => call('containsKey', [name, text(k, 'key')]),
  put: (k, v) => call('put', [name, text(k, 'key'), text(v, 'value')]),
  remove: (k) => call('remove', [name, text(k, 'key')]),
  size: () => call('size', [name]),
});
globalThis.cacheManager = Object.freeze({
  getCacheNames: () => call('cacheNames', []),
  getCache: (n) => { const name = text(n, 'cache name'); call('checkCache', [name]); return makeCache(name); },
});
if ($1 !== undefined) globalThis.cache = makeCache($1);
`;

/** Evaluates the script at global scope (its last expression is the result) and encodes the result inside the isolate. */
const RUN = `
const r = (0, eval)($0);
if (r instanceof ArrayBuffer) return { bytes: new Uint8Array(r) };
if (r instanceof Uint8Array || r instanceof Int8Array) return { bytes: new Uint8Array(r.buffer, r.byteOffset, r.byteLength) };
const json = JSON.stringify(r === undefined ? null : r);
return { json: json === undefined ? 'null' : json };
`;

/**
 * Every execution gets a fresh V8 isolate (isolated-vm) with a memory and a time limit and nothing
 * of the host: no require, process, timers, file system or network, only the bindings.
 */
export class ScriptSandbox {
  private limits: SandboxLimits;
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(limits: Partial<SandboxLimits> = {}) {
    this.limits = { ...DEFAULT_SANDBOX_LIMITS, ...limits };
  }

  get currentLimits(): Readonly<SandboxLimits> {
    return this.limits;
  }

  /** Changes the limits of executions that start from now on. */
  configure(limits: Partial<SandboxLimits>): void {
    this.limits = { ...this.limits, ...limits };
  }

  async run(job: ScriptRun): Promise<ScriptOutcome> {
    await this.acquire();
    const limits = this.limits;
    const isolate = new ivm.Isolate({ memoryLimit: limits.memoryMb });
    const host = new ivm.Reference(job.host);
    try {
      const context = await isolate.createContext();
      for (const [name, value] of Object.entries(job.parameters)) await context.global.set(name, value);
      await context.evalClosure(PRELUDE, [host, job.cacheName], { timeout: limits.timeoutMs });
      const out = await context.evalClosure(RUN, [job.source], { timeout: limits.timeoutMs, arguments: { copy: true }, result: { copy: true } }) as
        { bytes?: Uint8Array; json?: string };
      if (out.bytes) return { kind: 'bytes', bytes: Buffer.from(out.bytes) };
      return { kind: 'json', text: out.json ?? 'null' };
    } catch (err) {
      throw new ScriptExecutionError(describe(err, isolate, limits));
    } finally {
      host.release();
      if (!isolate.isDisposed) isolate.dispose();
      this.release();
    }
  }

  private async acquire(): Promise<void> {
    if (this.running < this.limits.maxConcurrent) {
      this.running++;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  /** Hands the slot straight to the next waiter, if any. */
  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
  }
}

/**
 * isolated-vm reports limits only through its errors: a disposed isolate means the memory limit,
 * its fixed timeout text the time limit. Anything else is what the script threw.
 */
function describe(err: unknown, isolate: ivm.Isolate, limits: SandboxLimits): string {
  if (isolate.isDisposed) return `script exceeded its memory limit of ${limits.memoryMb} MB`;
  if (err instanceof Error && err.message === 'Script execution timed out.') return `script exceeded its time limit of ${limits.timeoutMs} ms`;
  if (err instanceof Error) return `${err.name}: ${err.message}`;
  return String(err);
}

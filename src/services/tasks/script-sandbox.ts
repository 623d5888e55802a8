import type ivm from 'isolated-vm';
import { lazy } from '../../util/lazy';
import { ScriptCompilationError, ScriptExecutionError } from '../../errors';
import { DEFAULT_SANDBOX_LIMITS, ExecutionBudget, limitMessages, type SandboxLimits } from './script-limits';

// a native module of its own: loaded when the first script runs
const loadIvm = lazy(() => require('isolated-vm') as typeof import('isolated-vm'));

export type { SandboxLimits } from './script-limits';

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
 * `applySyncPromise` blocks the script's own thread, never the server's: the host answers from the
 * event loop like any request. Arguments longer than the write limit ($2) are refused here, so a
 * huge string (a rope costs the isolate nothing) is never copied into the server.
 */
const PRELUDE = `
const host = $0;
const call = (op, args) => {
  const text = host.applySyncPromise(undefined, [op, args], { arguments: { copy: true } });
  return text === undefined ? null : JSON.parse(text);
};
const text = (v, what) => {
  if (v === undefined || v === null) throw new TypeError(what + ' must not be null');
  const s = String(v);
  if (s.length > $2) throw new RangeError(what + ' is longer than ' + $2 + ' characters');
  return s;
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

const SCRIPT_FILE = 'script.js';

/** Bytes each binding writes, charged against the execution's write limit before it runs. */
function writeBytes(op: string, args: string[]): number {
  if (op === 'put') return Buffer.byteLength(args[1]) + Buffer.byteLength(args[2]);
  if (op === 'remove') return Buffer.byteLength(args[1]);
  return 0;
}

/** Evaluates the script at global scope (its last expression is the result) and encodes the result inside the isolate. */
const RUN = `
const r = (0, eval)($0);
if (r instanceof ArrayBuffer) return { bytes: new Uint8Array(r) };
if (r instanceof Uint8Array || r instanceof Int8Array) return { bytes: new Uint8Array(r.buffer, r.byteOffset, r.byteLength) };
const json = JSON.stringify(r === undefined ? null : r);
return { json: json === undefined ? 'null' : json };
`;

/**
 * Every execution gets a fresh V8 isolate (isolated-vm) with nothing of the host: no require,
 * process, timers, file system or network, only the bindings. Limits (script-limits.ts): the
 * isolate's memory, a wall-clock deadline that counts time spent in host calls, host calls and
 * bytes written per execution. The first one crossed disposes the isolate and refuses every later
 * host call; the execution answers ISPN027503 with the reason.
 */
export class ScriptSandbox {
  private limits: SandboxLimits;
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  private readonly budgets = new Set<ExecutionBudget>();
  private closed = false;

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

  /** Shutdown: stops every running execution and refuses new ones (waiting ones included). */
  close(): void {
    this.closed = true;
    for (const budget of this.budgets) budget.stop(limitMessages.shutdown());
    // each waiter gets a slot of its own, which `run` refuses and releases
    for (const next of this.waiting.splice(0)) {
      this.running++;
      next();
    }
  }

  /**
   * Compiles the script as `run` evaluates it, in an isolate of its own (on its thread, not the
   * server's), and runs nothing: a syntax error is ScriptCompilationError with its line:column
   * in the uploaded text.
   */
  async check(name: string, source: string): Promise<void> {
    await this.acquire();
    const isolate = new (loadIvm()).Isolate({ memoryLimit: this.limits.memoryMb });
    try {
      (await isolate.compileScript(source, { filename: SCRIPT_FILE })).release();
    } catch (err) {
      if (!(err instanceof SyntaxError)) throw new ScriptCompilationError(name, describe(err, undefined, isolate, this.limits));
      // isolated-vm appends the place as ` [file:line:column]`
      const m = /^(.*) \[[^\]]*:(\d+):(\d+)\]$/.exec(err.message);
      throw new ScriptCompilationError(name, m ? `SyntaxError: ${m[1]} at ${m[2]}:${m[3]}` : `SyntaxError: ${err.message}`);
    } finally {
      if (!isolate.isDisposed) isolate.dispose();
      this.release();
    }
  }

  async run(job: ScriptRun): Promise<ScriptOutcome> {
    await this.acquire();
    try {
      if (this.closed) throw new ScriptExecutionError(limitMessages.shutdown());
      return await this.execute(job, this.limits);
    } finally {
      this.release();
    }
  }

  private async execute(job: ScriptRun, limits: SandboxLimits): Promise<ScriptOutcome> {
    const ivmModule = loadIvm();
    const isolate = new ivmModule.Isolate({ memoryLimit: limits.memoryMb });
    const budget = new ExecutionBudget(limits, () => { if (!isolate.isDisposed) isolate.dispose(); });
    const deadline = setTimeout(() => budget.stop(limitMessages.time(limits)), limits.timeoutMs);
    this.budgets.add(budget);
    const host = new ivmModule.Reference(async (op: string, args: string[]) => {
      budget.charge(writeBytes(op, args));
      return job.host(op, args);
    });
    try {
      const context = await isolate.createContext();
      for (const [name, value] of Object.entries(job.parameters)) await context.global.set(name, value);
      await context.evalClosure(PRELUDE, [host, job.cacheName, limits.maxWriteBytes], { timeout: limits.timeoutMs });
      const out = await context.evalClosure(RUN, [job.source], { timeout: limits.timeoutMs, arguments: { copy: true }, result: { copy: true } }) as
        { bytes?: Uint8Array; json?: string };
      if (budget.stopped) throw new ScriptExecutionError(budget.stopped); // stopped as it returned
      if (out.bytes) return { kind: 'bytes', bytes: Buffer.from(out.bytes) };
      return { kind: 'json', text: out.json ?? 'null' };
    } catch (err) {
      if (err instanceof ScriptExecutionError) throw err;
      throw new ScriptExecutionError(describe(err, budget, isolate, limits));
    } finally {
      clearTimeout(deadline);
      this.budgets.delete(budget);
      host.release();
      if (!isolate.isDisposed) isolate.dispose();
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
 * A stopped budget says why (deadline, host calls, bytes written, shutdown); isolated-vm reports its
 * own limits only through its state and errors: an isolate it disposed hit the memory limit, its
 * fixed timeout text is the time limit. Anything else is what the script threw.
 */
function describe(err: unknown, budget: ExecutionBudget | undefined, isolate: ivm.Isolate, limits: SandboxLimits): string {
  if (budget?.stopped) return budget.stopped;
  if (isolate.isDisposed) return limitMessages.memory(limits);
  if (err instanceof Error && err.message === 'Script execution timed out.') return limitMessages.time(limits);
  if (err instanceof Error) return `${err.name}: ${err.message}`;
  return String(err);
}

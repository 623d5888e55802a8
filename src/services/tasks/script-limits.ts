/** What one script execution may use; `grid start` reads them from the `task-*` settings. */
export interface SandboxLimits {
  /** V8 heap (and array buffer) limit of each execution's isolate, in MiB. */
  memoryMb: number;
  /** Wall-clock limit of one execution, from its start to its answer, host calls included. */
  timeoutMs: number;
  /** Executions running at once; more wait their turn (each may hold `memoryMb`). */
  maxConcurrent: number;
  /** Calls through `cache` and `cacheManager` per execution. */
  maxHostCalls: number;
  /** UTF-8 bytes of keys and values written (put, remove) per execution; also bounds any one argument. */
  maxWriteBytes: number;
}

export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = {
  memoryMb: 64, timeoutMs: 5_000, maxConcurrent: 4, maxHostCalls: 100_000, maxWriteBytes: 16 * 1024 * 1024,
};

/** Why an execution was stopped; the text becomes the 500 answer's detail. */
export const limitMessages = {
  time: (l: SandboxLimits) => `script exceeded its time limit of ${l.timeoutMs} ms`,
  memory: (l: SandboxLimits) => `script exceeded its memory limit of ${l.memoryMb} MB`,
  calls: (l: SandboxLimits) => `script exceeded its limit of ${l.maxHostCalls} host calls`,
  write: (l: SandboxLimits) => `script exceeded its write limit of ${l.maxWriteBytes} bytes`,
  shutdown: () => 'script stopped because the server is stopping',
};

/** Thrown into the script by a host call refused after a limit; the script cannot go on. */
export class LimitExceeded extends Error {}

/**
 * The host side of one execution's limits. Every host call is charged before it runs; the first
 * limit crossed (or the deadline, or a shutdown) stops the execution for good: `onStop` terminates
 * the isolate and every later call is refused, so a script that catches the error gets nothing more
 * done. A refused call has no effect.
 */
export class ExecutionBudget {
  private calls = 0;
  private written = 0;
  private reason: string | undefined;
  private readonly deadline: number;

  constructor(private readonly limits: SandboxLimits, private readonly onStop: (reason: string) => void) {
    this.deadline = performance.now() + limits.timeoutMs;
  }

  /** Why the execution was stopped, if it was. */
  get stopped(): string | undefined {
    return this.reason;
  }

  /** Charges one host call that writes `writeBytes`; throws LimitExceeded when it may not run. */
  charge(writeBytes: number): void {
    if (this.reason === undefined) {
      if (performance.now() >= this.deadline) this.stop(limitMessages.time(this.limits));
      else if (++this.calls > this.limits.maxHostCalls) this.stop(limitMessages.calls(this.limits));
      else if ((this.written += writeBytes) > this.limits.maxWriteBytes) this.stop(limitMessages.write(this.limits));
    }
    if (this.reason !== undefined) throw new LimitExceeded(this.reason);
  }

  /** Stops the execution (first reason wins). */
  stop(reason: string): void {
    if (this.reason !== undefined) return;
    this.reason = reason;
    this.onStop(reason);
  }
}

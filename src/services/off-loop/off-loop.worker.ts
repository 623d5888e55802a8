import { parentPort } from 'node:worker_threads';
import { isGridError } from '../../errors';
import { OFF_LOOP_JOBS, type OffLoopKind } from './off-loop.jobs';

export interface JobMessage { id: number; kind: OffLoopKind; payload: unknown }
export type JobReply =
  | { id: number; result: unknown }
  | { id: number; error: { status: number; code: string; message: string; headers: Record<string, string | string[]> } }
  | { id: number; failure: string };

// The worker thread's side of off-loop.ts: one job at a time, in order.
parentPort?.on('message', ({ id, kind, payload }: JobMessage) => {
  let reply: JobReply;
  try {
    const run = OFF_LOOP_JOBS[kind] as (p: unknown) => unknown;
    reply = { id, result: run(payload) };
  } catch (err) {
    reply = isGridError(err)
      ? { id, error: { status: err.status, code: err.code, message: err.message, headers: { ...err.headers } } }
      : { id, failure: err instanceof Error ? err.stack ?? err.message : String(err) };
  }
  parentPort!.postMessage(reply, 'result' in reply ? ownBuffers(reply.result) : []);
});

/**
 * The memory of the byte arrays a result holds (itself, or its fields) that nothing else shares:
 * moved to the main thread instead of copied there. A slice of Node's shared pool stays a copy.
 */
function ownBuffers(result: unknown): ArrayBuffer[] {
  const candidates = result instanceof Uint8Array ? [result]
    : result !== null && typeof result === 'object' ? Object.values(result).filter((v): v is Uint8Array => v instanceof Uint8Array) : [];
  const out = new Set<ArrayBuffer>();
  for (const u of candidates) {
    if (u.buffer instanceof ArrayBuffer && u.byteOffset === 0 && u.byteLength === u.buffer.byteLength) out.add(u.buffer);
  }
  return [...out];
}

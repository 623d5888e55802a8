import type { Reply } from './client';

/** Asks `probe` every 25 ms (10 s at most) until its status is no longer `not` (202: still in progress). */
export async function until(probe: () => Promise<Reply>, not = 202): Promise<Reply> {
  for (let i = 0; i < 400; i++) {
    const r = await probe();
    if (r.status !== not) return r;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('still in progress');
}

/**
 * Waits until `probe()` holds, polling every 10 ms; fails after `ms` naming `what` (a generous
 * bound, not a timing assertion): for a state the server reaches on its own time (a closed stream
 * noticed, a change made by another process seen, a log line written), instead of a fixed sleep
 * that is too short on a loaded machine and too long everywhere else.
 */
export async function eventually(probe: () => boolean | Promise<boolean>, ms = 5000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

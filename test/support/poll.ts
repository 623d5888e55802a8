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

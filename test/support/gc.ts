import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * A full collection with Node's `gc`, enabled at run time only long enough to fetch it: the flag
 * is process-wide, and left on it would give every context made afterwards — the task sandbox's
 * included — a `gc` global. WeakRefs clear only after the current job, hence the turns between.
 */
export async function collectGarbage(rounds = 3): Promise<void> {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  setFlagsFromString('--no-expose-gc');
  for (let i = 0; i < rounds; i++) {
    await new Promise((resolve) => setImmediate(resolve));
    gc();
  }
}

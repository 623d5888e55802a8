/** A page of a segment's walk: its items, and where the next page starts (undefined: the segment is done). */
export interface Page<T> {
  items: T[];
  next: Buffer | undefined;
}

/**
 * The pages of segments 0 … count-1, in segment order: up to `window`
 * segments have their next page asked for ahead of the one being read, so a walk holds at most
 * `window` + 1 pages however big the cache is, and waits on the network only when the page it reaches has not arrived yet.
 * A page fetched ahead that fails is reported when the walk reaches it; a walk left early leaves
 * nothing unhandled.
 */
export async function* walkPages<T>(count: number, window: number, fetch: (segment: number, after: Buffer | undefined) => Promise<Page<T>>): AsyncGenerator<T[]> {
  const ahead: Array<{ segment: number; page: Promise<Page<T>> }> = [];
  const ask = (segment: number, after: Buffer | undefined) => {
    const page = fetch(segment, after);
    page.catch(() => {}); // awaited below when its turn comes; until then it must not count as unhandled
    return { segment, page };
  };
  let started = 0;
  while (started < Math.min(window, count)) ahead.push(ask(started++, undefined));
  while (ahead.length > 0) {
    const { segment, page } = ahead[0];
    const { items, next } = await page;
    if (next !== undefined) {
      ahead[0] = ask(segment, next);
    } else {
      ahead.shift();
      if (started < count) ahead.push(ask(started++, undefined));
    }
    if (items.length > 0) yield items;
  }
}

/** Runs `task` for 0 … count-1 with at most `parallel` running at once; on a failure nothing more starts, and it rejects with that failure once the running ones ended. */
export async function inParallel(count: number, parallel: number, task: (i: number) => Promise<void>): Promise<void> {
  let nextIndex = 0;
  const lane = async () => {
    try {
      while (nextIndex < count) await task(nextIndex++);
    } catch (err) {
      nextIndex = count; // the other lanes start nothing more
      throw err;
    }
  };
  const lanes = await Promise.allSettled(Array.from({ length: Math.min(parallel, count) }, lane));
  const failed = lanes.find((l): l is PromiseRejectedResult => l.status === 'rejected');
  if (failed) throw failed.reason;
}

import { expect } from 'chai';
import { itemsOf } from '../../../support/pages';
import { inParallel, type Page, walkPages } from '../../../../src/store/redis/segment-walk';

// How whole-cache operations of the redis engine walk a cache's segments (docs/scale-out.md,
// "Whole-cache operations and what they cost"), on pages made up here.

/** Segment s holds items `s:0` … `s:(sizes[s]-1)`, served `per` at a time; counts the pages asked for. */
function segments(sizes: number[], per: number) {
  const stats = { asked: 0 };
  const fetch = async (segment: number, after: Buffer | undefined): Promise<Page<string>> => {
    stats.asked++;
    await new Promise((resolve) => setImmediate(resolve));
    const from = after ? Number(after.toString()) + 1 : 0;
    const to = Math.min(from + per, sizes[segment]);
    const items = Array.from({ length: to - from }, (_, i) => `${segment}:${from + i}`);
    return { items, next: to < sizes[segment] ? Buffer.from(String(to - 1)) : undefined };
  };
  return { stats, fetch };
}

describe('walkPages', () => {
  it('yields every item of every segment once, in segment order, empty segments included', async () => {
    const sizes = [5, 0, 1, 12, 3, 0, 7];
    const { fetch } = segments(sizes, 2);
    const seen: string[] = [];
    for await (const item of itemsOf(walkPages(sizes.length, 3, fetch))) seen.push(item);
    expect(seen).to.deep.equal(sizes.flatMap((n, s) => Array.from({ length: n }, (_, i) => `${s}:${i}`)));
  });

  it('holds at most window + 1 pages — the one being read and those asked for ahead — however many segments', async () => {
    const sizes = Array.from({ length: 100 }, (_, s) => 1 + (s % 9));
    const { stats, fetch } = segments(sizes, 2);
    let pagesStarted = 0;
    let most = 0;
    for await (const item of itemsOf(walkPages(sizes.length, 4, fetch))) {
      if (Number(item.split(':')[1]) % 2 === 0) pagesStarted++; // each page starts at an even item
      most = Math.max(most, stats.asked - (pagesStarted - 1));
      await new Promise((resolve) => setImmediate(resolve)); // a slow reader: pages ahead have time to arrive
    }
    expect(pagesStarted).to.equal(sizes.reduce((n, size) => n + Math.ceil(size / 2), 0));
    expect(most).to.equal(5);
  });

  it('reports a page that failed when the walk reaches it, and one left behind by an early stop as nothing', async () => {
    const failing = async (segment: number): Promise<Page<string>> => {
      await new Promise((resolve) => setImmediate(resolve));
      if (segment === 2) throw new Error('segment 2 unreachable');
      return { items: [`${segment}`], next: undefined };
    };
    const seen: string[] = [];
    let error: Error | undefined;
    try {
      for await (const item of itemsOf(walkPages(5, 4, failing))) seen.push(item);
    } catch (err) {
      error = err as Error;
    }
    expect(seen).to.deep.equal(['0', '1']);
    expect(error?.message).to.equal('segment 2 unreachable');

    const unhandled: unknown[] = [];
    const listener = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', listener);
    try {
      for await (const item of itemsOf(walkPages(5, 4, failing))) if (item === '0') break; // segment 2 fails after the walk ended
      await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      process.off('unhandledRejection', listener);
    }
    expect(unhandled).to.deep.equal([]);
  });
});

describe('inParallel', () => {
  it('runs every task with at most `parallel` at once', async () => {
    let running = 0;
    let most = 0;
    const done: number[] = [];
    await inParallel(50, 7, async (i) => {
      most = Math.max(most, ++running);
      await new Promise((resolve) => setImmediate(resolve));
      running--;
      done.push(i);
    });
    expect(done.sort((a, b) => a - b)).to.deep.equal(Array.from({ length: 50 }, (_, i) => i));
    expect(most).to.equal(7);
  });

  it('starts nothing more after a failure and rejects with it once the running tasks ended', async () => {
    const started: number[] = [];
    let running = 0;
    const outcome = inParallel(100, 4, async (i) => {
      started.push(i);
      running++;
      await new Promise((resolve) => setImmediate(resolve));
      running--;
      if (i === 5) throw new Error('task 5 failed');
    });
    const error = await outcome.catch((err: Error) => err);
    expect((error as Error).message).to.equal('task 5 failed');
    expect(running).to.equal(0);
    expect(started.length).to.be.below(12);
  });
});

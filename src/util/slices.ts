/** How long one slice of a long loop may hold the event loop before other work gets a turn. */
export const SLICE_MS = 8;

/**
 * Runs `each` over `items`, giving the event loop a turn every `SLICE_MS`: for loops whose length
 * grows with stored state (every entry of a cache, every cache of the container).
 */
export async function inSlices<T>(items: Iterable<T>, each: (item: T) => void): Promise<void> {
  let sliceStart = performance.now();
  let n = 0;
  for (const item of items) {
    each(item);
    // the clock is read every 64 items: cheap next to the work, fine-grained enough
    if ((++n & 63) === 0 && performance.now() - sliceStart > SLICE_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    }
  }
}

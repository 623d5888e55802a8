import { type Pages, pagesOf } from './pages';

/** How long one slice of a long loop may hold the event loop before other work gets a turn. */
export const SLICE_MS = 8;

/**
 * Runs `each` over `items`, giving the event loop a turn every `SLICE_MS`: for loops whose length
 * grows with stored state (every entry of a cache, every cache of the container).
 */
export async function inSlices<T>(items: Iterable<T> | Pages<T>, each: (item: T) => void): Promise<void> {
  let sliceStart = performance.now();
  let n = 0;
  for await (const page of pagesOf(items)) {
    for (const item of page) {
      each(item);
      // the clock is read every 64 items: cheap next to the work, fine-grained enough
      if ((++n & 63) === 0 && performance.now() - sliceStart > SLICE_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        sliceStart = performance.now();
      }
    }
  }
}

/** Characters gathered into one chunk of a long answer before it is passed on (about 64 KiB). */
const CHUNK_CHARS = 64 * 1024;

/**
 * The strings of `parts` joined into chunks of about 64 KiB, the event loop given a turn after each
 * chunk and whenever a slice's time is up: for answers that grow with stored state (listings),
 * which then never become one string, nor hold the loop for more than a slice. A part still being
 * made elsewhere (a large value converted on the worker) is a promise, waited for in its place.
 */
export async function* inChunks(parts: Iterable<string | Promise<string>> | Pages<string | Promise<string>>): AsyncGenerator<string> {
  let chunk = '';
  let sliceStart = performance.now();
  for await (const page of pagesOf(parts)) {
    for (const part of page) {
      chunk += typeof part === 'string' ? part : await part;
      if (chunk.length >= CHUNK_CHARS || performance.now() - sliceStart > SLICE_MS) {
        if (chunk !== '') yield chunk;
        chunk = '';
        await new Promise((resolve) => setImmediate(resolve));
        sliceStart = performance.now();
      }
    }
  }
  if (chunk !== '') yield chunk;
}

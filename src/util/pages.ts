/**
 * A sequence read a page at a time: each page is iterated synchronously, and only between pages
 * may the reader wait (a network round trip). Listings cross the engine seam this way: one await
 * per page, not per item — chaining per-item async generators cost ten times the synchronous
 * chain over 200,000 keys (docs/architecture.md, "The engine seam").
 */
export type Pages<T> = AsyncIterable<Iterable<T>>;

/** `items` as one page, made once `ready` has resolved (a local engine: nothing to wait for between items). */
export async function* onePage<T>(ready: Promise<void>, items: () => Iterable<T>): Pages<T> {
  await ready;
  yield items();
}

/** `items` as pages: a synchronous sequence is one page. */
export function pagesOf<T>(items: Iterable<T> | Pages<T>): Pages<T> {
  return Symbol.asyncIterator in items ? items : onePage(Promise.resolve(), () => items);
}

/**
 * The pages of `pages` with each item turned into `format`'s parts, stopping after `limit` items
 * (all when negative); `first` tells the first item. Pages stay lazy: an item is formatted when
 * the reader reaches it, so the count is only read once the reader finished the page before.
 */
export async function* formatPages<T, P>(pages: Pages<T>, limit: number, format: (item: T, first: boolean) => Iterable<P>): Pages<P> {
  if (limit === 0) return;
  let n = 0;
  for await (const page of pages) {
    yield (function* () {
      for (const item of page) {
        yield* format(item, n === 0);
        if (++n === limit) return;
      }
    })();
    if (n === limit) return;
  }
}

/** The pages of `pages`, with `before` and `after` as pages of their own around them. */
export async function* between<P>(before: Iterable<P>, pages: Pages<P>, after: Iterable<P>): Pages<P> {
  yield before;
  yield* pages;
  yield after;
}

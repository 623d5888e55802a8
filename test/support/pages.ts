import type { Pages } from '../../src/util/pages';

/** The items of a listing read a page at a time, one by one (tests read listings item by item). */
export async function* itemsOf<T>(pages: Pages<T>): AsyncGenerator<T> {
  for await (const page of pages) yield* page;
}

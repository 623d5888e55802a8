import type { StoredEntry } from '../store/store';

/** A change of a cache's content, as an index must follow it (docs/reference/query.md#indexing-configuration). */
export type ContentChange =
  /** `memoryOnly`: a passivating cache's entry, held in memory and not in the store. */
  | { kind: 'put'; entry: StoredEntry; memoryOnly: boolean }
  | { kind: 'remove'; key: Buffer }
  | { kind: 'clear' }
  | { kind: 'purgeExpired'; now: number }
  /** A passivating cache's entry went to the store (`passivate`) or came back to memory (`activate`). */
  | { kind: 'passivate' | 'activate'; key: Buffer };

/**
 * What a cache tells its index, through its `IndexFeed`, synchronously and in order:
 * every put, removal (expiry and eviction of entries that leave the cache included), clear and
 * purge, and a passivating cache's moves between memory and the store (so that documents of
 * entries a crash loses with memory can go at the next start). A persistent cache's index writes
 * join the same group commit as the entry write; `put` may refuse the entry
 * (ISPN028021/ISPN028022) before anything is written.
 */
export interface ContentIndex {
  apply(change: ContentChange): void;
  /** Refuses a put while the configuration cannot be indexed (ISPN028021/ISPN028022), as `apply` does. */
  checkPut(): void;
}

/**
 * The one way a cache tells its index what changed, shared by the cache and the parts it is made
 * of (`EntryTiers`, `ExpiryReaper`): nothing is said while no index is attached.
 */
export class IndexFeed {
  private index: ContentIndex | undefined;

  attach(index: ContentIndex | undefined): void {
    this.index = index;
  }

  apply(change: ContentChange): void {
    this.index?.apply(change);
  }

  checkPut(): void {
    this.index?.checkPut();
  }
}

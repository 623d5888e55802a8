import type { StoredEntry } from '../store/store';

/** A change of a cache's content, as an index must follow it (query-notes §6.3). */
export type ContentChange =
  | { kind: 'put'; entry: StoredEntry }
  | { kind: 'remove'; key: Buffer }
  | { kind: 'clear' }
  | { kind: 'purgeExpired'; now: number };

/**
 * What a cache tells its index, from one place (`Cache.indexChange`), synchronously and in order:
 * every put, removal (expiry and eviction of entries that leave the cache included), clear and
 * purge. A persistent cache's index writes join the same group commit as the entry write; `put`
 * may refuse the entry (ISPN028021/ISPN028022) before anything is written.
 */
export interface ContentIndex {
  apply(change: ContentChange): void;
}

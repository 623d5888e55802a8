import type { Expiry } from '../model/expiration';
import { SKIP_CACHE_LOAD, type OpFlags } from '../model/flags';
import type { StoredEntry } from '../store/store';
import type { Listeners } from '../util/listeners';
import { onePage, type Pages } from '../util/pages';
import type { Cache, WriteResult } from './cache';
import type { EntryEvent } from './entry-events';
import type { CacheEntry, ScannedEntry } from './cache-entry';
import type { CacheData, MaybePromise, RemoveOutcome } from './cache-data';

/**
 * The entries of a cache of the local engine (memory tier and SQLite store, `Cache`). Every check
 * and the write it guards run in one turn of the event loop, which is what makes them atomic here.
 */
export class LocalCacheData implements CacheData {
  constructor(private readonly cache: Cache) {}

  get listeners(): Listeners<EntryEvent> {
    return this.cache.listeners;
  }

  get(key: Buffer, flags: OpFlags): MaybePromise<CacheEntry | undefined> {
    const pending = this.cache.pendingCommit(key);
    // a failed commit was refused to its writer and dropped from memory; the read goes on
    if (pending) return pending.promise.catch(() => undefined).then(() => this.cache.get(key, flags));
    return this.cache.get(key, flags);
  }

  peek(key: Buffer, flags: OpFlags): MaybePromise<CacheEntry | undefined> {
    const pending = this.cache.pendingCommit(key);
    if (pending) return pending.promise.catch(() => undefined).then(() => this.cache.peek(key, flags));
    return this.cache.peek(key, flags);
  }

  put(key: Buffer, value: Buffer, valueType: string | null, expiry: Expiry, flags: OpFlags, unlessEtag?: string): MaybePromise<CacheEntry | undefined> {
    if (unlessEtag !== undefined && this.cache.peek(key, flags)?.etag === unlessEtag) return undefined;
    return acknowledged(this.cache.put(key, value, valueType, expiry, flags));
  }

  putIfAbsent(key: Buffer, value: Buffer, valueType: string | null, expiry: Expiry, flags: OpFlags): MaybePromise<CacheEntry | undefined> {
    const written = this.cache.putIfAbsent(key, value, valueType, expiry, flags);
    return written && acknowledged(written);
  }

  remove(key: Buffer, flags: OpFlags, ifEtag?: string): MaybePromise<RemoveOutcome> {
    const current = this.cache.peek(key, flags);
    if (!current) return 'absent';
    if (ifEtag !== undefined && ifEtag !== current.etag) return 'etag-differs';
    const { commit } = this.cache.remove(key, flags);
    return commit ? commit.promise.then(() => 'removed') : 'removed';
  }

  size(flags: OpFlags): Promise<number> {
    return (flags & SKIP_CACHE_LOAD) !== 0 ? this.cache.liveMemoryEntryCount() : this.cache.size();
  }

  async clear(): Promise<void> {
    await this.cache.clear()?.promise;
  }

  /** One page: every write made so far durable first, then the cache's lazy walk (memory in place, the store a page of keys at a time). */
  entries(): Pages<StoredEntry> {
    return onePage(this.cache.settled(), () => this.cache.entries());
  }

  keys(): Pages<Buffer> {
    return onePage(this.cache.settled(), () => this.cache.keys());
  }

  /** One page, as `entries`: the store's packed rows as they are read (`Cache.scan`). */
  scan(): Pages<ScannedEntry> {
    return onePage(this.cache.settled(), () => this.cache.scan());
  }
}

function acknowledged({ entry, commit }: WriteResult): MaybePromise<CacheEntry> {
  return commit ? commit.promise.then(() => entry) : entry;
}

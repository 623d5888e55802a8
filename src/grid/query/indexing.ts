import type { CacheDefinition } from '../../model/cache-config';
import type { ProtobufTypes } from '../../model/protobuf/protostream-json';
import type { IndexWriteOp, Store, VolatileIndexStore } from '../../store/store';
import { type Clock, systemClock } from '../../util/clock';
import type { Logger } from '../../util/logger';
import { onePage } from '../../util/pages';
import type { Cache } from '../cache';
import type { CacheData, SharedContent } from '../cache-data';
import { CacheIndex, type IndexedContent, type IndexTarget } from './cache-index';
import { IndexFollower, TRICKLE_EVERY_MS } from './index-follower';
import { querySettingsOf } from './query-settings';

/**
 * The indexes of the container's indexed caches. The cache manager attaches one when it builds an
 * indexed cache: persistent caches index into the store's tables, written in the same group commit
 * as their entries; memory-only caches into one in-memory SQLite database opened on first use. On
 * the redis engine, where other nodes write the entries too, every node keeps an index of its own
 * in that database, which an `IndexFollower` keeps in step with the cluster (docs/scale-out.md, "Queries").
 */
export class Indexing {
  private volatile: VolatileIndexStore | undefined;
  private readonly indexes = new Map<number, CacheIndex>();
  private readonly followers = new Map<number, IndexFollower>();
  /** The followers' background catch-ups, once there is one. */
  private trickling: NodeJS.Timeout | undefined;

  constructor(private readonly store: Store, private readonly types: ProtobufTypes, private readonly log?: Logger, private readonly clock: Clock = systemClock) {
    // before any cache is built: memory is empty, so documents of entries only memory held are stale
    const stale = store.deleteMemoryOnlyIndexDocuments();
    if (stale > 0) log?.info({ documents: stale }, 'dropped the query index documents of entries lost with memory');
    types.onChange?.(() => {
      for (const index of this.indexes.values()) index.forgetTypes();
    });
  }

  /** `data`: where the cache's entries are; with `data.shared` (the redis engine) the index follows the cluster's writes. */
  attach(cache: Cache, definition: CacheDefinition, data?: CacheData): void {
    const settings = querySettingsOf(definition, cache.settings);
    if (!settings.indexed) {
      this.detach(cache);
      return;
    }
    const shared = data?.shared;
    const index = shared
      ? new CacheIndex(cache, settings, this.volatileTarget(), this.types, sharedContent(data!, shared))
      : new CacheIndex(cache, settings, this.targetOf(cache), this.types, localContent(cache));
    this.indexes.set(cache.id, index);
    cache.attachIndex(index);
    if (shared) this.follow(index, shared);
    else if (cache.settings.persistent && this.neverIndexed(cache)) this.rebuildInBackground(index);
  }

  /**
   * The index follows the cluster: a new one is built at once (this node's start, a cache created
   * or adopted), so the first query does not wait for it; a changed definition keeps its follower.
   */
  private follow(index: CacheIndex, shared: SharedContent): void {
    const known = this.followers.get(index.cache.id);
    if (known) {
      known.index = index;
      index.sync = known;
      return;
    }
    const follower = new IndexFollower(index, shared, this.clock, this.log);
    this.followers.set(index.cache.id, follower);
    index.sync = follower;
    follower.startOver();
    this.trickling ??= setInterval(() => { for (const f of this.followers.values()) f.trickle(); }, TRICKLE_EVERY_MS).unref();
  }

  /**
   * Stored entries but no index at all: a data directory from before indexing existed. Documents
   * register their type, so a cleared index (types kept) is not mistaken for one never built.
   */
  private neverIndexed(cache: Cache): boolean {
    return !this.store.indexes.hasTypes(cache.id) && this.store.entries.hasRows(cache.id);
  }

  private rebuildInBackground(index: CacheIndex): void {
    setImmediate(() => {
      this.log?.info({ cache: index.cache.name }, 'building the query index of stored entries');
      index.reindex().then(
        () => this.log?.info({ cache: index.cache.name }, 'query index built'),
        (err: unknown) => this.log?.warn({ cache: index.cache.name, err: (err as Error).message }, 'query index not built; POST search/indexes?action=reindex once the schema is registered'),
      );
    });
  }

  /** A removed cache: its in-memory index goes (a persistent one is dropped with the cache's rows). */
  detach(cache: Cache): void {
    cache.attachIndex(undefined);
    const follower = this.followers.get(cache.id);
    follower?.stop();
    this.followers.delete(cache.id);
    if (this.indexes.delete(cache.id) && (follower || !cache.settings.persistent)) this.volatile?.dropCache(cache.id);
  }

  /** The container closes: no index follows the cluster any more. */
  close(): void {
    clearInterval(this.trickling);
    for (const follower of this.followers.values()) follower.stop();
  }

  of(cache: Cache): CacheIndex | undefined {
    const index = this.indexes.get(cache.id);
    return index && index.cache === cache ? index : undefined;
  }

  private targetOf(cache: Cache): IndexTarget {
    if (cache.settings.persistent) return { reads: this.store.indexes, write: (op) => this.store.write(op) };
    return this.volatileTarget();
  }

  private volatileTarget(): IndexTarget {
    const volatile = (this.volatile ??= this.store.openVolatileIndexes((ops, err) => this.volatileWritesFailed(ops, err)));
    return { reads: volatile, write: (op) => { volatile.apply(op); return undefined; } };
  }

  /** Index writes of memory-only caches that could not be applied: their indexes are rebuilt. */
  private volatileWritesFailed(ops: IndexWriteOp[], err: Error): void {
    for (const id of new Set(ops.map((op) => op.cacheId))) {
      const index = this.indexes.get(id);
      this.log?.error({ cache: index?.cache.name, err: err.message }, 'query index writes failed; rebuilding the index');
      const follower = this.followers.get(id);
      if (follower) follower.startOver();
      else if (index) this.rebuildInBackground(index);
    }
  }
}

/** The local engine's cache: its memory and store, the hits read without filling memory. */
function localContent(cache: Cache): IndexedContent {
  return {
    entries: () => onePage(cache.settled(), () => cache.entries()),
    lookupMany: (keys) => cache.lookupMany(keys),
    heldOnlyInMemory: (key) => cache.heldOnlyInMemory(key),
  };
}

/** Entries other nodes write too: every one read through the engine seam, the hits read back from the cluster. */
function sharedContent(data: CacheData, shared: SharedContent): IndexedContent {
  return { entries: () => data.entries(), lookupMany: (keys) => shared.peekMany(keys), heldOnlyInMemory: () => false };
}

import type { CacheDefinition } from '../../model/cache-config';
import type { ProtobufTypes } from '../../model/protobuf/protostream-json';
import type { IndexWriteOp, Store, VolatileIndexStore } from '../../store/store';
import type { Logger } from '../../util/logger';
import type { Cache } from '../cache';
import { CacheIndex, type IndexTarget } from './cache-index';
import { querySettingsOf } from './query-settings';

/**
 * The indexes of the container's indexed caches. The cache manager attaches one when it builds an
 * indexed cache: persistent caches index into the store's tables, written in the same group commit
 * as their entries; memory-only caches into one in-memory SQLite database opened on first use.
 */
export class Indexing {
  private volatile: VolatileIndexStore | undefined;
  private readonly indexes = new Map<number, CacheIndex>();

  constructor(private readonly store: Store, private readonly types: ProtobufTypes, private readonly log?: Logger) {
    // before any cache is built: memory is empty, so documents of entries only memory held are stale
    const stale = store.deleteMemoryOnlyIndexDocuments();
    if (stale > 0) log?.info({ documents: stale }, 'dropped the query index documents of entries lost with memory');
    types.onChange?.(() => {
      for (const index of this.indexes.values()) index.forgetTypes();
    });
  }

  attach(cache: Cache, definition: CacheDefinition): void {
    const settings = querySettingsOf(definition, cache.settings);
    if (!settings.indexed) {
      this.detach(cache);
      return;
    }
    const index = new CacheIndex(cache, settings, this.targetOf(cache), this.types);
    this.indexes.set(cache.id, index);
    cache.attachIndex(index);
    if (cache.settings.persistent && this.neverIndexed(cache)) this.rebuildInBackground(index);
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
    if (this.indexes.delete(cache.id) && !cache.settings.persistent) this.volatile?.dropCache(cache.id);
  }

  of(cache: Cache): CacheIndex | undefined {
    const index = this.indexes.get(cache.id);
    return index && index.cache === cache ? index : undefined;
  }

  private targetOf(cache: Cache): IndexTarget {
    if (cache.settings.persistent) return { reads: this.store.indexes, write: (op) => this.store.write(op) };
    const volatile = (this.volatile ??= this.store.openVolatileIndexes((ops, err) => this.volatileWritesFailed(ops, err)));
    return { reads: volatile, write: (op) => { volatile.apply(op); return undefined; } };
  }

  /** Index writes of memory-only caches that could not be applied: their indexes are rebuilt. */
  private volatileWritesFailed(ops: IndexWriteOp[], err: Error): void {
    for (const id of new Set(ops.map((op) => op.cacheId))) {
      const index = this.indexes.get(id);
      this.log?.error({ cache: index?.cache.name, err: err.message }, 'query index writes failed; rebuilding the index');
      if (index) this.rebuildInBackground(index);
    }
  }
}

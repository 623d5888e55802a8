import type { CacheDefinition } from '../../model/cache-config';
import type { ProtobufTypes } from '../../model/protostream-json';
import type { Store, VolatileIndexStore } from '../../store/store';
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

  constructor(private readonly store: Store, private readonly types: ProtobufTypes) {}

  attach(cache: Cache, definition: CacheDefinition): void {
    const settings = querySettingsOf(definition, cache.settings);
    if (!settings.indexed) {
      this.detach(cache);
      return;
    }
    const index = new CacheIndex(cache, settings, this.targetOf(cache), this.types);
    this.indexes.set(cache.id, index);
    cache.attachIndex(index);
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
    const volatile = (this.volatile ??= this.store.openVolatileIndexes());
    return { reads: volatile, write: (op) => { volatile.apply(op); return undefined; } };
  }
}

import type { CacheSettings } from '../model/cache-config';
import type { CacheView } from './cache-view';
import { APPLICATION_UNKNOWN, type MediaType, parseMediaType } from '../model/media/media-type';

export interface StorageTypes {
  key: MediaType;
  value: MediaType;
}

const cache = new WeakMap<object, StorageTypes>();

/**
 * The media types a cache stores (docs/reference/media-types.md#storage-types): the configured `encoding` wins, an
 * indexed cache stores protostream, anything else raw bytes (`application/unknown`).
 */
export function storageTypes(cache: CacheView): StorageTypes {
  return storageTypesOf(cache.settings);
}

/** The same for a cache's settings alone (below the views, and start-up work before any cache runs). */
export function storageTypesOf(s: Pick<CacheSettings, 'indexed' | 'keyMediaType' | 'valueMediaType'>): StorageTypes {
  const known = cache.get(s);
  if (known) return known;
  const fallback = s.indexed ? 'application/x-protostream' : APPLICATION_UNKNOWN;
  const types = { key: parseMediaType(s.keyMediaType ?? fallback), value: parseMediaType(s.valueMediaType ?? fallback) };
  cache.set(s, types);
  return types;
}

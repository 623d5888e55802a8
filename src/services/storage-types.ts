import type { CacheHandle } from '../grid/cache-manager';
import type { CacheSettings } from '../model/cache-config';
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
export function storageTypes(h: CacheHandle): StorageTypes {
  return storageTypesOf(h.cache.settings);
}

/** The same for a cache's settings alone (start-up work before any cache runs). */
export function storageTypesOf(s: CacheSettings): StorageTypes {
  const known = cache.get(s);
  if (known) return known;
  const fallback = s.indexed ? 'application/x-protostream' : APPLICATION_UNKNOWN;
  const types = { key: parseMediaType(s.keyMediaType ?? fallback), value: parseMediaType(s.valueMediaType ?? fallback) };
  cache.set(s, types);
  return types;
}

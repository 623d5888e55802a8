import type { CacheHandle } from '../grid/cache-manager';
import { APPLICATION_UNKNOWN, type MediaType, parseMediaType } from '../model/media-type';

export interface StorageTypes {
  key: MediaType;
  value: MediaType;
}

const cache = new WeakMap<object, StorageTypes>();

/**
 * The media types a cache stores (behavior-notes §4.3): the configured `encoding` wins, an
 * indexed cache stores protostream, anything else raw bytes (`application/unknown`).
 */
export function storageTypes(h: CacheHandle): StorageTypes {
  const s = h.cache.settings;
  const known = cache.get(s);
  if (known) return known;
  const fallback = s.indexed ? 'application/x-protostream' : APPLICATION_UNKNOWN;
  const types = { key: parseMediaType(s.keyMediaType ?? fallback), value: parseMediaType(s.valueMediaType ?? fallback) };
  cache.set(s, types);
  return types;
}

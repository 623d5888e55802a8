import { parseCacheConfig, toCacheSettings } from '../model/cache-config';
import { convertLegacyKey, mayHoldLegacyKeys } from '../model/media/legacy-keys';
import type { ProtobufTypes } from '../model/protobuf/protostream-json';
import type { KeyRewrite, Store } from '../store/store';
import type { Clock } from '../util/clock';
import type { Logger } from '../util/logger';
import { storageTypesOf } from './storage-types';

/** The data migration's name in `data_migrations`: it runs once per data directory. */
export const KEY_STORAGE_MIGRATION = 'keys-in-key-storage-type';

/**
 * Start-up step: keys that grid 0.1.0 stored as the path segment's bytes in caches whose key
 * storage type is protostream, Java objects or JSON are rewritten to the key the server now
 * stores for them (model/media/legacy-keys), once, before any cache runs (docs/data-formats.md).
 */
export async function migrateLegacyKeys(store: Store, types: ProtobufTypes, clock: Clock, log: Logger): Promise<void> {
  const caches: KeyRewrite[] = [];
  for (const r of store.definitions.listCaches()) {
    const storage = storageTypesOf(toCacheSettings(parseCacheConfig(r.config, 'json'))).key;
    if (mayHoldLegacyKeys(storage)) caches.push({ cacheId: r.id, convert: (key) => convertLegacyKey(key, storage, types) });
  }
  const outcome = await store.rewriteKeys(KEY_STORAGE_MIGRATION, caches, clock.now());
  if (!outcome?.rewritten) return;
  log.info({ migration: KEY_STORAGE_MIGRATION, caches: caches.length, ...outcome }, 'keys converted to the key storage type');
  if (outcome.collisions) log.warn({ migration: KEY_STORAGE_MIGRATION, collisions: outcome.collisions }, 'two spellings of one key held entries; the most recently written was kept');
}

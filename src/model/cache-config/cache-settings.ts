import { isTemplateKind, toBaseKind } from './cache-kinds';
import { findChild, findChildren, findDescendant } from './config-element';
import { parseDurationMs, parseSizeBytes } from './quantities';
import { STORE_ELEMENTS } from './schema';
import type {
  CacheDefinition, CacheKind, CacheMode, CacheSettings, ConfigElement, StorageType, WhenFull,
} from './types';

const MODE_PREFIX: Readonly<Record<CacheKind, string>> = {
  'local-cache': 'LOCAL',
  'distributed-cache': 'DIST',
  'replicated-cache': 'REPL',
  'invalidation-cache': 'INVALIDATION',
};

function text(element: ConfigElement | undefined, name: string): string | undefined {
  const value = element?.attributes[name];
  return typeof value === 'string' ? value : undefined;
}

function flag(element: ConfigElement | undefined, name: string, fallback: boolean): boolean {
  const value = element?.attributes[name];
  return typeof value === 'boolean' ? value : fallback;
}

function names(element: ConfigElement | undefined, name: string): string[] {
  const value = element?.attributes[name];
  return Array.isArray(value) ? [...value] : [];
}

function durationMs(element: ConfigElement | undefined, name: string): number {
  const value = text(element, name);
  return value === undefined ? -1 : parseDurationMs(value) ?? -1;
}

function cacheModeOf(kind: CacheKind, root: ConfigElement): CacheMode {
  if (kind === 'local-cache') return 'LOCAL';
  return `${MODE_PREFIX[kind]}_${text(root, 'mode') ?? 'SYNC'}` as CacheMode;
}

interface MemoryLimits {
  storageType: StorageType;
  maxCount: number;
  maxSize?: string;
  whenFull?: WhenFull;
}

// Pre-11 documents name the storage by a child (<object size=".."/>); `size` counts entries
// unless eviction="MEMORY".
function memoryLimitsOf(memory: ConfigElement | undefined): MemoryLimits {
  const legacy = memory?.children[0];
  if (legacy) {
    const size = text(legacy, 'size');
    const strategy = text(legacy, 'strategy') as WhenFull | undefined;
    const storageType = legacy.name === 'off-heap' ? 'OFF_HEAP' : legacy.name.toUpperCase() as StorageType;
    if (text(legacy, 'eviction') === 'MEMORY' && size !== undefined) return { storageType, maxCount: -1, maxSize: size, whenFull: strategy };
    return { storageType, maxCount: Number(size ?? -1), whenFull: strategy };
  }
  return {
    storageType: (text(memory, 'storage') ?? 'HEAP') as StorageType,
    maxCount: Number(text(memory, 'max-count') ?? -1),
    maxSize: text(memory, 'max-size'),
    whenFull: text(memory, 'when-full') as WhenFull | undefined,
  };
}

/** The typed view of a definition, defaults applied (docs/reference/management-plane.md#cache-listing, docs/reference/management-plane.md#cache-details feature flags). */
export function toCacheSettings(def: CacheDefinition): CacheSettings {
  const { root } = def;
  const kind = toBaseKind(root.name) ?? 'local-cache';
  const encoding = findChild(root, 'encoding');
  const expiration = findChild(root, 'expiration');
  const memory = memoryLimitsOf(findChild(root, 'memory'));
  const maxSizeBytes = memory.maxSize === undefined ? -1 : parseSizeBytes(memory.maxSize) ?? -1;
  const bounded = memory.maxCount > 0 || memory.maxSize !== undefined;
  const persistence = findChild(root, 'persistence');
  const stores = persistence ? persistence.children.filter((child) => STORE_ELEMENTS.includes(child.name)) : [];
  const indexing = findChild(root, 'indexing');
  const authorization = findDescendant(root, ['security', 'authorization']);
  const transactionMode = text(findChild(root, 'transaction'), 'mode');
  const settings: CacheSettings = {
    kind,
    template: isTemplateKind(root.name),
    cacheMode: cacheModeOf(kind, root),
    statistics: flag(root, 'statistics', false),
    simpleCache: flag(root, 'simple-cache', false),
    aliases: names(root, 'aliases'),
    tracing: flag(findChild(root, 'tracing'), 'enabled', true),
    lifespanMs: durationMs(expiration, 'lifespan'),
    maxIdleMs: durationMs(expiration, 'max-idle'),
    maxCount: memory.maxCount,
    maxSizeBytes,
    // A bound without an explicit strategy evicts (REMOVE); no bound means nothing to do (NONE).
    whenFull: memory.whenFull ?? (bounded ? 'REMOVE' : 'NONE'),
    bounded,
    storageType: memory.storageType,
    persistent: stores.length > 0,
    passivation: flag(persistence, 'passivation', false),
    preload: stores.some((store) => flag(store, 'preload', false)),
    // <indexing> without `enabled` turns indexing on (original since schema 11).
    indexed: indexing !== undefined && flag(indexing, 'enabled', true),
    indexedEntities: names(indexing, 'indexed-entities'),
    transactional: transactionMode !== undefined && transactionMode !== 'NONE',
    secured: authorization !== undefined && flag(authorization, 'enabled', true),
    roles: names(authorization, 'roles'),
    hasRemoteBackup: findChildren(findChild(root, 'backups'), 'backup').length > 0,
  };
  const keyMediaType = text(findChild(encoding, 'key'), 'media-type') ?? text(encoding, 'media-type');
  const valueMediaType = text(findChild(encoding, 'value'), 'media-type') ?? text(encoding, 'media-type');
  if (keyMediaType !== undefined) settings.keyMediaType = keyMediaType;
  if (valueMediaType !== undefined) settings.valueMediaType = valueMediaType;
  if (memory.maxSize !== undefined) settings.maxSize = memory.maxSize;
  const interval = text(expiration, 'interval');
  if (interval !== undefined) settings.expirationIntervalMs = parseDurationMs(interval) ?? -1;
  return settings;
}

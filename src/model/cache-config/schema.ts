// The declarative cache schema: per element its attributes (value kind, default) and children.
// Names, defaults and enum values follow the original's parser and configuration classes
// (core/.../configuration/parsing/CacheParser.java, configuration/cache/*Configuration.java).
import type { CacheKind, ConfigValue } from './types';
import {
  bool, decimal, duration, element, integer, list, oneOf, size, text,
  type AttributeSpec, type ElementSpec,
} from './schema-spec';

const storeAttributes = {
  shared: bool(false),
  'read-only': bool(false),
  'write-only': bool(false),
  preload: bool(false),
  purge: bool(false),
  transactional: bool(false),
  segmented: bool(true),
  'max-batch-size': integer(100),
};

const storeChildren = {
  'write-behind': element({ 'modification-queue-size': integer(1024), 'fail-silently': bool(false) }),
  properties: element({}, {}, { anyAttributes: true }),
};

const fileStore = element(
  {
    ...storeAttributes,
    path: text(),
    'open-files-limit': integer(1000),
    'compaction-threshold': decimal(0.5),
    'max-entries': integer(),
  },
  {
    ...storeChildren,
    data: element({ path: text(), 'max-file-size': integer(16777216), 'sync-writes': bool(false) }),
    index: element({
      path: text(), segments: integer(), 'index-queue-length': integer(), 'max-queue-length': integer(),
      'min-node-size': integer(), 'max-node-size': integer(),
    }),
  },
  { significant: true },
);

const singleFileStore = element(
  { ...storeAttributes, path: text(), 'max-entries': integer(-1), 'fragmentation-factor': decimal(0.75) },
  storeChildren,
  { significant: true },
);

export const STORE_ELEMENTS: readonly string[] = ['file-store', 'single-file-store', 'soft-index-file-store'];

const persistence = element(
  {
    passivation: bool(false),
    'connection-attempts': integer(10),
    'connection-interval': integer(50),
    'availability-interval': integer(1000),
  },
  { 'file-store': fileStore, 'soft-index-file-store': fileStore, 'single-file-store': singleFileStore },
);

const EVICTION_STRATEGIES = ['NONE', 'REMOVE', 'EXCEPTION', 'MANUAL'];

function whenFullDefault(attributes: Readonly<Record<string, ConfigValue>>): ConfigValue {
  const maxCount = Number(attributes['max-count'] ?? -1);
  return maxCount > 0 || attributes['max-size'] !== undefined ? 'REMOVE' : 'NONE';
}

// The pre-11 `<memory><object size=".."/></memory>` form is still read (cache-fragment.xml).
const legacyMemory = (extra: Record<string, AttributeSpec>) =>
  element({ size: integer(-1), strategy: oneOf(EVICTION_STRATEGIES), ...extra });

const memory = element(
  {
    storage: oneOf(['HEAP', 'OFF_HEAP', 'OBJECT', 'BINARY'], 'HEAP'),
    'max-count': integer(-1),
    'max-size': size(),
    'when-full': { ...oneOf(EVICTION_STRATEGIES), defaultFrom: whenFullDefault },
  },
  {
    object: legacyMemory({}),
    binary: legacyMemory({ eviction: oneOf(['COUNT', 'MEMORY'], 'COUNT') }),
    'off-heap': legacyMemory({ eviction: oneOf(['COUNT', 'MEMORY'], 'COUNT'), 'address-count': integer() }),
  },
);

const indexing = element(
  {
    // An <indexing> element without `enabled` turns indexing on (original, since schema 11).
    enabled: bool(true, false),
    storage: oneOf(['local-heap', 'filesystem'], 'filesystem'),
    path: text(),
    'startup-mode': oneOf(['NONE', 'PURGE', 'REINDEX', 'AUTO'], 'NONE'),
    'indexing-mode': oneOf(['AUTO', 'MANUAL'], 'AUTO'),
    'indexed-entities': list(),
  },
  {
    'index-reader': element({ 'refresh-interval': duration(0) }),
    'index-writer': element(
      {
        'thread-pool-size': integer(), 'commit-interval': integer(), 'queue-count': integer(),
        'queue-size': integer(), 'low-level-trace': bool(false), 'max-buffered-entries': integer(),
        'ram-buffer-size': integer(),
      },
      {
        'index-merge': element({
          'max-entries': integer(), 'calibrate-by-deletes': bool(), factor: integer(),
          'max-forced-size': integer(), 'max-size': integer(), 'min-size': integer(),
        }),
      },
    ),
    'index-sharding': element({ shards: integer(1) }),
    'key-transformers': element({}, {
      'key-transformer': element({ key: text(), transformer: text() }, {}, { repeatable: true }),
    }),
  },
);

const backup = element(
  {
    site: text(),
    strategy: oneOf(['SYNC', 'ASYNC'], 'ASYNC'),
    'failure-policy': oneOf(['IGNORE', 'WARN', 'FAIL', 'CUSTOM'], 'WARN'),
    'failure-policy-class': text(),
    timeout: duration(15000),
    enabled: bool(true),
    'two-phase-commit': bool(false),
  },
  {
    'take-offline': element({ 'after-failures': integer(0), 'min-wait': duration(0) }),
    'state-transfer': element({
      'chunk-size': integer(512), timeout: duration(1200000), 'max-retries': integer(30),
      'wait-time': duration(2000), mode: oneOf(['MANUAL', 'AUTO'], 'MANUAL'),
    }),
  },
  { repeatable: true, mapKey: 'site', significant: true },
);

const commonChildren: Record<string, ElementSpec> = {
  locking: element({
    isolation: oneOf(['NONE', 'READ_UNCOMMITTED', 'READ_COMMITTED', 'REPEATABLE_READ', 'SERIALIZABLE'], 'REPEATABLE_READ'),
    striping: bool(false),
    'acquire-timeout': duration(10000),
    'concurrency-level': integer(32),
  }),
  transaction: element({
    mode: oneOf(['NONE', 'BATCH', 'NON_XA', 'NON_DURABLE_XA', 'FULL_XA'], 'NONE'),
    locking: oneOf(['OPTIMISTIC', 'PESSIMISTIC'], 'OPTIMISTIC'),
    'stop-timeout': duration(30000),
    'auto-commit': bool(true),
    'complete-timeout': duration(60000),
    'reaper-interval': duration(30000),
    notifications: bool(true),
    'transaction-manager-lookup': text(),
    'recovery-cache': text(),
  }),
  expiration: element({
    lifespan: duration(-1),
    'max-idle': duration(-1),
    interval: duration(60000),
    touch: oneOf(['SYNC', 'ASYNC'], 'SYNC'),
  }),
  memory,
  encoding: element({ 'media-type': text() }, {
    key: element({ 'media-type': text() }),
    value: element({ 'media-type': text() }),
  }),
  persistence,
  indexing,
  'partition-handling': element({
    'when-split': oneOf(['ALLOW_READ_WRITES', 'DENY_READ_WRITES', 'ALLOW_READS'], 'ALLOW_READ_WRITES'),
    'merge-policy': oneOf(['NONE', 'PREFERRED_ALWAYS', 'PREFERRED_NON_NULL', 'REMOVE_ALL'], 'NONE'),
  }),
  security: element({}, {
    // <authorization> without `enabled` turns authorization on (CacheParser.parseCacheSecurity).
    authorization: element({ enabled: bool(true, false), roles: list() }),
  }),
  backups: element(
    { 'merge-policy': text(), 'max-cleanup-delay': duration(), 'tombstone-map-size': integer() },
    { backup },
  ),
  'backup-for': element({ 'remote-cache': text(), 'remote-site': text() }),
  query: element({ 'default-max-results': integer(100), 'hit-count-accuracy': integer(10000) }),
  tracing: element({ enabled: bool(), categories: list() }),
};

const cacheAttributes = {
  configuration: text(),
  statistics: bool(false),
  'statistics-available': bool(true),
  'simple-cache': bool(false),
  'unreliable-return-values': bool(false),
  start: text(),
  aliases: list(),
};

const clusteredAttributes = {
  mode: oneOf(['SYNC', 'ASYNC'], 'SYNC'),
  'remote-timeout': duration(15000),
  ...cacheAttributes,
};

const segmentedAttributes = {
  ...clusteredAttributes,
  segments: integer(256),
  'key-partitioner': text(),
  'consistent-hash-factory': text(),
};

const stateTransfer = element({
  enabled: bool(true),
  timeout: duration(240000),
  'chunk-size': integer(512),
  'await-initial-transfer': bool(true),
});

/** Root element spec per kind (template kinds share their base kind's spec). */
export const CACHE_SPECS: Readonly<Record<CacheKind, ElementSpec>> = {
  // remote-timeout does nothing on one node; it is here because it is a mutable attribute of every cache
  'local-cache': element({ ...cacheAttributes, 'remote-timeout': duration(15000) }, commonChildren),
  'invalidation-cache': element({ ...clusteredAttributes, 'key-partitioner': text() }, commonChildren),
  'replicated-cache': element(segmentedAttributes, { ...commonChildren, 'state-transfer': stateTransfer }),
  'distributed-cache': element(
    {
      ...segmentedAttributes,
      owners: integer(2),
      'capacity-factor': decimal(1),
      'l1-lifespan': duration(0),
      'invalidation-cleanup-task-frequency': duration(600000),
    },
    {
      ...commonChildren,
      'state-transfer': stateTransfer,
      groups: element({ enabled: bool(false), grouper: list() }),
    },
  ),
};

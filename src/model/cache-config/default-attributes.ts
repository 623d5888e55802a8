// The default attribute values of a cache, as `GET /rest/v2/server/caches/defaults` answers them
// (docs/management.md): the original walks the configuration of a default cache (a local cache)
// and writes each element's attributes, as strings or null, with its child elements nested under
// their names. The element names are those of the original's configuration classes, not of the XML
// layout: `owners` is under `clustering.hash`, `max-cleanup-delay` under `sites`. Grid lists the
// attributes its own configuration has (docs/compatibility.md); the values are the defaults its
// schema applies, written as the original writes them (time quantities as `15s`, `4m`).

/** Element → attribute values (string or null) and child elements. */
export interface DefaultAttributes {
  [name: string]: string | null | DefaultAttributes;
}

const LOCAL_CACHE: DefaultAttributes = {
  configuration: null,
  'simple-cache': 'false',
  aliases: '[]',
  clustering: {
    'remote-timeout': '15s',
    hash: { owners: '2', segments: '256', 'capacity-factor': '1.0', 'key-partitioner': null },
    l1: { enabled: 'false', lifespan: '10m', 'invalidation-cleanup-task-frequency': '10m' },
    'state-transfer': { enabled: 'true', timeout: '4m', 'chunk-size': '512', 'await-initial-transfer': 'true' },
    'partition-handling': { 'when-split': 'ALLOW_READ_WRITES', 'merge-policy': 'NONE' },
  },
  expiration: { lifespan: '-1', 'max-idle': '-1', interval: '1m', touch: 'SYNC' },
  encoding: { 'media-type': null, key: { 'media-type': null }, value: { 'media-type': null } },
  'jmx-statistics': { statistics: 'false', available: 'true' },
  locking: { isolation: 'REPEATABLE_READ', striping: 'false', 'acquire-timeout': '10s', 'concurrency-level': '32' },
  transaction: {
    mode: 'NONE', locking: 'OPTIMISTIC', 'auto-commit': 'true', 'stop-timeout': '30s', 'complete-timeout': '1m',
    'reaper-interval': '30s', notifications: 'true',
  },
  sites: { 'max-cleanup-delay': '30s', 'tombstone-map-size': '512000' },
  memory: { storage: 'HEAP', 'max-size': null, 'max-count': '-1', 'when-full': 'NONE' },
  query: { 'default-max-results': '100', 'hit-count-accuracy': '10000' },
  indexing: {
    enabled: 'false', storage: 'filesystem', path: null, 'startup-mode': 'NONE', 'indexing-mode': 'AUTO', 'indexed-entities': '[]',
    'index-reader': { 'refresh-interval': '0' },
    'index-sharding': { shards: '1' },
  },
  persistence: { passivation: 'false', 'availability-interval': '1000', 'connection-attempts': '10', 'connection-interval': '50' },
  security: { authorization: { enabled: 'false', roles: '[]' } },
  tracing: { enabled: 'true', categories: '[container]' },
};

/** The answer of `GET /rest/v2/server/caches/defaults`: `{"local-cache":{…}}`. */
export function defaultCacheAttributes(): DefaultAttributes {
  return { 'local-cache': LOCAL_CACHE };
}

export type ConfigFormat = 'json' | 'xml' | 'yaml';

/** Booleans stay booleans, lists are arrays, everything else is the text as written. */
export type ConfigValue = string | boolean | string[];

/** One element of the declarative tree, names in the XML (kebab-case) form. */
export interface ConfigElement {
  name: string;
  attributes: Record<string, ConfigValue>;
  children: ConfigElement[];
}

/** A parsed cache (or template) definition: root.name is the kind, e.g. 'distributed-cache' or 'local-cache-configuration'. */
export interface CacheDefinition {
  root: ConfigElement;
  /** The name found inside the document, if any. */
  name?: string;
}

export type CacheKind = 'local-cache' | 'distributed-cache' | 'replicated-cache' | 'invalidation-cache';

export type CacheMode =
  | 'LOCAL'
  | 'DIST_SYNC' | 'DIST_ASYNC'
  | 'REPL_SYNC' | 'REPL_ASYNC'
  | 'INVALIDATION_SYNC' | 'INVALIDATION_ASYNC';

export type WhenFull = 'NONE' | 'REMOVE' | 'EXCEPTION' | 'MANUAL';

export type StorageType = 'HEAP' | 'OFF_HEAP' | 'OBJECT' | 'BINARY';

/** The typed view of a definition the engine works with; defaults already applied. */
export interface CacheSettings {
  kind: CacheKind;
  template: boolean;
  cacheMode: CacheMode;
  statistics: boolean;
  simpleCache: boolean;
  aliases: string[];
  /** The cache's tracing switch (on unless `tracing enabled="false"`). */
  tracing: boolean;
  keyMediaType?: string;
  valueMediaType?: string;
  /** -1 when entries never expire. */
  lifespanMs: number;
  maxIdleMs: number;
  /**
   * `expiration.interval`: how often the reaper visits this cache (ms; 0 or less: never, entries
   * then expire on access only). Undefined when not written: the server's `expiration-interval`.
   */
  expirationIntervalMs?: number;
  /** -1 when unbounded. */
  maxCount: number;
  /** The max-size text as configured (details answer `max_size`); undefined when unset. */
  maxSize?: string;
  maxSizeBytes: number;
  whenFull: WhenFull;
  bounded: boolean;
  storageType: StorageType;
  persistent: boolean;
  passivation: boolean;
  preload: boolean;
  indexed: boolean;
  indexedEntities: string[];
  transactional: boolean;
  secured: boolean;
  roles: string[];
  hasRemoteBackup: boolean;
}

import { GridError } from './grid-error';

/** A cache configuration the client sent cannot be used (400, the parser's message). */
export class InvalidConfigurationError extends GridError {
  constructor(message: string, code: 'INVALID_CONFIGURATION' | 'EMPTY_CONFIGURATION' | 'CACHE_COUNT' = 'INVALID_CONFIGURATION') {
    super(400, code, message);
  }
}

/** A configuration document with no cache in it (a comparison takes it as the wrong content). */
export class EmptyConfigurationError extends InvalidConfigurationError {
  constructor() { super('Configuration is empty', 'EMPTY_CONFIGURATION'); }
}

/** A configuration document with more than one cache, or none where one is expected. */
export class CacheCountError extends InvalidConfigurationError {
  constructor(found: number) { super(`Expected exactly one cache definition, found ${found}`, 'CACHE_COUNT'); }
}

/**
 * Max-idle with a store written through (no passivation): idle times refreshed in memory would be
 * lost on eviction, so the original refuses to start such a cache (PersistenceManagerImpl, 400).
 */
export class MaxIdleWithStoreError extends GridError {
  constructor() { super(400, 'MAX_IDLE_WITH_STORE', 'ISPN000651: Max idle is not allowed while using a store without passivation'); }
}

/**
 * A cache definition sent as `text/plain` with parameters (docs/reference/management-plane.md#cache-create): the original's
 * ConfigurationReader throws IllegalArgumentException(the media type), which ParserRegistry wraps
 * in a CacheConfigurationException, so the message is the wrapped exception's `toString()` (400).
 */
export class UnreadableConfigurationTypeError extends GridError {
  /** `?action=convert` answers the IllegalArgumentException unwrapped: the media type alone. */
  constructor(mediaType: string, endpoint: 'create' | 'convert' = 'create') {
    super(400, 'UNREADABLE_CONFIGURATION_TYPE', endpoint === 'convert' ? mediaType : `java.lang.IllegalArgumentException: ${mediaType}`);
  }
}

/** The original's report of changes a running cache cannot take: ISPN000963, then one ISPN000961 per attribute. */
export function incompatibilityReport(kind: string, problems: string[]): string {
  return [`ISPN000963: Invalid configuration in '${kind}'`, ...problems.map((p) => `    ${p}`)].join('\n');
}

/** `PUT /caches/{name}` with a change the running cache cannot take (docs/reference/management-plane.md#cache-update). */
export class IncompatibleConfigurationError extends GridError {
  constructor(kind: string, problems: string[]) {
    super(400, 'INCOMPATIBLE_CONFIGURATION', incompatibilityReport(kind, problems));
  }
}

/**
 * `POST /caches?action=compare` found the two configurations different (409, docs/reference/management-plane.md#config-compare):
 * no body, or with `ignoreMutable=true` the incompatibility report.
 */
export class ConfigurationsDifferError extends GridError {
  constructor(report: string) {
    super(409, 'CONFIGURATIONS_DIFFER', report);
  }
}

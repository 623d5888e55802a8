import { defineError } from './define-error';

/** A cache configuration the client sent cannot be used (400, the parser's message). */
export class InvalidConfigurationError extends defineError({
  code: 'INVALID_CONFIGURATION', status: 400,
  text: (message: string) => message,
  summary: "the parser's message, often the original's (`ISPN000327`, `ISPN000374`, `ISPN000686`…)",
}) {}

/** A configuration document with no cache in it (a comparison takes it as the wrong content). */
export class EmptyConfigurationError extends defineError({
  code: 'EMPTY_CONFIGURATION', status: 400, text: () => 'Configuration is empty',
}, InvalidConfigurationError) {}

/** A configuration document with more than one cache, or none where one is expected. */
export class CacheCountError extends defineError({
  code: 'CACHE_COUNT', status: 400,
  text: (found: number) => `Expected exactly one cache definition, found ${found}`,
}, InvalidConfigurationError) {}

/**
 * Max-idle with a store written through (no passivation): idle times refreshed in memory would be
 * lost on eviction, so the original refuses to start such a cache (PersistenceManagerImpl, 400).
 */
export class MaxIdleWithStoreError extends defineError({
  code: 'MAX_IDLE_WITH_STORE', status: 400, ispn: 'ISPN000651',
  text: () => 'Max idle is not allowed while using a store without passivation',
}) {}

/**
 * A cache definition sent as `text/plain` with parameters (docs/reference/management-plane.md#cache-create): the original's
 * ConfigurationReader throws IllegalArgumentException(the media type), which ParserRegistry wraps
 * in a CacheConfigurationException, so the message is the wrapped exception's `toString()` (400).
 * `?action=convert` answers the IllegalArgumentException unwrapped: the media type alone.
 */
export class UnreadableConfigurationTypeError extends defineError({
  code: 'UNREADABLE_CONFIGURATION_TYPE', status: 400,
  text: (mediaType: string, endpoint: 'create' | 'convert' = 'create') =>
    endpoint === 'convert' ? mediaType : `java.lang.IllegalArgumentException: ${mediaType}`,
  summary: '`java.lang.IllegalArgumentException: …` (the media type); `?action=convert`: the media type alone',
}) {}

/** The original's report of changes a running cache cannot take: ISPN000963, then one ISPN000961 per attribute. */
export function incompatibilityReport(kind: string, problems: string[]): string {
  return [`ISPN000963: Invalid configuration in '${kind}'`, ...problems.map((p) => `    ${p}`)].join('\n');
}

/** `PUT /caches/{name}` with a change the running cache cannot take (docs/reference/management-plane.md#cache-update). */
export class IncompatibleConfigurationError extends defineError({
  code: 'INCOMPATIBLE_CONFIGURATION', status: 400,
  text: (kind: string, problems: string[]) => incompatibilityReport(kind, problems),
  summary: "`ISPN000963: Invalid configuration in '…'`, then one line `ISPN000961: Incompatible attribute …` per attribute",
}) {}

/**
 * `POST /caches?action=compare` found the two configurations different (409, docs/reference/management-plane.md#config-compare):
 * no body, or with `ignoreMutable=true` the incompatibility report.
 */
export class ConfigurationsDifferError extends defineError({
  code: 'CONFIGURATIONS_DIFFER', status: 409,
  text: (report: string) => report,
  summary: 'no body; with `ignoreMutable=true` the `ISPN000963` report of the attributes that differ',
}) {}

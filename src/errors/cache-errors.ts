import { defineError } from './define-error';

export class CacheNotFoundError extends defineError({
  code: 'CACHE_NOT_FOUND', status: 404, ispn: 'ISPN012010',
  text: (name: string) => `Cache with name '${name}' not found amongst the configured caches`,
}) {}

/** DELETE/HEAD/config of a missing cache: 404 with no body, as the original. */
export class CacheAbsentError extends defineError({ code: 'CACHE_ABSENT', status: 404 }) {}

/** A cache on the server's ignore list (docs/reference/data-plane.md#cache-lookup). */
export class CacheIgnoredError extends defineError({
  code: 'CACHE_IGNORED', status: 503, ispn: 'ISPN012008',
  text: (name: string) => `Cache with name '${name}' is temporarily unavailable.`,
}) {}

export class CacheExistsError extends defineError({
  code: 'CACHE_EXISTS', status: 400, ispn: 'ISPN000507',
  text: (name: string) => `Cache ${name} already exists`,
}) {}

/** A default-container cache or alias named like a tenant: `/rest/<tenant>/…` would never reach it (docs/configuration.md, Tenants). */
export class ReservedCacheNameError extends defineError({
  code: 'CACHE_NAME_RESERVED', status: 400,
  text: (name: string) =>
    `Cache name '${name}' is reserved: it is the name of a tenant of this server, so /rest/${name}/… reaches that tenant's container, not a cache`,
}) {}

export class NameTooLongError extends defineError({
  code: 'NAME_TOO_LONG', status: 400, ispn: 'ISPN000663',
  text: (name: string) => `Name must be less than 256 bytes, current name '${name}' exceeds the size.`,
}) {}

export class NoSuchTemplateError extends defineError({
  code: 'NO_SUCH_TEMPLATE', status: 400, ispn: 'ISPN000374',
  text: (template: string, cache: string) => `No such template '${template}' when declaring '${cache}'`,
}) {}

export class EntryNotFoundError extends defineError({ code: 'ENTRY_NOT_FOUND', status: 404 }) {}

export class EntryExistsError extends defineError({ code: 'ENTRY_EXISTS', status: 409, text: () => 'An entry already exists' }) {}

export class NotModifiedError extends defineError({ code: 'NOT_MODIFIED', status: 304 }) {}

export class PreconditionFailedError extends defineError({ code: 'PRECONDITION_FAILED', status: 412 }) {}

export class InvalidFlagError extends defineError({
  code: 'INVALID_FLAG', status: 400,
  text: (enumName: string, flag: string) => `No enum constant ${enumName}.${flag}`,
}) {}

/** `memory.when-full=EXCEPTION` and the cache is full. */
export class ContainerFullError extends defineError({
  code: 'CONTAINER_FULL', status: 500, ispn: 'ISPN000514',
  text: (limit: number) => `Container eviction limit ${limit} reached, write operation(s) is blocked`,
}) {}

export class TranscoderNotFoundError extends defineError({
  code: 'NO_TRANSCODER', status: 400, ispn: 'ISPN000492',
  text: (from: string, to: string) => `Cannot find transcoder between '${from}' to '${to}'`,
}) {}

/** An alias (docs/reference/management-plane.md#aliases) that names another cache already, or is another cache's name. */
export class AliasInUseError extends defineError({
  code: 'ALIAS_IN_USE', status: 400,
  text: (alias: string, cache: string | undefined) =>
    cache === undefined ? `The alias '${alias}' is already being used` : `The alias '${alias}' is already being used by cache '${cache}'`,
  summary: "`The alias '…' is already being used by cache '…'`; without the cache's name to a caller who may not see it",
}) {
  /** `cache` undefined: the caller may not learn which cache holds it (a secured cache it cannot see). */
  constructor(readonly alias: string, readonly cache: string | undefined) {
    super(alias, cache);
  }
}

/** `?action=set-availability` with a mode other than AVAILABLE or DEGRADED_MODE. */
export class UnknownAvailabilityError extends defineError({
  code: 'UNKNOWN_AVAILABILITY', status: 400,
  text: (mode: string) => `Unknown AvailabilityMode '${mode}'`,
}) {}

/** `?action=get|set-mutable-attribute` of an attribute that is not mutable, or unknown (docs/reference/management-plane.md#mutable-attributes). */
export class ImmutableAttributeError extends defineError({
  code: 'IMMUTABLE_ATTRIBUTE', status: 400, ispn: 'ISPN012035',
  text: (name: string) => `Attribute '${name}' is immutable`,
}) {}

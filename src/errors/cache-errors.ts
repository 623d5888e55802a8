import { GridError } from './grid-error';

export class CacheNotFoundError extends GridError {
  constructor(name: string) {
    super(404, 'CACHE_NOT_FOUND', `ISPN012010: Cache with name '${name}' not found amongst the configured caches`);
  }
}

/** DELETE/HEAD/config of a missing cache: 404 with no body, as the original. */
export class CacheAbsentError extends GridError {
  constructor() { super(404, 'CACHE_ABSENT', ''); }
}

/** A cache on the server's ignore list (docs/reference/data-plane.md#cache-lookup). */
export class CacheIgnoredError extends GridError {
  constructor(name: string) { super(503, 'CACHE_IGNORED', `ISPN012008: Cache with name '${name}' is temporarily unavailable.`); }
}

export class CacheExistsError extends GridError {
  constructor(name: string) { super(400, 'CACHE_EXISTS', `ISPN000507: Cache ${name} already exists`); }
}

/** A default-container cache or alias named like a tenant: `/rest/<tenant>/…` would never reach it (docs/configuration.md, Tenants). */
export class ReservedCacheNameError extends GridError {
  constructor(name: string) {
    super(400, 'CACHE_NAME_RESERVED', `Cache name '${name}' is reserved: it is the name of a tenant of this server, so /rest/${name}/… reaches that tenant's container, not a cache`);
  }
}

export class NameTooLongError extends GridError {
  constructor(name: string) {
    super(400, 'NAME_TOO_LONG', `ISPN000663: Name must be less than 256 bytes, current name '${name}' exceeds the size.`);
  }
}

export class NoSuchTemplateError extends GridError {
  constructor(template: string, cache: string) {
    super(400, 'NO_SUCH_TEMPLATE', `ISPN000374: No such template '${template}' when declaring '${cache}'`);
  }
}

export class EntryNotFoundError extends GridError {
  constructor() { super(404, 'ENTRY_NOT_FOUND', ''); }
}

export class EntryExistsError extends GridError {
  constructor() { super(409, 'ENTRY_EXISTS', 'An entry already exists'); }
}

export class NotModifiedError extends GridError {
  constructor() { super(304, 'NOT_MODIFIED', ''); }
}

export class PreconditionFailedError extends GridError {
  constructor() { super(412, 'PRECONDITION_FAILED', ''); }
}

export class InvalidFlagError extends GridError {
  constructor(enumName: string, flag: string) {
    super(400, 'INVALID_FLAG', `No enum constant ${enumName}.${flag}`);
  }
}

/** `memory.when-full=EXCEPTION` and the cache is full. */
export class ContainerFullError extends GridError {
  constructor(limit: number) {
    super(500, 'CONTAINER_FULL', `ISPN000514: Container eviction limit ${limit} reached, write operation(s) is blocked`);
  }
}

export class TranscoderNotFoundError extends GridError {
  constructor(from: string, to: string) {
    super(400, 'NO_TRANSCODER', `ISPN000492: Cannot find transcoder between '${from}' to '${to}'`);
  }
}

/** An alias (docs/reference/management-plane.md#aliases) that names another cache already, or is another cache's name. */
export class AliasInUseError extends GridError {
  /** `cache` undefined: the caller may not learn which cache holds it (a secured cache it cannot see). */
  constructor(readonly alias: string, readonly cache: string | undefined) {
    super(400, 'ALIAS_IN_USE', cache === undefined ? `The alias '${alias}' is already being used` : `The alias '${alias}' is already being used by cache '${cache}'`);
  }
}

/** `?action=set-availability` with a mode other than AVAILABLE or DEGRADED_MODE. */
export class UnknownAvailabilityError extends GridError {
  constructor(mode: string) { super(400, 'UNKNOWN_AVAILABILITY', `Unknown AvailabilityMode '${mode}'`); }
}

/** `?action=get|set-mutable-attribute` of an attribute that is not mutable, or unknown (docs/reference/management-plane.md#mutable-attributes). */
export class ImmutableAttributeError extends GridError {
  constructor(name: string) { super(400, 'IMMUTABLE_ATTRIBUTE', `ISPN012035: Attribute '${name}' is immutable`); }
}

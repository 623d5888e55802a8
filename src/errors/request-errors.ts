import { GridError } from './grid-error';

/** Routing and request-shape errors (docs/reference/http.md#routing, docs/reference/errors.md#status-mapping). */
export class ResourceNotFoundError extends GridError {
  constructor() { super(404, 'RESOURCE_NOT_FOUND', 'Resource not found'); }
}

export class MethodNotAllowedError extends GridError {
  constructor() { super(405, 'METHOD_NOT_ALLOWED', 'Not allowed'); }
}

export class InvalidActionError extends GridError {
  constructor(empty: boolean) {
    super(400, 'INVALID_ACTION', empty ? 'Invalid action' : "Invalid 'action' parameter supplied");
  }
}

export class ForbiddenMethodError extends GridError {
  constructor() { super(403, 'FORBIDDEN_METHOD', 'Unknown HTTP method'); }
}

/** 413 with no body; the HTTP layer closes the connection after it (docs/reference/http.md#limits). */
export class PayloadTooLargeError extends GridError {
  constructor(limit?: number) {
    super(413, 'PAYLOAD_TOO_LARGE', limit === undefined ? 'Request body too large' : `Request body larger than ${limit} bytes`);
  }
}

/** A request body Node's HTTP parser refused part-way (a broken chunk) or that did not arrive in time: the request is answered with the parser's reason. */
export class MalformedBodyError extends GridError {
  constructor(status: 400 | 408, reason: string) { super(status, 'MALFORMED_BODY', reason); }
}

/** A `Content-Encoding` other than gzip, deflate or identity (docs/reference/http.md#compression). */
export class UnsupportedContentEncodingError extends GridError {
  constructor(coding: string) {
    super(415, 'UNSUPPORTED_CONTENT_ENCODING', `Content-Encoding '${coding}' is not supported: send gzip, deflate or identity`);
  }
}

/** A gzip or deflate request body that does not inflate. */
export class CorruptContentEncodingError extends GridError {
  constructor(coding: string, reason: string) {
    super(400, 'CORRUPT_CONTENT_ENCODING', `The request body is not valid ${coding} data (Content-Encoding: ${coding}): ${reason}`);
  }
}

/** A request body that ended before the length it announced (the client went away or broke the chunking). */
export class IncompleteBodyError extends GridError {
  constructor() { super(400, 'INCOMPLETE_BODY', 'The request body ended before its end'); }
}

/** A path segment with a `%` that starts no escape (`%zz`, `100%`). */
export class MalformedPathError extends GridError {
  constructor(segment: string) { super(400, 'MALFORMED_PATH', `Malformed path segment '${segment}'`); }
}

/** An `If-Modified-Since` / `If-Unmodified-Since` that is not a date (docs/reference/data-plane.md#conditional-reads). */
export class WrongDateFormatError extends GridError {
  constructor(text: string) { super(400, 'WRONG_DATE_FORMAT', `Could not parse date '${text}'`); }
}

/** Anything that is not a GridError: a bug, logged with its stack; the client learns nothing of it. */
export class InternalServerError extends GridError {
  constructor() { super(500, 'INTERNAL', 'Internal server error'); }
}

export class MissingArgumentError extends GridError {
  constructor(name: string) { super(400, 'MISSING_ARGUMENT', `ISPN012040: Missing required argument '${name}'`); }
}

export class IllegalArgumentValueError extends GridError {
  constructor(name: string, value: string) {
    super(400, 'ILLEGAL_ARGUMENT', `ISPN012023: Argument '${name}' has illegal value '${value}'`);
  }
}

export class MethodRequiresContentError extends GridError {
  constructor() { super(400, 'NO_CONTENT', 'ISPN012031: Method requires content'); }
}

export class WrongMediaTypeError extends GridError {
  // The original passes its arguments the other way round, so the text names the expected type
  // first (CacheResourceV2.compare); kept as the original writes it.
  constructor(expected: string, actual: string) {
    super(400, 'WRONG_MEDIA_TYPE', `ISPN012032: Wrong media type '${expected}'. Expecting '${actual}'`);
  }
}

export class WrongCompareContentError extends GridError {
  constructor() { super(400, 'WRONG_COMPARE_CONTENT', 'ISPN012033: Wrong content: expecting multipart/form-data with two parts'); }
}

export class WrongMethodError extends GridError {
  constructor(method: string) { super(400, 'WRONG_METHOD', `ISPN012034: Wrong method '${method}'`); }
}

/** 415; the message, when given, names the types the resource takes. */
export class UnsupportedMediaTypeError extends GridError {
  constructor(message = '') { super(415, 'UNSUPPORTED_MEDIA_TYPE', message); }
}

/** `/rest/v3/…` (the original's 16.x API): not served, and not read as the v1 path of a cache named `v3`. */
export class ApiVersionNotServedError extends GridError {
  constructor(version: string) {
    super(404, 'API_VERSION_NOT_SERVED', `REST API ${version} is not served by grid: use /rest/v2/… (or the v1 paths /rest/{cacheName}/{cacheKey})`);
  }
}

export class NotAcceptableError extends GridError {
  constructor(accept: string | undefined) {
    super(406, 'NOT_ACCEPTABLE', accept === undefined ? 'Data format not supported' : `ISPN012007: Cannot convert to ${accept}`);
  }
}

export class ServiceUnavailableError extends GridError {
  constructor(message: string) { super(503, 'SERVICE_UNAVAILABLE', message); }
}

export class NotImplementedError extends GridError {
  constructor(what: string) { super(501, 'NOT_IMPLEMENTED', `${what} is not implemented by this server yet`); }
}

/** `GET /server/report/{node}` for a node that is not a member (docs/reference/management-plane.md#server-runtime): 404, no body. */
export class NodeNotFoundError extends GridError {
  constructor() { super(404, 'NODE_NOT_FOUND', ''); }
}

/** `/console/…` on a server started without `--console` (docs/reference/management-plane.md#console). */
export class ConsoleNotEnabledError extends GridError {
  constructor() {
    super(404, 'CONSOLE_NOT_ENABLED',
      "The web console is not enabled on this server. Start grid with --console DIR (or 'console: DIR' in the configuration file), DIR holding a built Infinispan web console; see docs/console.md.");
  }
}

/** A static file that is not there (or may not be served): 404 with no body, as the original. */
export class StaticFileNotFoundError extends GridError {
  constructor() { super(404, 'FILE_NOT_FOUND', ''); }
}

/** A request asks for more than a configured limit allows (docs/security.md "Limits"). */
export class LimitExceededError extends GridError {
  constructor(message: string) { super(400, 'LIMIT_EXCEEDED', message); }
}

/** Over a per-user quota: the client may retry once it closes something (429, with the reason). */
export class TooManyForUserError extends GridError {
  constructor(what: string, user: string, limit: number, name: string) {
    super(429, 'TOO_MANY_FOR_USER', `Too many ${what} for user '${user}' (at most ${limit}, limit ${name})`, { Connection: 'close' });
  }
}

/** One client address (an IPv6 client's /64) holds as many connections as it may (429, with the reason). */
export class TooManyFromAddressError extends GridError {
  constructor(what: string, limit: number, name: string) {
    super(429, 'TOO_MANY_FROM_ADDRESS', `Too many open ${what} from this address (at most ${limit}, limit ${name}); retry later`, { Connection: 'close' });
  }
}

/** Over a server-wide cap (503, with the reason). */
export class TooManyOpenError extends GridError {
  constructor(what: string, limit: number, name: string) {
    super(503, 'TOO_MANY_OPEN', `Too many open ${what} on this server (at most ${limit}, limit ${name}); retry later`, { Connection: 'close' });
  }
}

/** Request bodies being received already hold the server's budget for them (503: retry once they are in). */
export class BodyMemoryFullError extends GridError {
  constructor(limit: number) {
    super(503, 'BODY_MEMORY_FULL', `Request bodies being received hold ${limit} bytes already (limit request-body-memory); retry later`, { 'Retry-After': '1' });
  }
}

/** An empty name, or one with a control character or a lone surrogate (src/model/resource-name.ts). */
export class InvalidNameError extends GridError {
  constructor(kind: string, name: string) {
    super(400, 'INVALID_NAME', `Invalid ${kind} name ${JSON.stringify(name)}: a name is not empty, has no control characters (NUL, CR, LF…) and is well-formed Unicode`);
  }
}

import { excerpt } from './client-text';
import { defineError } from './define-error';

/** Routing and request-shape errors (docs/reference/http.md#routing, docs/reference/errors.md#status-mapping). */
export class ResourceNotFoundError extends defineError({ code: 'RESOURCE_NOT_FOUND', status: 404, text: () => 'Resource not found' }) {}

export class MethodNotAllowedError extends defineError({ code: 'METHOD_NOT_ALLOWED', status: 405, text: () => 'Not allowed' }) {}

export class InvalidActionError extends defineError({
  code: 'INVALID_ACTION', status: 400,
  text: (empty: boolean) => empty ? 'Invalid action' : "Invalid 'action' parameter supplied",
  summary: "`Invalid 'action' parameter supplied`; `Invalid action` for an empty `action`",
}) {}

export class ForbiddenMethodError extends defineError({ code: 'FORBIDDEN_METHOD', status: 403, text: () => 'Unknown HTTP method' }) {}

/** A request body Node's HTTP parser refused part-way (a broken chunk) or that did not arrive in time: the request is answered with the parser's reason. */
export class MalformedBodyError extends defineError({
  code: 'MALFORMED_BODY', status: [400, 408],
  text: (_status: 400 | 408, reason: string) => reason,
  summary: "the parser's reason (`Invalid Transfer-Encoding or chunk`…); 408 `The request was not received in time`",
}) {}

/** A `Content-Encoding` other than gzip, deflate or identity (docs/reference/http.md#compression). */
export class UnsupportedContentEncodingError extends defineError({
  code: 'UNSUPPORTED_CONTENT_ENCODING', status: 415,
  text: (coding: string) => `Content-Encoding '${coding}' is not supported: send gzip, deflate or identity`,
}) {}

/** A gzip or deflate request body that does not inflate. */
export class CorruptContentEncodingError extends defineError({
  code: 'CORRUPT_CONTENT_ENCODING', status: 400,
  text: (coding: string, reason: string) => `The request body is not valid ${coding} data (Content-Encoding: ${coding}): ${reason}`,
}) {}

/** A request body that ended before the length it announced (the client went away or broke the chunking). */
export class IncompleteBodyError extends defineError({
  code: 'INCOMPLETE_BODY', status: 400, text: () => 'The request body ended before its end',
}) {}

/** A path segment with a `%` that starts no escape (`%zz`, `100%`). */
export class MalformedPathError extends defineError({
  code: 'MALFORMED_PATH', status: 400,
  text: (segment: string) => `Malformed path segment '${segment}'`,
}) {}

/** An `If-Modified-Since` / `If-Unmodified-Since` that is not a date (docs/reference/data-plane.md#conditional-reads). */
export class WrongDateFormatError extends defineError({
  code: 'WRONG_DATE_FORMAT', status: 400,
  text: (text: string) => `Could not parse date '${text}'`,
}) {}

export class MissingArgumentError extends defineError({
  code: 'MISSING_ARGUMENT', status: 400, ispn: 'ISPN012040',
  text: (name: string) => `Missing required argument '${name}'`,
}) {}

export class IllegalArgumentValueError extends defineError({
  code: 'ILLEGAL_ARGUMENT', status: 400, ispn: 'ISPN012023',
  text: (name: string, value: string) => `Argument '${name}' has illegal value '${value}'`,
}) {}

export class MethodRequiresContentError extends defineError({
  code: 'NO_CONTENT', status: 400, ispn: 'ISPN012031', text: () => 'Method requires content',
}) {}

export class WrongMediaTypeError extends defineError({
  code: 'WRONG_MEDIA_TYPE', status: 400, ispn: 'ISPN012032',
  // The original passes its arguments the other way round, so the text names the expected type
  // first (CacheResourceV2.compare); kept as the original writes it.
  text: (expected: string, actual: string) => `Wrong media type '${expected}'. Expecting '${actual}'`,
}) {}

export class WrongCompareContentError extends defineError({
  code: 'WRONG_COMPARE_CONTENT', status: 400, ispn: 'ISPN012033',
  text: () => 'Wrong content: expecting multipart/form-data with two parts',
}) {}

export class WrongMethodError extends defineError({
  code: 'WRONG_METHOD', status: 400, ispn: 'ISPN012034',
  text: (method: string) => `Wrong method '${method}'`,
}) {}

/** 415; the message, when given, names the types the resource takes. */
export class UnsupportedMediaTypeError extends defineError({
  code: 'UNSUPPORTED_MEDIA_TYPE', status: 415,
  text: (message?: string) => message ?? '',
  summary: "the types the resource takes (a cache definition's), or no body (the original's) where grid adds `Unsupported media type`",
}) {}

/** `/rest/v3/…` (the original's 16.x API): not served, and not read as the v1 path of a cache named `v3`. */
export class ApiVersionNotServedError extends defineError({
  code: 'API_VERSION_NOT_SERVED', status: 404,
  text: (version: string) => `REST API ${version} is not served by grid: use /rest/v2/… (or the v1 paths /rest/{cacheName}/{cacheKey})`,
}) {}

export class NotAcceptableError extends defineError({
  code: 'NOT_ACCEPTABLE', status: 406,
  // one text carries the original's id and the other not, so the id is part of the text here
  text: (accept: string | undefined) => accept === undefined ? 'Data format not supported' : `ISPN012007: Cannot convert to ${accept}`,
  summary: '`ISPN012007: Cannot convert to …` (the `Accept` header); `Data format not supported` when `Accept` does not parse',
}) {}

export class NotImplementedError extends defineError({
  code: 'NOT_IMPLEMENTED', status: 501,
  text: (what: string) => `${what} is not implemented by this server yet`,
}) {}

/** `GET /server/report/{node}` for a node that is not a member (docs/reference/management-plane.md#server-runtime): 404, no body. */
export class NodeNotFoundError extends defineError({ code: 'NODE_NOT_FOUND', status: 404 }) {}

/**
 * `cluster?action=stop&server=…` naming a node that is not live (docs/reference/management-plane.md#cluster):
 * nothing is stopped. `names`: the unknown names, quoted and joined with `or`. (The original skips such names and answers 204.)
 */
export class UnknownNodeError extends defineError({
  code: 'UNKNOWN_NODE', status: 404,
  text: (names: string) => `No live node of this cluster is named ${names} (GET /rest/v2/cluster/members lists the live nodes)`,
}) {}

/** `/console/…` on a server started without `--console` (docs/reference/management-plane.md#console). */
export class ConsoleNotEnabledError extends defineError({
  code: 'CONSOLE_NOT_ENABLED', status: 404,
  text: () => "The web console is not enabled on this server. Start grid with --console DIR (or 'console: DIR' in the configuration file), DIR holding a built Infinispan web console; see docs/console.md.",
}) {}

/** A static file that is not there (or may not be served): 404 with no body, as the original. */
export class StaticFileNotFoundError extends defineError({ code: 'FILE_NOT_FOUND', status: 404 }) {}

/** An empty name, or one with a control character or a lone surrogate (src/model/resource-name.ts). */
export class InvalidNameError extends defineError({
  code: 'INVALID_NAME', status: 400,
  text: (kind: string, name: string) =>
    `Invalid ${kind} name ${JSON.stringify(name)}: a name is not empty, has no control characters (NUL, CR, LF…) and is well-formed Unicode`,
}) {}

/** Anything that is not a GridError: a bug, logged with its stack; the client learns nothing of it. */
export class InternalServerError extends defineError({ code: 'INTERNAL', status: 500, text: () => 'Internal server error' }) {}

/** A `Last-Event-ID` header (or `lastEventId` parameter) that is no event id (docs/reference/management-plane.md#config-events). */
export class InvalidLastEventIdError extends defineError({
  code: 'INVALID_LAST_EVENT_ID', status: 400,
  text: (name: string, id: string) =>
    `${name} '${excerpt(id)}' is not an event id (such as '42'): send the id of the last event received, or none to start afresh`,
  summary: "`Last-Event-ID '…' is not an event id (such as '42'): send the id of the last event received, or none to start afresh`; `lastEventId '…' …` for the parameter",
}) {}

import { defineError } from './define-error';

/** Refusals for a cost past a bound (docs/security.md "Limits"); each names the limit to raise. */

/** 413; the HTTP layer closes the connection after it (docs/reference/http.md#limits). */
export class PayloadTooLargeError extends defineError({
  code: 'PAYLOAD_TOO_LARGE', status: 413,
  text: (limit?: number) => limit === undefined ? 'Request body too large' : `Request body larger than ${limit} bytes`,
  summary: '`Request body larger than … bytes`, or `Request body too large`',
}) {}

/** A request asks for more than a configured limit allows. */
export class LimitExceededError extends defineError({
  code: 'LIMIT_EXCEEDED', status: 400,
  text: (message: string) => message,
  summary: 'what is past which limit: `… (limit schema-bytes)`',
}) {}

/** Over a per-user quota: the client may retry once it closes something (429, with the reason). */
export class TooManyForUserError extends defineError({
  code: 'TOO_MANY_FOR_USER', status: 429,
  text: (what: string, user: string, limit: number, name: string) => `Too many ${what} for user '${user}' (at most ${limit}, limit ${name})`,
  headers: () => ({ Connection: 'close' }),
}) {}

/** One client address (an IPv6 client's /64) holds as many connections as it may (429, with the reason). */
export class TooManyFromAddressError extends defineError({
  code: 'TOO_MANY_FROM_ADDRESS', status: 429,
  text: (what: string, limit: number, name: string) => `Too many open ${what} from this address (at most ${limit}, limit ${name}); retry later`,
  headers: () => ({ Connection: 'close' }),
}) {}

/** Over a server-wide cap (503, with the reason). */
export class TooManyOpenError extends defineError({
  code: 'TOO_MANY_OPEN', status: 503,
  text: (what: string, limit: number, name: string) => `Too many open ${what} on this server (at most ${limit}, limit ${name}); retry later`,
  headers: () => ({ Connection: 'close' }),
}) {}

/** Request bodies being received already hold the server's budget for them (503: retry once they are in). */
export class BodyMemoryFullError extends defineError({
  code: 'BODY_MEMORY_FULL', status: 503,
  text: (limit: number) => `Request bodies being received hold ${limit} bytes already (limit request-body-memory); retry later`,
  headers: () => ({ 'Retry-After': '1' }),
}) {}

/** The server cannot take the request now: stopping, or its off-loop workers are all busy (docs/reference/http.md#service-unavailable). */
export class ServiceUnavailableError extends defineError({
  code: 'SERVICE_UNAVAILABLE', status: 503,
  text: (message: string) => message,
  summary: '`Unable to process REST request when Server is STOPPING`, `The server is shutting down`, `The server is busy: …; retry later`…',
}) {}

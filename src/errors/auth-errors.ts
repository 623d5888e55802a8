import { defineError } from './define-error';

/** Why a 401 is answered, in its short body (the original sends none; `curl -s` users see this). */
const UNAUTHORIZED_TEXTS = {
  'no-credentials': 'Authentication required: send the user name and password of a grid user (WWW-Authenticate lists the mechanisms)',
  'wrong-credentials': 'Wrong user name or password',
  'stale-nonce': 'Stale nonce: repeat the request with the nonce of WWW-Authenticate',
} as const;

/** 401 with one challenge per enabled mechanism (docs/security.md) and a short body saying why. */
export class UnauthorizedError extends defineError({
  code: 'UNAUTHORIZED', status: 401,
  text: (_challenges: string[], why: keyof typeof UNAUTHORIZED_TEXTS) => UNAUTHORIZED_TEXTS[why],
  headers: (challenges) => ({ 'WWW-Authenticate': challenges }),
  summary: Object.values(UNAUTHORIZED_TEXTS).map((t) => `\`${t}\``).join(' or '),
}) {}

export class UnsupportedAuthMechanismError extends defineError({
  code: 'UNSUPPORTED_AUTH_MECHANISM', status: 403, ispn: 'ISPN080052',
  text: (scheme: string) => `The request authentication mechanism '${scheme}' is not supported`,
}) {}

export class MalformedAuthHeaderError extends defineError({ code: 'MALFORMED_AUTH_HEADER', status: 400 }) {}

/** 403 `ISPN000287` (docs/reference/http.md#authorization). */
export class PermissionDeniedError extends defineError({
  code: 'PERMISSION_DENIED', status: 403, ispn: 'ISPN000287',
  text: (principal: string, permission: string) =>
    `Unauthorized access: subject 'Subject with principal(s): [${principal}]' lacks '${permission}' permission`,
}) {}

/** 429: failed logins from this address or for this user; verifications wait (docs/security.md). */
export class TooManyFailedLoginsError extends defineError({
  code: 'TOO_MANY_FAILED_LOGINS', status: 429,
  text: (retryAfterSeconds: number) => `Too many failed logins from this address or for this user; try again in ${retryAfterSeconds} s`,
  headers: (retryAfterSeconds) => ({ 'Retry-After': String(retryAfterSeconds) }),
}) {}

/** 429: more password verifications are waiting than the server queues (docs/security.md). */
export class LoginQueueFullError extends defineError({
  code: 'LOGIN_QUEUE_FULL', status: 429,
  text: () => 'Too many logins are being verified at once; try again in 1 s',
  headers: () => ({ 'Retry-After': '1' }),
}) {}

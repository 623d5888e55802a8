import { GridError } from './grid-error';

/** Why a 401 is answered, in its short body (the original sends none; `curl -s` users see this). */
const UNAUTHORIZED_TEXTS = {
  'no-credentials': 'Authentication required: send the user name and password of a grid user (WWW-Authenticate lists the mechanisms)',
  'wrong-credentials': 'Wrong user name or password',
  'stale-nonce': 'Stale nonce: repeat the request with the nonce of WWW-Authenticate',
} as const;

/** 401 with one challenge per enabled mechanism (docs/security.md) and a short body saying why. */
export class UnauthorizedError extends GridError {
  constructor(challenges: string[], why: keyof typeof UNAUTHORIZED_TEXTS) {
    super(401, 'UNAUTHORIZED', UNAUTHORIZED_TEXTS[why], { 'WWW-Authenticate': challenges });
  }
}

export class UnsupportedAuthMechanismError extends GridError {
  constructor(scheme: string) {
    super(403, 'UNSUPPORTED_AUTH_MECHANISM', `ISPN080052: The request authentication mechanism '${scheme}' is not supported`);
  }
}

export class MalformedAuthHeaderError extends GridError {
  constructor() { super(400, 'MALFORMED_AUTH_HEADER', ''); }
}

/** 403 `ISPN000287` (docs/reference/http.md#authorization). */
export class PermissionDeniedError extends GridError {
  constructor(principal: string, permission: string) {
    super(403, 'PERMISSION_DENIED',
      `ISPN000287: Unauthorized access: subject 'Subject with principal(s): [${principal}]' lacks '${permission}' permission`);
  }
}

/** 429: failed logins from this address or for this user; verifications wait (docs/security.md). */
export class TooManyFailedLoginsError extends GridError {
  constructor(retryAfterSeconds: number) {
    super(429, 'TOO_MANY_FAILED_LOGINS',
      `Too many failed logins from this address or for this user; try again in ${retryAfterSeconds} s`,
      { 'Retry-After': String(retryAfterSeconds) });
  }
}

/** 429: more password verifications are waiting than the server queues (docs/security.md). */
export class LoginQueueFullError extends GridError {
  constructor() {
    super(429, 'LOGIN_QUEUE_FULL', 'Too many logins are being verified at once; try again in 1 s', { 'Retry-After': '1' });
  }
}

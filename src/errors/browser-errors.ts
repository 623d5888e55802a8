import { excerpt } from './client-text';
import { defineError } from './define-error';

/**
 * An `Origin` that no CORS rule allows and that is not this server's own (docs/reference/http.md#cors). The
 * original answers an empty 403; the reason tells a developer which setting to change.
 */
export class CorsOriginRefusedError extends defineError({
  code: 'CORS_ORIGIN_REFUSED', status: 403,
  text: (origin: string) =>
    `Origin '${excerpt(origin)}' is not allowed: no CORS rule matches it (see cors-rules and grid.server.rest.cors-allow)`,
}) {}

/**
 * A request from an origin a CORS rule matches, but that the rule does not allow: a method outside
 * its `allowed-methods`, or credentials the browser attached by itself when the rule has no
 * `allow-credentials`. Browsers check both only in a preflight, which simple requests (a form POST,
 * `fetch` in `no-cors` mode) skip, so the server has to refuse them itself.
 */
export class CorsRequestRefusedError extends defineError({
  code: 'CORS_REQUEST_REFUSED', status: 403,
  text: (origin: string, rule: string, what: string) => `Origin '${excerpt(origin)}' may not ${what}: CORS rule '${excerpt(rule)}' does not allow it`,
}) {}

/** A `Host` the server does not answer to (DNS rebinding protection, docs/security.md#browsers). */
export class HostNotAllowedError extends defineError({
  code: 'HOST_NOT_ALLOWED', status: 403,
  text: (host: string) =>
    `Host '${excerpt(host)}' is not allowed: add it to allowed-hosts (or grid.server.rest.allowed-hosts) to reach this server by that name`,
}) {}

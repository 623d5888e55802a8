import cors from '@koa/cors';
import type Koa from 'koa';
import { CorsOriginRefusedError, CorsRequestRefusedError } from '../errors';

/** A CORS rule as configured (docs/reference/http.md#cors; the same shape as the config file's `cors-rule`). */
export interface CorsRule {
  name: string;
  allowCredentials: boolean;
  /** Origins as browsers send them, or `*` for all. */
  allowedOrigins: readonly string[];
  allowedMethods: readonly string[];
  allowedHeaders: readonly string[];
  maxAgeSeconds?: number;
  exposeHeaders: readonly string[];
}

export interface CorsSettings {
  /** Origins of the `grid.server.rest.cors-allow` property: everything allowed, checked first. */
  allowAll?: readonly string[];
  /** Configured rules, checked after the built-in localhost rules. */
  rules?: readonly CorsRule[];
}

/** Every request header the server reads (the original's RequestHeader list, docs/reference/http.md#cors). */
export const REQUEST_HEADER_NAMES = [
  'Accept', 'Authorization', 'Cache-Control', 'Content-encoding', 'Content-Type', 'created', 'extended', 'flags',
  'If-Modified-Since', 'If-None-Match', 'If-UnModified-Since', 'key-content-type', 'lastUsed', 'maxIdleTimeSeconds',
  'timeToLiveSeconds', 'User-Agent',
];

/** Every response header the server writes (the original's ResponseHeader list, docs/reference/http.md#cors). */
export const RESPONSE_HEADER_NAMES = [
  'Cache-Control', 'Cluster-Primary-Owner', 'Cluster-Backup-Owners', 'Cluster-Node-Name', 'Cluster-Server-Address',
  'Content-Length', 'Content-Type', 'created', 'Date', 'Etag', 'Expires', 'key-content-type', 'Last-Modified', 'lastUsed',
  'location', 'maxIdleTimeSeconds', 'timeToLiveSeconds', 'Transfer-Encoding', 'value-content-type', 'WWW-Authenticate',
];

/** The original's "enable all" rule (CorsUtil): credentials, every method, every header the server knows. */
function allowEverything(name: string, origins: readonly string[]): CorsRule {
  return {
    name, allowCredentials: true, allowedOrigins: origins, allowedMethods: ['GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'OPTIONS'],
    allowedHeaders: REQUEST_HEADER_NAMES, exposeHeaders: RESPONSE_HEADER_NAMES,
  };
}

const SAFE_METHODS = new Set(['GET', 'HEAD']);

/** `http|https` × `127.0.0.1|localhost|[::1]` × a port; the port is checked apart (the REST port is known per request). */
const LOCALHOST_ORIGIN = /^https?:\/\/(?:127\.0\.0\.1|localhost|\[::1\]):(\d+)$/;
/** The original's console development port, allowed beside the REST port. */
const CONSOLE_DEV_PORT = 9000;

interface CompiledRule {
  name: string;
  matches(origin: string, localPort: number | undefined): boolean;
  /** @koa/cors configured for the rule: writes the headers and answers the preflight. */
  apply: Koa.Middleware;
  /** Without configured allowed-headers the preflight allows none beyond the CORS-safelisted ones. */
  hasAllowedHeaders: boolean;
  /** Why the rule refuses this actual request, or undefined when it allows it. */
  refusal(ctx: Koa.Context): string | undefined;
}

function compile(rule: CorsRule, matches?: CompiledRule['matches']): CompiledRule {
  const any = rule.allowedOrigins.includes('*');
  const listed = new Set(rule.allowedOrigins);
  const methods = new Set(rule.allowedMethods.map((m) => m.toUpperCase()));
  if (methods.has('GET')) methods.add('HEAD');
  // A page can set Authorization itself only when the preflight allowed the header; without that,
  // an Authorization on a request from this origin is the browser's own cached credentials.
  const pageMaySendAuthorization = rule.allowedHeaders.some((h) => h.toLowerCase() === 'authorization');
  return {
    name: rule.name,
    matches: matches ?? ((origin) => any || listed.has(origin)),
    apply: cors({
      // `*` only for an any-origin rule without credentials; otherwise the request's origin is echoed.
      origin: any && !rule.allowCredentials ? '*' : (ctx) => ctx.get('Origin'),
      credentials: rule.allowCredentials,
      allowMethods: [...rule.allowedMethods],
      allowHeaders: rule.allowedHeaders.length ? [...rule.allowedHeaders] : undefined,
      exposeHeaders: rule.exposeHeaders.length ? [...rule.exposeHeaders] : undefined,
      maxAge: rule.maxAgeSeconds,
      keepHeadersOnError: true,
      // The rule allows this origin; let Chrome's Private Network Access preflight to a local server pass too.
      privateNetworkAccess: true,
    }),
    hasAllowedHeaders: rule.allowedHeaders.length > 0,
    refusal: (ctx) => {
      if (!methods.has(ctx.method)) return `send ${ctx.method} requests`;
      // GET and HEAD change nothing, and the browser hides their answer from the page anyway
      if (!rule.allowCredentials && !pageMaySendAuthorization && !SAFE_METHODS.has(ctx.method) && ctx.get('Authorization')) {
        return `send ${ctx.method} requests with the browser's credentials`;
      }
      return undefined;
    },
  };
}

/** The rules in the original's order (docs/reference/http.md#cors): cors-allow, localhost, configured. */
function compileAll(settings: CorsSettings): CompiledRule[] {
  const rules: CompiledRule[] = [];
  if (settings.allowAll?.length) rules.push(compile(allowEverything('cors-allow', settings.allowAll)));
  rules.push(compile(allowEverything('localhost', []), (origin, localPort) => {
    const port = LOCALHOST_ORIGIN.exec(origin)?.[1];
    return port !== undefined && (Number(port) === localPort || Number(port) === CONSOLE_DEV_PORT);
  }));
  for (const rule of settings.rules ?? []) rules.push(compile(rule));
  return rules;
}

/**
 * CORS, before routing and authentication (docs/reference/http.md#cors). Requests without
 * `Origin` pass untouched. Otherwise the first rule whose origins match applies: a preflight
 * (OPTIONS + Origin + Access-Control-Request-Method) is answered here, 200 with an empty body,
 * with the rule's headers (none when no rule matched); an actual request gets the allow-origin,
 * `Vary: Origin`, credentials and exposed headers, unless it uses a method outside the rule's
 * `allowed-methods` or carries credentials a rule without `allow-credentials` never let the page
 * send (403: browsers enforce both only in preflights, which simple requests skip). An origin no
 * rule allows and that is not the server's own is refused with 403 before any handler runs,
 * whatever the method.
 */
export function corsRules(settings: CorsSettings = {}): (ctx: Koa.Context, next: () => Promise<void> | void) => Promise<void> | void {
  const rules = compileAll(settings);
  // a request without Origin goes straight on: no promise of its own when `next` needs none
  return function applyCors(ctx, next) {
    const origin = ctx.req.headers.origin;
    if (origin === undefined) return next();
    const localPort = ctx.req.socket.localPort;
    const rule = rules.find((r) => r.matches(origin, localPort));
    if (ctx.method === 'OPTIONS' && ctx.get('Access-Control-Request-Method')) return answerPreflight(ctx, rule);
    if (rule) {
      const refusal = rule.refusal(ctx);
      if (refusal !== undefined) throw new CorsRequestRefusedError(origin, rule.name, refusal);
      return rule.apply(ctx, async () => next());
    }
    if (origin === `${ctx.protocol}://${ctx.host}`) return next();
    throw new CorsOriginRefusedError(origin);
  };
}

async function answerPreflight(ctx: Koa.Context, rule: CompiledRule | undefined): Promise<void> {
  if (rule) {
    await rule.apply(ctx, async () => undefined);
    if (!rule.hasAllowedHeaders) ctx.remove('Access-Control-Allow-Headers'); // @koa/cors would echo the requested ones
  }
  ctx.status = 200;
  ctx.body = '';
  ctx.remove('Content-Type');
}

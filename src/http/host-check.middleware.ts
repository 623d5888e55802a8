import type Koa from 'koa';
import { isIP } from 'node:net';
import { HostNotAllowedError } from '../errors';

/**
 * Refuses a request whose `Host` names this server by a name it does not answer to: a page of
 * attacker.example whose name was re-pointed at 127.0.0.1 (DNS rebinding) is then the same origin
 * as the server in the browser's eyes, so CORS alone cannot stop it; its `Host` still says
 * attacker.example. Accepted: `localhost` and `*.localhost`, IP addresses (a literal address cannot
 * be rebound), the configured names (`.example.com` also accepts its sub-domains). The port is not
 * compared, so port forwarding keeps working. A request without Host (HTTP/1.0) is not a browser's.
 * The check throws HostNotAllowedError (403) and returns nothing otherwise.
 */
export function hostCheck(allowed: readonly string[]): (ctx: Koa.Context) => void {
  const names = new Set(allowed.filter((n) => !n.startsWith('.')));
  const suffixes = allowed.filter((n) => n.startsWith('.'));
  const isAllowed = (name: string): boolean => names.has(name) || name === 'localhost' || name.endsWith('.localhost')
    || isIP(name.replace(/^\[(.*)\]$/, '$1')) !== 0 || suffixes.some((s) => name.endsWith(s));
  // most requests repeat the same header: one comparison then (ctx.host, which the other cases
  // read, is a function of that header alone: the app trusts no proxy header)
  let lastAccepted: string | undefined;
  return function checkHost(ctx) {
    const raw = (ctx.req.httpVersionMajor >= 2 && ctx.req.headers[':authority']) || ctx.req.headers.host;
    if (raw !== undefined && raw === lastAccepted) return;
    const host = ctx.host;
    if (host === '') return;
    if (!isAllowed(hostName(host))) throw new HostNotAllowedError(host);
    lastAccepted = raw as string | undefined;
  };
}

/** `name:port` → `name`, lower case; `[v6]:port` → `[v6]`. */
function hostName(host: string): string {
  const end = host.startsWith('[') ? host.indexOf(']') + 1 : host.lastIndexOf(':');
  return (end > 0 ? host.slice(0, end) : host).toLowerCase().replace(/\.$/, '');
}

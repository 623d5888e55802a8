import { isIP } from 'node:net';
import { ConfigError } from './server-config-error';

/** `-Dgrid.server.rest.allowed-hosts=h1,h2`: more host names the server answers to (beside the file's `allowed-hosts`). */
export const ALLOWED_HOSTS_PROPERTY = 'grid.server.rest.allowed-hosts';

/** A host name, a `.suffix` (that domain's sub-domains), an IPv4 address, a bracketed IPv6 address, or `*`. */
const HOST_ENTRY = /^(?:\*|\.?[a-z0-9_](?:[a-z0-9_.-]*[a-z0-9_])?|\[[0-9a-f:.]+\])$/i;

/** True for an address that only this machine can reach: `localhost`, 127.0.0.0/8, `::1`. */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1'
    || (isIP(h) === 4 && h.startsWith('127.')) || /^::ffff:127\.\d+\.\d+\.\d+$/.test(h);
}

/** `allowed-hosts`: a comma-separated string or a list; host names without scheme, port or path. */
export function readAllowedHosts(value: unknown, what: string): string[] {
  const parts = Array.isArray(value) ? value.map(String) : typeof value === 'object' && value !== null ? undefined : String(value ?? '').split(',');
  if (!parts) throw new ConfigError(`${what}: expected a comma-separated list of host names`);
  const names = parts.map((s) => s.trim().toLowerCase()).filter((s) => s !== '');
  const bad = names.find((n) => !HOST_ENTRY.test(n));
  if (bad !== undefined) {
    throw new ConfigError(`${what}: '${bad}' is not a host name (write it without scheme, port or path, e.g. grid.example.com or .example.com)`);
  }
  return names;
}

/**
 * The host names the Host check accepts, or undefined when there is no check: it is on when the
 * server listens on a loopback address (DNS rebinding is the attack on local servers) or when
 * names are configured, and off with `*`. The name given to `--host` is accepted; so are
 * `localhost`, `*.localhost` and IP addresses (checked by the middleware: a literal address cannot
 * be rebound, the browser really connected to it).
 */
export function hostCheckNames(bindHost: string, configured: readonly string[]): string[] | undefined {
  if (configured.includes('*')) return undefined;
  if (configured.length === 0 && !isLoopbackHost(bindHost)) return undefined;
  const bind = bindHost.toLowerCase();
  return isIP(bind) !== 0 || configured.includes(bind) ? [...configured] : [...configured, bind]; // the name it listens on
}

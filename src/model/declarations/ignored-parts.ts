import { own } from '../cache-config/config-limits';
import type { IgnoredPart } from './declarations';

/**
 * Why grid leaves a part of the original's configuration aside, by element name. Anything not
 * listed is reported as not implemented: never applied silently, never fatal.
 */
const REASONS: Readonly<Record<string, string>> = {
  jgroups: 'grid runs as one node: there is no cluster transport',
  transport: 'grid runs as one node: there is no cluster transport',
  threads: 'grid has no thread pools to configure',
  interfaces: 'grid listens on the address of --host (host in grid\'s configuration)',
  'socket-bindings': 'grid listens on the ports of --port and --tls-port',
  'security-realms': 'users are managed with `grid user` and stored in the data directory',
  'credential-stores': 'grid keeps its secrets in the data directory (credentials.key)',
  endpoints: 'grid serves the REST API on its own port; no Hot Rod, Memcached or RESP',
  'data-sources': 'grid stores everything in its own SQLite database',
  metrics: 'grid always serves /metrics',
  jmx: 'grid has no JMX',
  'global-state': 'grid keeps its state in the data directory',
  serialization: 'grid reads and writes values by their media type',
  tracing: 'grid has no OpenTelemetry tracing',
  'default-cache': 'grid has no default cache',
  'identity-role-mapper': 'grid maps groups to roles of the same name, and principals as granted through the REST API',
  'cluster-role-mapper': 'grid maps groups to roles of the same name, and principals as granted through the REST API',
  'num-owners': 'grid runs as one node: counters have no owners',
  reliability: 'grid runs as one node: counters are always available',
};

export function ignoredPart(source: string, path: readonly string[]): IgnoredPart {
  const name = path[path.length - 1];
  return { source, element: path.join('.'), reason: own(REASONS, name) ?? 'not implemented by grid' };
}

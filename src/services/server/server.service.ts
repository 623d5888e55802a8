import { hostname } from 'node:os';
import type { NodeInfo } from './node-info';
import type { ClusterView } from '../cluster.service';
import { Listeners } from '../../util/listeners';
import { RuntimeInfo } from './runtime-info';
import type { Report } from './server-report';
import { lazy } from '../../util/lazy';

/** The report is asked for rarely: its module loads on first use. */
const reports = lazy(() => require('./server-report') as typeof import('./server-report'));

export interface ServerSettings {
  host: string;
  authEnabled: boolean;
  /** The original's names of the HTTP mechanisms offered (`DIGEST`, `DIGEST-SHA-256`, `BASIC`). */
  mechanisms: string[];
  maxContentLength: number;
  dataDir: string;
  durability: string;
  /** The TLS listener's certificate (file names only, never a password). */
  tls?: { certificate: string };
}

/** The server resource (docs/reference/management-plane.md#server). */
export class ServerService {
  readonly runtime = new RuntimeInfo();
  /** Told when the server starts closing, so long-lived streams end instead of holding shutdown up. */
  private readonly closing = new Listeners<void>();

  constructor(
    private readonly settings: ServerSettings,
    private readonly node: NodeInfo,
    private readonly version: string,
    /** Asks the process to stop cleanly (the CLI's SIGTERM path; tests close the server). */
    private readonly stopRequested: () => void,
  ) {}

  /** `<brand> '<codename>' <version>`, the shape of the original's version string. */
  versionString(): string {
    return `grid 'Foundation' ${this.version}`;
  }
  /** Calls `fn` when the server starts closing, until the returned function is called. */
  onClosing(fn: () => void): () => void {
    return this.closing.add(fn);
  }

  /** The server starts closing: every `onClosing` listener is told (the process's close path). */
  startClosing(): void {
    this.closing.emit();
  }

  /** The diagnostic archive of `GET /server/report`. */
  report(now: Date): Promise<Report> {
    return reports().buildReport({ nodeName: this.node.name, dataDir: this.settings.dataDir, configuration: this.configuration(), runtime: this.runtime, now });
  }

  requestStop(): void {
    this.stopRequested();
  }

  /** The configuration in force, in the shape of the original's server configuration (docs/reference/management-plane.md#server-runtime). */
  configuration(): Record<string, unknown> {
    const s = this.settings;
    const mechanisms = s.authEnabled ? s.mechanisms : [];
    return {
      server: {
        interfaces: [{ name: 'public', 'inet-address': { value: s.host } }],
        'socket-bindings': {
          'default-interface': 'public',
          'port-offset': '0',
          'socket-binding': this.listeners().map((l) => ({ name: l.binding, port: String(l.port), interface: 'public' })),
        },
        security: {
          'security-realms': [{
            name: 'default', 'sqlite-realm': { path: s.dataDir }, mechanisms,
            ...(s.tls ? { 'server-identities': { ssl: { keystore: { path: s.tls.certificate } } } } : {}),
          }],
        },
        endpoints: {
          'socket-binding': 'default',
          'security-realm': 'default',
          'rest-connector': {
            name: 'rest', 'max-content-length': String(s.maxContentLength),
            authentication: { mechanisms }, 'cors-rules': [],
          },
        },
        'data-dir': { path: s.dataDir, durability: s.durability },
      },
    };
  }

  /** `rest` on the plain port (HTTP/1.1 and h2c) and, with TLS, `rest-tls` (h2 and HTTP/1.1 by ALPN). */
  connectors(): string[] {
    return this.listeners().map((l) => l.connector);
  }

  connector(name: string): Record<string, unknown> | undefined {
    const listener = this.listeners().find((l) => l.connector === name);
    if (!listener) return undefined;
    return {
      name, 'ip-filter-rules': [], 'default-cache': null, host: this.settings.host, port: listener.port,
      'local-connections': -1, 'io-threads': 1, 'pending-tasks': 0, 'total-bytes-read': -1, 'total-bytes-written': -1,
      'send-buffer-size': -1, 'receive-buffer-size': -1, enabled: true, 'global-connections': -1,
    };
  }

  private listeners(): Array<{ connector: string; binding: string; port: number }> {
    const portOf = (address: string) => Number(address.split(':').pop());
    const plain = { connector: 'rest', binding: 'default', port: portOf(this.node.address) };
    return this.node.tlsAddress ? [plain, { connector: 'rest-tls', binding: 'default-tls', port: portOf(this.node.tlsAddress) }] : [plain];
  }

  /** `GET /server/overview-report`, over the live members (`cluster`: src/services/cluster.service.ts). */
  overview(cacheCount: number, cluster: ClusterView): Record<string, unknown> {
    return {
      version: this.versionString(),
      'product-version': this.version,
      'node-id': this.node.name,
      'coordinator-id': cluster.members[0].name,
      'cluster-size': cluster.members.length,
      sites: [],
      host: hostname(),
      'cache-features': cacheCount ? { 'no-features': cacheCount } : {},
    };
  }
}

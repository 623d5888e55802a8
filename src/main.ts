import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { browserSettingsOf } from './config/browser-settings';
import type { ServerConfig } from './config/server-config';
import { CacheManager } from './grid/cache-manager';
import { CounterManager } from './grid/counter-manager';
import { createApp } from './http/app';
import { answerClientError } from './http/client-errors';
import { generatePassword } from './model/passwords';
import { AuthService } from './services/auth.service';
import { BulkService } from './services/bulk.service';
import { BackupService } from './services/backup.service';
import { CacheService } from './services/cache.service';
import { ContainerService } from './services/container.service';
import { CounterService } from './services/counter.service';
import { EntryService } from './services/entry.service';
import { migrateLegacyKeys } from './services/key-migration';
import { LoggingService } from './services/logging.service';
import { MetricsService } from './services/metrics.service';
import { RoleRegistry } from './services/role-registry';
import { SchemaService } from './services/schema.service';
import { ServerService } from './services/server.service';
import { TaskService } from './services/task.service';
import { XSiteService } from './services/xsite.service';
import type { NodeInfo, Services } from './services';
import { UserService } from './services/user.service';
import { SqliteStore } from './store/sqlite-store';
import { type CredentialsKey, loadOrCreateCredentialsKey } from './config/credentials-key';
import { AUTH_MECHANISMS_SETTING, type DigestResealing, DigestVault } from './services/digest-vault';
import { secureDataDir } from './util/private-files';
import { type Clock, systemClock } from './util/clock';
import type { DestinationStream } from 'pino';
import { createLoggerRegistry, type Logger } from './util/logger';
import { packageVersion } from './util/package-info';

export interface StartOptions {
  clock?: Clock;
  /** Replaces standard output as the STDOUT log appender. */
  stdout?: DestinationStream;
  /** `POST /server?action=stop`: what stopping means for this process (the CLI exits; tests close). */
  onStopRequest?: () => void;
  /** Where first-start notices go (the generated admin password); stdout by default. */
  announce?: (line: string) => void;
}

export interface RunningServer {
  url: string;
  port: number;
  host: string;
  services: Services;
  /** Stops accepting, lets in-flight requests finish, passivates, closes the store. */
  close(): Promise<void>;
}

/** The composition root: config → store (migrated) → engine → services → HTTP. */
export async function startServer(config: ServerConfig, opts: StartOptions = {}): Promise<RunningServer> {
  const clock = opts.clock ?? systemClock;
  const widened = secureDataDir(config.dataDir);
  const logs = createLoggerRegistry({ level: config.logLevel, dataDir: config.dataDir, stdout: opts.stdout });
  const securityLog = logs.get('grid.security');
  if (widened.length) {
    securityLog.warn({ dataDir: config.dataDir, narrowed: widened.map((w) => `${w.path} (was ${w.mode.toString(8).padStart(4, '0')})`) },
      'the data directory was readable by other users; narrowed to 0700 (directories) and 0600 (files)');
  }
  const announce = opts.announce ?? ((line: string) => process.stdout.write(line + '\n'));
  const store = new SqliteStore({ dataDir: config.dataDir, durability: config.durability });
  const logging = new LoggingService(logs, store);
  const storeLog = logs.get('grid.store');
  store.onCommitFailure((ops, err) => storeLog.error({ err, writes: ops.length }, 'commit failed; the writes were refused'));

  const schemas = new SchemaService(store, clock);
  // before anything else writes: keys of older data dirs are converted once (docs/data-formats.md)
  await migrateLegacyKeys(store, schemas, clock, storeLog).catch((err: unknown) => { store.close(); throw err; });

  const credentialsKey = loadOrCreateCredentialsKey(config.dataDir);
  const vault = new DigestVault(config.authMechanisms.includes('digest'), credentialsKey.key);
  store.settings.upsert(AUTH_MECHANISMS_SETTING, config.authMechanisms.join(','), clock.now());
  const users = new UserService(store.users, clock, vault);
  reportStoredDigests(users.secureStoredDigests(), credentialsKey, securityLog);
  // hashing runs on the thread pool while the rest of the server is built
  const usersReady = bootstrapUsers(config, users, announce, securityLog);

  const manager = new CacheManager({ store, clock, log: logs.get('grid.cache') });
  const node: NodeInfo = { name: config.nodeName, address: '' };
  const roles = new RoleRegistry(store);
  const auth = new AuthService(store, roles, clock, vault, { mechanisms: config.authMechanisms, digestWithoutQop: config.digestWithoutQop });
  const version = packageVersion();
  let close: () => Promise<void> = async () => undefined;
  const services: Services = {
    manager,
    caches: new CacheService(manager, clock),
    entries: new EntryService(clock, schemas),
    schemas,
    container: new ContainerService(manager, clock),
    logging,
    metrics: new MetricsService(manager),
    tasks: new TaskService(store, manager, clock),
    xsite: new XSiteService(store, manager),
    backups: new BackupService(store, config.dataDir, clock, logs.get('grid.backup')),
    server: new ServerService(
      { host: config.host, authEnabled: config.authEnabled, mechanisms: auth.mechanismNames(), maxContentLength: config.maxContentLength, dataDir: config.dataDir, durability: config.durability },
      node, version, opts.onStopRequest ?? (() => { void close(); }),
    ),
    counters: new CounterService(new CounterManager({ store, clock, log: logs.get('grid.counters') })),
    bulk: new BulkService(schemas),
    auth,
    roles,
    users,
    node,
    clock,
    authEnabled: config.authEnabled,
    bodyLimit: config.maxContentLength,
    version,
    dataDir: config.dataDir,
    consoleDir: config.consoleDir,
  };
  users.onChange = () => services.auth.forget();
  services.backups.attach({ manager, counters: services.counters, schemas, tasks: services.tasks });
  const httpLog = logs.get('grid.http');
  const app = createApp(services, httpLog, browserSettingsOf(config, (fields, message) => httpLog.warn(fields, message)));
  const server = createServer(app.callback());
  server.on('clientError', answerClientError);
  server.keepAliveTimeout = 65_000;
  await usersReady;
  await listen(server, config.port, config.host);
  const { port } = server.address() as AddressInfo;
  node.address = `${config.host}:${port}`;
  const reaper = setInterval(() => manager.reapExpired(), config.expirationInterval);
  reaper.unref();

  let closing: Promise<void> | undefined;
  close = () => (closing ??= (async () => {
    clearInterval(reaper);
    services.server.closing.emit();
    services.server.runtime.close();
    await stopListening(server);
    await services.backups.idle();
    manager.shutdown();
    store.close();
    logs.get('grid').info('server stopped');
    await logs.close();
  })());
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return { url: `http://${host}:${port}`, port, host: config.host, services, close };
}

/** What the start-up step did to the stored Digest values, and what an operator must know. */
function reportStoredDigests(r: DigestResealing, key: CredentialsKey, log: Logger): void {
  const sealed = r.updates.filter((u) => u.digestMd5 || u.digestSha256).length;
  if (sealed) log.info({ users: sealed }, 'plain Digest HA1 values encrypted with the credentials key');
  if (r.updates.length - sealed) log.info({ users: r.updates.length - sealed }, 'Digest HA1 values dropped: Digest is not among auth-mechanisms');
  if (r.unreadable.length) {
    log.warn({ users: r.unreadable, keyFile: key.path, created: key.created },
      'Digest credentials of these users do not open with the credentials key (key file replaced or missing?); they can log in with Basic; restore the key or set their passwords again');
  }
  if (r.missing.length) log.warn({ users: r.missing }, 'these users have no Digest credentials (set while Digest was off); they can log in with Basic until their password is set again');
}

/** APP_USER/APP_PASS create or update a user; a first start with no users gets a generated admin. */
async function bootstrapUsers(config: ServerConfig, users: UserService, announce: (line: string) => void, log: Logger): Promise<void> {
  if (config.appUser) {
    await users.upsert(config.appUser.name, config.appUser.password, config.appUser.roles);
    log.info({ user: config.appUser.name, roles: config.appUser.roles }, 'user from APP_USER created or updated');
    return;
  }
  if (!config.authEnabled || users.count() > 0) return;
  const password = generatePassword();
  await users.upsert('admin', password, ['admin']);
  announce([
    '',
    '  No users existed, so grid created one:',
    `      user: admin    password: ${password}`,
    '  It is shown only this once. Change it with: grid user password admin -p NEW',
    '',
  ].join('\n'));
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/**
 * Stops accepting; in-flight requests finish. Keep-alive sockets are closed as soon as they are
 * idle (checked every 50 ms, since responses still running become idle later); after 10 s the
 * rest are closed.
 */
function stopListening(server: Server): Promise<void> {
  return new Promise((resolve) => {
    const force = setTimeout(() => server.closeAllConnections(), 10_000);
    const idle = setInterval(() => server.closeIdleConnections(), 50);
    force.unref();
    server.close(() => {
      clearTimeout(force);
      clearInterval(idle);
      resolve();
    });
    server.closeIdleConnections();
  });
}

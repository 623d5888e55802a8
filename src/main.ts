import { lazy } from './util/lazy';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { browserSettingsOf } from './config/browser-settings';
import { ConfigError, nodeNameOf, type ServerConfig } from './config/server-config';
import { tenantDataDir } from './config/tenants';
import type { RedisEngineConfig } from './config/engine-config';
import type { Durability } from './store/sqlite-store';
// the Redis client library is loaded only by a node on the redis engine (start-up time on SQLite)
const clusterClient = lazy(() => require('./store/redis/cluster-client') as typeof import('./store/redis/cluster-client'));
import { recordEngine } from './config/engine-record';
import { type ClusterEngine, masterWrites, ReplicatedWrites } from './store/redis/cluster-engine';
import { ClusterTopology } from './store/redis/cluster-topology';
import { EntryEventFeed, NODE_ID_LENGTH } from './store/redis/entry-event-feed';
import { RedisMemberRegistry } from './store/redis/member-registry';
import { loadTlsIdentity } from './config/tls-identity';
import { type Container, createContainer } from './container';
import { createApp } from './http/app';
import { HttpListeners } from './http/transport/listeners';
import { ConnectionGuards } from './http/connection-guards';
import { BodyBudget } from './http/body-budget';
import { DeclarationError, GridError } from './errors';
import { readDeclarations } from './model/declarations/read-declarations';
import { generatePassword } from './model/security/passwords';
import { applyDeclarations } from './services/declared/declared-resources';
import { LoggingService } from './services/logging.service';
import { MetricsService } from './services/metrics.service';
import { OffLoop } from './services/off-loop/off-loop';
import { ServerService } from './services/server/server.service';
import { ClusterService } from './services/cluster.service';
import { NodeCalls } from './store/redis/node-calls';
import { parseOrder, stopsNode } from './services/cluster-orders';
import type { NodeInfo, ProcessServices, Services, WiredServices } from './services';
import { CONTAINER_NAME } from './services/container.service';
import { secureDataDir } from './util/private-files';
import { type Clock, systemClock } from './util/clock';
import type { DestinationStream } from 'pino';
import { createLoggerRegistry, type Logger, REST_ACCESS_LOG } from './util/logger';
import type { LogFormat } from './util/log-format';
import type { LoggerRegistry } from './util/logger-registry';
import { packageVersion } from './util/package-info';
import { standardOutput } from './util/standard-output';

export interface StartOptions {
  clock?: Clock;
  /** Replaces standard output as the STDOUT log appender. */
  stdout?: DestinationStream;
  /** How log lines are written to standard output; by default pretty on a terminal, JSON otherwise. */
  logFormat?: LogFormat;
  /** `POST /server?action=stop`: what stopping means for this process (the CLI exits; tests close). */
  onStopRequest?: () => void;
  /** Where first-start notices go (the generated admin password); stdout by default. */
  announce?: (line: string) => void;
}

export interface RunningServer {
  url: string;
  port: number;
  host: string;
  /** The TLS listener's `https://` URL, port and certificate fingerprint, when configured. */
  tls?: { url: string; port: number; fingerprint: string };
  /** The default container's services (and the process-wide ones). */
  /** The default container's services, with the engine (for tests; handlers get `Services`). */
  services: WiredServices;
  /** Each tenant's services, by tenant name. */
  tenants: ReadonlyMap<string, Services>;
  /** What request bodies being received hold (src/http/body-budget.ts). */
  bodies: BodyBudget;
  /** Stops accepting, lets in-flight requests finish, passivates, closes the store. */
  close(): Promise<void>;
}

/** The composition root: config → containers (store, engine, services) → process-wide services → HTTP. */
export async function startServer(config: ServerConfig, opts: StartOptions = {}): Promise<RunningServer> {
  const clock = opts.clock ?? systemClock;
  const widened = secureDataDir(config.dataDir);
  // a bad keystore stops the start with a clear message before any store is opened
  const identity = config.tls && await loadTlsIdentity(config.tls, config.dataDir, config.host);
  const logs = createLoggerRegistry({ level: config.logLevel, dataDir: config.dataDir, stdout: opts.stdout, format: opts.logFormat });
  // the file's loggers first; settings made through the API (persisted) apply over them
  for (const l of config.loggers) logs.configure(l.name, { level: l.level, appenders: l.appenders });
  const securityLog = logs.get('grid.security');
  if (widened.length) {
    securityLog.warn({ dataDir: config.dataDir, narrowed: widened.map((w) => `${w.path} (was ${w.mode.toString(8).padStart(4, '0')})`) },
      'the data directory was readable by other users; narrowed to 0700 (directories) and 0600 (files)');
  }
  const announce = opts.announce ?? ((line: string) => standardOutput().write(line + '\n'));
  // one worker thread, shared by the containers, for parsing and validation that grows with a request or with stored state
  const offLoop = new OffLoop({ maxQueue: 256, deadlineMs: 60_000, log: logs.get('grid.http') });
  const engine = config.engine.type === 'redis' ? await openClusterEngine(config.engine, config.durability, logs.get('grid.cluster')) : undefined;
  // what a container's background work (a restore) wrote reaches every node before it reports done: through the cluster, once it is built
  let spread = (_container: string): Promise<void> => Promise.resolve();
  const containers = await openContainers(config, clock, logs, offLoop, engine, (container) => spread(container)).catch(async (err: unknown) => {
    await offLoop.close();
    await engine?.close();
    throw err;
  });
  const main = containers[0];
  // what `grid user --data` reads to reach the users this node serves
  recordEngine(config.dataDir, config.engine.type === 'redis' ? config.engine : undefined);
  // what every stop gives back (the engine's connections too: a failed start must not leave them open)
  const closeContainers = async () => {
    await Promise.all(containers.map((c) => c.close()));
    await offLoop.close();
    await engine?.close();
  };
  await applyDeclared(config, main, logs.get('grid.config')).catch(async (err: unknown) => {
    await closeContainers();
    throw err;
  });

  // named once the port is known (the default name on the redis engine holds it)
  const node: NodeInfo = { name: config.nodeName ?? '', address: '' };
  const version = packageVersion();
  let close: () => Promise<void> = async () => undefined;
  const cluster = new ClusterService(node, {
    clusterName: config.clusterName, version, startedAt: clock.now(), status: () => main.services.container.status, log: logs.get('grid.cluster'),
    registration: engine && main.tell && {
      registry: new RedisMemberRegistry(engine.client, engine.namespace), id: engine.events.node, tell: main.tell,
      calls: new NodeCalls(engine.client, engine.events, engine.namespace, engine.events.node, () => node.name),
    },
    figures: {
      'cache-statistics': (container, cache) => containers.find((c) => c.name === container)?.services.caches.statisticsByName(cache),
      'search-statistics': (container, cache) => {
        const services = containers.find((c) => c.name === container)?.services;
        const view = services?.caches.find(cache);
        return services && view && services.searchAdmin.statistics(view);
      },
    },
    catchUp: (container) => containers.find((c) => c.name === container)?.services.container.catchUp(),
  });
  spread = (container) => cluster.spread(container);
  const shared: ProcessServices = {
    logging: new LoggingService(logs, main.store),
    metrics: new MetricsService(main.services.manager),
    server: new ServerService(
      { host: config.host, authEnabled: config.authEnabled, mechanisms: main.services.auth.mechanismNames(), maxContentLength: config.maxContentLength, dataDir: config.dataDir, durability: config.durability, tls: identity ? { certificate: identity.source } : undefined },
      node, version, opts.onStopRequest ?? (() => { void close(); }),
    ),
    node,
    cluster,
    clock,
    authEnabled: config.authEnabled,
    bodyLimit: config.maxContentLength,
    limits: config.limits,
    version,
    consoleDir: config.consoleDir,
  };
  // the server's loggers belong to the default container: its @@logging@* tasks change them
  main.services.tasks.useLogging(shared.logging);
  // and follow what another node of the cluster sets (the redis engine)
  main.onRemoteChange?.((change) => { if (change.mutations.some((m) => m.table === 'loggers')) shared.logging.reload(); });
  // a stop asked through another node that names this one, or every node (docs/scale-out.md, "Cluster-wide operations")
  main.onRemoteChange?.((change) => {
    const order = parseOrder(change.order);
    if (!order || !stopsNode(order, node.name)) return;
    logs.get('grid.cluster').info({ node: node.name }, 'stopping: asked through the cluster');
    shared.server.requestStop();
  });
  const services: WiredServices = { ...shared, ...main.services };
  // what every stop gives back, and a start that fails from here on
  const release = async () => {
    services.server.runtime.close();
    await closeContainers();
  };
  const failed = async (err: unknown): Promise<never> => {
    await release();
    await logs.close();
    throw err;
  };
  const tenants = new Map(containers.slice(1).map((c): [string, Services] => [c.name, { ...shared, ...c.services }]));
  // hashing runs on the thread pool while the rest of the server is built
  const usersReady = Promise.all(containers.map((c) => prepareUsers(config, c, announce, securityLog)));

  const httpLog = logs.get('grid.http');
  const guards = new ConnectionGuards(config.limits, httpLog);
  const bodies = new BodyBudget(config.limits.requestBodyMemory);
  const app = createApp(services, { http: httpLog, access: logs.get(REST_ACCESS_LOG) }, tenants, browserSettingsOf(config, (fields, message) => httpLog.warn(fields, message)), guards, bodies);
  const tls = config.tls && identity ? { port: config.tls.port, identity: identity.options } : undefined;
  const listeners = new HttpListeners(app.callback(), { host: config.host, port: config.port, tls }, httpLog, guards);
  const writeUsers = await usersReady.catch(failed);
  const { port, tlsPort } = await listeners.listen().catch(failed);
  node.name = nodeNameOf(config, port);
  node.address = `${config.host}:${port}`;
  if (tlsPort !== undefined) node.tlsAddress = `${config.host}:${tlsPort}`;
  // a name another live node holds, or another cluster name, stops the start before any user is written
  await cluster.join().catch(async (err: unknown) => {
    await listeners.close();
    return failed(err);
  });
  // the cluster starts when its first node does: partition availability begins afresh and the
  // VOLATILE caches of its last run are gone, as with the original's restart
  const alone = async () => (await cluster.view()).members.length === 1;
  const fresh = ({ services: { manager } }: Container) => Promise.all([manager.resetAvailability(), manager.dropVolatile()]);
  await (async () => { if (await alone()) await Promise.all(containers.map(fresh)); })().catch(async (err: unknown) => {
    await cluster.leave();
    await listeners.close();
    return failed(err);
  });
  // what a killed process of this node's name left running is over: its unfinished archives go, its records say FAILED
  for (const c of containers) {
    c.services.backups.reclaimOwn(node.name).catch((err: unknown) => logs.get('grid.cluster').warn({ err }, 'could not end the operations an earlier process of this node left in progress'));
  }
  for (const write of writeUsers) write();
  if (identity) {
    const how = { configured: '', generated: ' (self-signed, generated now)', reused: ' (self-signed, generated on an earlier start)' }[identity.origin];
    announce(`TLS certificate${how}: ${identity.source}\n  SHA-256 fingerprint: ${identity.fingerprint}`);
    logs.get('grid').info({ tlsPort, certificate: identity.source, fingerprint: identity.fingerprint }, 'TLS listener started');
  }

  let closing: Promise<void> | undefined;
  close = () => (closing ??= (async () => {
    // the other nodes stop listing this one at once, while it drains
    await cluster.leave();
    for (const c of containers) c.interrupt();
    services.server.startClosing();
    await listeners.close();
    await release();
    logs.get('grid').info('server stopped');
    await logs.close();
  })());
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return {
    url: `http://${host}:${port}`, port, host: config.host, services, tenants, bodies, close,
    tls: identity && tlsPort !== undefined ? { url: `https://${host}:${tlsPort}`, port: tlsPort, fingerprint: identity.fingerprint } : undefined,
  };
}

/** How long a write waits for a replica under `--durability power` before it fails with a 503. */
const REPLICA_WAIT_MS = 2_000;

/**
 * Clients of their own for the writes of `--durability power` and their waits for a replica
 * (docs/scale-out.md, "Durability"): as many writes, and waits, in flight to one master at once.
 */
const WRITE_CLIENTS = 4;

/** The redis engine's clients, once they are connected (the start checks ran before: docs/scale-out.md). */
async function openClusterEngine(engine: RedisEngineConfig, durability: Durability, log: Logger): Promise<ClusterEngine> {
  const { connectCluster, duplicateCluster } = clusterClient();
  const client = await connectCluster(engine);
  const writers = await Promise.allSettled(durability === 'power' ? Array.from({ length: WRITE_CLIENTS }, () => duplicateCluster(client)) : []);
  const pool = writers.flatMap((w) => (w.status === 'fulfilled' ? [w.value] : []));
  const failed = writers.find((w): w is PromiseRejectedResult => w.status === 'rejected');
  if (failed) {
    for (const c of [client, ...pool]) c.disconnect();
    throw failed.reason;
  }
  const events = new EntryEventFeed(client, randomBytes(NODE_ID_LENGTH / 2).toString('hex'));
  const topology = new ClusterTopology(client);
  // the health's changes, with their reason (docs/scale-out.md, "Owners and health")
  const unwatch = topology.watch(({ status, reason }) => {
    if (status === 'HEALTHY') log.info('the Redis Cluster serves every slot');
    else log.warn({ reason }, status === 'DEGRADED' ? 'the Redis Cluster is degraded' : 'the Redis Cluster is rebalancing');
  });
  return {
    client, events, topology, writes: pool.length ? new ReplicatedWrites(pool, REPLICA_WAIT_MS) : masterWrites(client), namespace: engine.namespace,
    async close() {
      unwatch();
      events.close();
      await Promise.all([client, ...pool].map((c) => c.quit().catch(() => undefined)));
    },
  };
}

/**
 * The default container, then one per tenant under `<data dir>/tenants/<name>/`. A tenant named
 * like a cache or alias of the default container stops the start: `/rest/<name>/…` could no
 * longer reach that cache (docs/configuration.md, Tenants).
 */
async function openContainers(config: ServerConfig, clock: Clock, logs: LoggerRegistry, offLoop: OffLoop, cluster: ClusterEngine | undefined,
  spread: (container: string) => Promise<void>): Promise<Container[]> {
  const names = config.tenants.map((t) => t.name);
  const opened = [await createContainer({ name: CONTAINER_NAME, dataDir: config.dataDir, config, clock, logs, offLoop, reservedCacheNames: new Set(names), cluster, spread })];
  try {
    for (const name of names) {
      const clash = opened[0].services.manager.find(name);
      if (clash) {
        const what = clash.cache.name === name ? `a cache named '${name}'` : `a cache ('${clash.cache.name}') with the alias '${name}'`;
        throw new ConfigError(`tenant '${name}' clashes with ${what} in the default container: /rest/${name}/… would stop reaching it; rename the tenant, or remove that cache first`);
      }
    }
    for (const name of names) opened.push(await createContainer({ name, dataDir: tenantDataDir(config.dataDir, name), config, clock, logs, offLoop, cluster, spread }));
    return opened;
  } catch (err) {
    await Promise.all(opened.map((c) => c.close()));
    throw err;
  }
}

/**
 * What the `--config` files declare, brought into the default container before the server listens
 * (docs/configuration.md, Declared resources). A part of the original's format grid does not
 * implement is a warning naming it; a declaration that cannot be applied stops the start (exit 2).
 */
async function applyDeclared(config: ServerConfig, c: Container, log: Logger): Promise<void> {
  if (config.declarations.length === 0) return;
  try {
    const declared = readDeclarations(config.declarations, readSchemaFile);
    for (const part of declared.ignored) log.warn({ file: part.source, element: part.element, reason: part.reason }, 'configuration element not implemented; ignored');
    const { manager, counters, schemas, roles } = c.services;
    const report = await applyDeclarations({ manager, counters, schemas, roles }, declared, config.updateDeclared === 'mutable');
    log.info({ created: report.created, updated: report.updated, unchanged: report.unchanged.length }, 'declared resources in place');
  } catch (err) {
    if (err instanceof GridError) throw new ConfigError(err.message);
    throw err;
  }
}

/** A schema file named by a declaration; relative paths are taken from where grid was started, as every path of the file. */
function readSchemaFile(path: string): string {
  try {
    return readFileSync(resolve(path), 'utf8');
  } catch (err) {
    throw new DeclarationError(`cannot read ${path}: ${(err as Error).message}`);
  }
}

/**
 * APP_USER/APP_PASS create or update a user of the default container; a first start of a
 * container with no users gets a generated admin (each tenant its own: users are per container).
 * Prepared (passwords hashed) while the server is built; the returned step writes the user and
 * announces a generated password, called once the port is bound: a start that fails to listen
 * stores and prints no password.
 */
async function prepareUsers(config: ServerConfig, c: Container, announce: (line: string) => void, log: Logger): Promise<() => void> {
  const users = c.services.users;
  const tenant = c.name === CONTAINER_NAME ? '' : ` in tenant '${c.name}'`;
  if (config.appUser && !tenant) {
    const { name, password, roles } = config.appUser;
    const write = await users.prepareUpsert(name, password, roles);
    return () => {
      write();
      log.info({ user: name, roles }, 'user from APP_USER created or updated');
    };
  }
  if (!config.authEnabled || users.count() > 0) return () => undefined;
  const password = generatePassword();
  const write = await users.prepareUpsert('admin', password, ['admin']);
  return () => {
    write();
    announce([
      '',
      `  No users existed${tenant}, so grid created one:`,
      `      user: admin    password: ${password}`,
      `  It is shown only this once. Change it with: grid user password admin -p NEW${tenant ? ` --tenant ${c.name}` : ''}`,
      '',
    ].join('\n'));
  };
}

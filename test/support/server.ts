import { copyFileSync, chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveConfig, type ConfigOverrides } from '../../src/config/server-config';
import { startServer, type RunningServer } from '../../src/main';
import type { Clock } from '../../src/util/clock';
import { Client } from './client';
import { eventually } from './poll';
import { TWO_NODES, twoNodeEngine } from './two-node-engine';
import type { DestinationStream } from 'pino';

/** The default roles; each test server has one user per role, named after it. */
export const ROLES = ['admin', 'deployer', 'application', 'observer', 'monitor'] as const;
export type Role = (typeof ROLES)[number];

export type ServerOptions = ConfigOverrides & {
  clock?: Clock;
  dataDir?: string;
  stdout?: DestinationStream;
  /** More users of the default container, name → roles; each one's password is `<name>-pw`. */
  users?: Record<string, string[]>;
};

/** A server under test as tests use it: its address, its data dir, clients of its users. */
export interface ServerUnderTest {
  url: string;
  dataDir: string;
  running: RunningServer;
  /**
   * Every node: `running` alone, or on two nodes `running` and then the second (its data dir is
   * `services.dataDir`). What a test sets or looks at in process, it does on each node, as a
   * client's requests may go to either.
   */
  nodes: readonly RunningServer[];
  /** A client authenticated (Basic) as that user: one of the ROLES or of `users`, password `<name>-pw`. */
  as(user: string): Client;
  anonymous(): Client;
}

export interface TestServer extends ServerUnderTest {
  /** Where the next request goes: `url`, or on two nodes each node in turn. */
  nextUrl(): string;
  close(opts?: { keepData?: boolean }): Promise<void>;
}

function copyPrivateFile(from: string, to: string): void {
  mkdirSync(join(to, '..'), { recursive: true, mode: 0o700 });
  copyFileSync(from, to);
  chmodSync(to, 0o600);
}

export function tempDir(prefix = 'grid-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/**
 * A real server in this process: port 0, a real SQLite file in a temp dir, real users. With
 * `GRID_TEST_ENGINE=redis` (two-node-engine.ts), two nodes over one Redis Cluster instead: `url`
 * and `running` are the first's, `nodes` both, and the clients `as` hands out send their requests
 * to each node in turn.
 */
export async function startTestServer(opts: ServerOptions = {}): Promise<TestServer> {
  const { clock, stdout, users = {}, ...overrides } = opts;
  const dataDir = opts.dataDir ?? tempDir();
  // a test clock is not Redis's: entries would expire by Redis at the wrong time (docs/scale-out.md, "Time"); such servers stay on SQLite
  const twoNodes = TWO_NODES && overrides.engine === undefined && clock === undefined;
  const engine = twoNodes ? await twoNodeEngine(dataDir) : overrides.engine;
  const configOf = (dir: string) => resolveConfig({}, { logLevel: process.env.GRID_TEST_LOG ?? 'silent', ...overrides, engine, dataDir: dir, port: 0, host: '127.0.0.1' }, {});
  const running = await startServer(configOf(dataDir), { clock, stdout, announce: () => undefined });
  // every container has its own users (docs/configuration.md, Tenants): the same test users in each
  const containers = [running.services, ...running.tenants.values()];
  await Promise.all(containers.flatMap((c) => ROLES.map((role) => c.users.upsert(role, `${role}-pw`, [role]))));
  await Promise.all(Object.entries(users).map(([name, roles]) => running.services.users.upsert(name, `${name}-pw`, roles)));
  // the nodes of one grid share the credentials key, as docs/scale-out.md asks (Digest works on both)
  if (twoNodes) copyPrivateFile(join(dataDir, 'credentials.key'), join(`${dataDir}-b`, 'credentials.key'));
  const other = twoNodes ? await startServer(configOf(`${dataDir}-b`), { clock, stdout, announce: () => undefined }) : undefined;
  if (other) await eventually(() => other.services.users.list().length >= running.services.users.list().length, 10_000, 'the second node to have the users');
  let turn = 0;
  const next = () => (other && turn++ % 2 === 1 ? other.url : running.url);
  return {
    url: running.url,
    dataDir,
    running,
    nodes: other ? [running, other] : [running],
    nextUrl: other ? next : () => running.url,
    as: (user) => new Client(other ? next : running.url, { user, password: `${user}-pw` }),
    anonymous: () => new Client(other ? next : running.url),
    async close({ keepData = false } = {}) {
      await running.close();
      await other?.close();
      if (!keepData) rmSync(dataDir, { recursive: true, force: true });
      if (other) rmSync(`${dataDir}-b`, { recursive: true, force: true });
    },
  };
}

/**
 * A test server that stops and starts again on its data dir; what it hands out (its clients, its
 * fields) follows it to the server running at the time they are used.
 */
export interface SharedServer extends ServerUnderTest {
  /** Closes the server, keeping its data dir (for a look at it or a change to it before `start`). */
  stop(): Promise<void>;
  /** Starts it again on its data dir, with `overrides` over the options it was first given. */
  start(overrides?: ServerOptions): Promise<void>;
  /** stop, then start. */
  restart(overrides?: ServerOptions): Promise<void>;
}

/** A SharedServer and what its owner does with it: start it first, close it (and remove its data dir) last. */
function sharedServer(): { server: SharedServer; open(opts: ServerOptions): Promise<void>; close(keepData?: boolean): Promise<void> } {
  let options: ServerOptions = {};
  let dataDir: string | undefined;
  let current: TestServer | undefined;
  const running = (): TestServer => {
    if (!current) throw new Error('the test server is not running');
    return current;
  };
  const server: SharedServer = {
    get url() { return running().url; },
    get dataDir() { return dataDir ?? running().dataDir; },
    get running() { return running().running; },
    get nodes() { return running().nodes; },
    // on two nodes each request goes to the next node in turn, as a TestServer's own clients do
    as: (user) => new Client(() => running().nextUrl(), { user, password: `${user}-pw` }),
    anonymous: () => new Client(() => running().nextUrl()),
    async stop() {
      const stopping = running();
      current = undefined;
      await stopping.close({ keepData: true });
    },
    async start(overrides = {}) {
      if (current) throw new Error('the test server is running: stop it first');
      current = await startTestServer({ ...options, ...overrides, dataDir });
    },
    async restart(overrides) {
      await server.stop();
      await server.start(overrides);
    },
  };
  return {
    server,
    async open(opts) {
      options = opts;
      current = await startTestServer(opts);
      dataDir = current.dataDir;
    },
    async close(keepData = false) {
      await current?.close({ keepData });
      current = undefined;
      if (!keepData && dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The test server of the enclosing `describe`: a `before` hook starts it and an `after` hook closes
 * it and removes its data dir. Mocha runs hooks in the order they are declared: declare it before
 * the hooks that use the server, after those that prepare what `opts` names (then give `opts` as a
 * function, called when the server starts). Its clients may be made at once, beside it
 * (`const admin = server.as('admin')`): they send to the server started later.
 */
export function useServer(opts: ServerOptions | (() => ServerOptions) = {}): SharedServer {
  const shared = sharedServer();
  before(() => shared.open(typeof opts === 'function' ? opts() : opts));
  after(() => shared.close());
  return shared.server;
}

/** Runs `use` with a server of its own, closed afterwards whatever happens (its data dir kept with `keepData`). */
export async function withServer<T>(opts: ServerOptions & { keepData?: boolean }, use: (server: SharedServer) => Promise<T>): Promise<T> {
  const { keepData, ...options } = opts;
  const shared = sharedServer();
  await shared.open(options);
  try {
    return await use(shared.server);
  } finally {
    await shared.close(keepData);
  }
}

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveConfig, type ConfigOverrides } from '../../src/config/server-config';
import { startServer, type RunningServer } from '../../src/main';
import type { Clock } from '../../src/util/clock';
import { Client } from './client';
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
  /** A client authenticated (Basic) as that user: one of the ROLES or of `users`, password `<name>-pw`. */
  as(user: string): Client;
  anonymous(): Client;
}

export interface TestServer extends ServerUnderTest {
  close(opts?: { keepData?: boolean }): Promise<void>;
}

export function tempDir(prefix = 'grid-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** A real server in this process: port 0, a real SQLite file in a temp dir, real users. */
export async function startTestServer(opts: ServerOptions = {}): Promise<TestServer> {
  const { clock, stdout, users = {}, ...overrides } = opts;
  const dataDir = opts.dataDir ?? tempDir();
  const config = resolveConfig({}, { logLevel: process.env.GRID_TEST_LOG ?? 'silent', ...overrides, dataDir, port: 0, host: '127.0.0.1' }, {});
  const running = await startServer(config, { clock, stdout, announce: () => undefined });
  // every container has its own users (docs/configuration.md, Tenants): the same test users in each
  const containers = [running.services, ...running.tenants.values()];
  await Promise.all(containers.flatMap((c) => ROLES.map((role) => c.users.upsert(role, `${role}-pw`, [role]))));
  await Promise.all(Object.entries(users).map(([name, roles]) => running.services.users.upsert(name, `${name}-pw`, roles)));
  return {
    url: running.url,
    dataDir,
    running,
    as: (user) => new Client(running.url, { user, password: `${user}-pw` }),
    anonymous: () => new Client(running.url),
    async close({ keepData = false } = {}) {
      await running.close();
      if (!keepData) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The server of a `describe`, as useServer gives it: a restart in place of close. */
export interface SharedServer extends ServerUnderTest {
  /** Closes the server and starts it again on the same data dir, with `overrides` over the options. */
  restart(overrides?: ServerOptions): Promise<void>;
}

/**
 * The test server of the enclosing `describe`: a `before` hook starts it and an `after` hook closes
 * it and removes its data dir. Mocha runs hooks in the order they are declared: declare it before
 * the hooks that use the server, after those that prepare what `opts` names (then give `opts` as a
 * function, called when the server starts). Its fields read the running server when used, and its
 * clients may be made at once (`const admin = server.as('admin')` beside it): they send to the
 * server started later.
 */
export function useServer(opts: ServerOptions | (() => ServerOptions) = {}): SharedServer {
  let options: ServerOptions = {};
  let current: TestServer | undefined;
  const started = (): TestServer => {
    if (!current) throw new Error('useServer: the server runs from its before hook to its after hook');
    return current;
  };
  before(async () => {
    options = typeof opts === 'function' ? opts() : opts;
    current = await startTestServer(options);
  });
  after(async () => {
    await current?.close();
    current = undefined;
  });
  return {
    get url() { return started().url; },
    get dataDir() { return started().dataDir; },
    get running() { return started().running; },
    as: (user) => new Client(() => started().url, { user, password: `${user}-pw` }),
    anonymous: () => new Client(() => started().url),
    async restart(overrides = {}) {
      const { dataDir } = started();
      await started().close({ keepData: true });
      current = undefined;
      current = await startTestServer({ ...options, ...overrides, dataDir });
    },
  };
}

/** Runs `use` with a server of its own, closed afterwards whatever happens (its data dir kept with `keepData`). */
export async function withServer<T>(opts: ServerOptions & { keepData?: boolean }, use: (server: TestServer) => Promise<T>): Promise<T> {
  const { keepData, ...options } = opts;
  const server = await startTestServer(options);
  try {
    return await use(server);
  } finally {
    await server.close({ keepData });
  }
}

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

export interface TestServer {
  url: string;
  dataDir: string;
  running: RunningServer;
  /** A client authenticated as the user of that role (Basic). */
  as(role: Role): Client;
  anonymous(): Client;
  close(opts?: { keepData?: boolean }): Promise<void>;
}

export function tempDir(prefix = 'grid-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** A real server in this process: port 0, a real SQLite file in a temp dir, real users. */
export async function startTestServer(opts: ConfigOverrides & { clock?: Clock; dataDir?: string; stdout?: DestinationStream } = {}): Promise<TestServer> {
  const { clock, stdout, ...overrides } = opts;
  const dataDir = opts.dataDir ?? tempDir();
  const config = resolveConfig({}, { logLevel: process.env.GRID_TEST_LOG ?? 'silent', ...overrides, dataDir, port: 0, host: '127.0.0.1' }, {});
  const running = await startServer(config, { clock, stdout, announce: () => undefined });
  // every container has its own users (docs/configuration.md, Tenants): the same test users in each
  const containers = [running.services, ...running.tenants.values()];
  await Promise.all(containers.flatMap((c) => ROLES.map((role) => c.users.upsert(role, `${role}-pw`, [role]))));
  return {
    url: running.url,
    dataDir,
    running,
    as: (role) => new Client(running.url, { user: role, password: `${role}-pw` }),
    anonymous: () => new Client(running.url),
    async close({ keepData = false } = {}) {
      await running.close();
      if (!keepData) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

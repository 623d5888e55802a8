import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CREDENTIALS_KEY_FILE, loadOrCreateCredentialsKey } from '../config/credentials-key';
import { parseEngineType, parseRedisNodes, type RedisEngineConfig, resolveEngine } from '../config/engine-config';
import { recordedEngine } from '../config/engine-record';
import { readConfigFiles, resolveConfig } from '../config/server-config';
import { AUTH_MECHANISMS_SETTING, DigestVault } from '../services/auth/digest-vault';
import { tenantDataDir, tenantNameProblem } from '../config/tenants';
import { CONTAINER_NAME } from '../services/container.service';
import { UserService } from '../services/auth/user.service';
import { RoleRegistry } from '../services/auth/role-registry';
import { clusterContainerName, RedisStore } from '../store/redis/redis-store';
import { DATABASE_FILE, SqliteStore } from '../store/sqlite-store';
import type { Store } from '../store/store';
import { systemClock } from '../util/clock';
import { parse, UsageError } from './args';
import { USAGE } from './usage';

/**
 * The server's rules for stored credentials: Digest HA1 values sealed with the data directory's
 * key, none at all when the server last ran without Digest (it records its `auth-mechanisms`).
 */
function openUsers(store: Store, dataDir: string): UserService {
  const mechanisms = store.settings.find(AUTH_MECHANISMS_SETTING);
  const digest = mechanisms === undefined || mechanisms.split(',').includes('digest');
  const users = new UserService(store.users, systemClock, new DigestVault(digest, loadOrCreateCredentialsKey(dataDir).key));
  users.secureStoredDigests();
  return users;
}

/**
 * `grid user …`: writes the users where the server keeps them — the data directory's store, or on
 * the redis engine the cluster (docs/scale-out.md) — and a running server sees changes at once.
 */
export async function runUser(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, {
    data: { type: 'string' }, tenant: { type: 'string' }, password: { type: 'string', short: 'p' }, groups: { type: 'string', short: 'g' },
    init: { type: 'boolean' }, config: { type: 'string', multiple: true },
    engine: { type: 'string' }, redis: { type: 'string' }, 'redis-password-file': { type: 'string' },
  });
  if (values.help) {
    process.stdout.write(USAGE.user + '\n');
    return 0;
  }
  const [sub, name, ...extra] = positionals;
  if (extra.length) throw new UsageError(`unexpected argument '${extra[0]}'`);
  const password = values.password as string | undefined;
  const roles = ((values.groups as string | undefined) ?? '').split(',').map((r) => r.trim()).filter(Boolean);
  // every mistake in the arguments is reported before anything is created on disk
  checkArguments(sub, name, password, roles);
  const tenant = values.tenant as string | undefined;
  // the engine as `grid start` reads it (flags over the configuration files), else as the node
  // whose data directory this is last started on
  const files = readConfigFiles((values.config as string[] | undefined) ?? []);
  const engineFlags = {
    type: values.engine === undefined ? undefined : parseEngineType(values.engine as string),
    nodes: values.redis === undefined ? undefined : parseRedisNodes(values.redis as string),
    passwordFile: values['redis-password-file'] as string | undefined,
  };
  const config = resolveConfig(files, { dataDir: values.data as string | undefined, engine: engineFlags });
  const root = config.dataDir;
  const given = files.engine !== undefined || Object.values(engineFlags).some((v) => v !== undefined);
  const engine = given ? config.engine : resolveEngine(recordedEngine(root), {}, process.env);
  const dataDir = usersDir(root, tenant);
  if (engine.type === 'redis') return onCluster(engine, dataDir, tenant, (store) => apply(sub!, name, password, roles, store, dataDir));
  const isDataDir = existsSync(join(root, DATABASE_FILE));
  if (!isDataDir && !values.init) {
    throw new UsageError(`${root} is not a grid data directory (it has no ${DATABASE_FILE}): name the server's data directory with --data, or pass --init to make a new one there`);
  }
  if (tenant !== undefined && !existsSync(dataDir)) {
    if (sub !== 'create') throw new UsageError(`tenant '${tenant}' has no store in ${root} yet: the server makes it at its first start with that tenant in its configuration file`);
    // users may be provisioned before the first start; a misspelt tenant must not pass unnoticed
    process.stderr.write(`grid: note: tenant '${tenant}' had no store in ${root}; it is created now. The server serves it only if its configuration file lists tenant '${tenant}'.\n`);
  }
  // --init with --tenant: the data directory itself too, so that later commands find it
  if (!isDataDir && tenant !== undefined) new SqliteStore({ dataDir: root, durability: 'power' }).close();
  const store = new SqliteStore({ dataDir, durability: 'power' });
  try {
    return await apply(sub!, name, password, roles, store, dataDir);
  } finally {
    store.close();
  }
}

/** Runs the command `sub` on the users of `store`; `dataDir` holds the key that seals Digest credentials. */
async function apply(sub: string, name: string | undefined, password: string | undefined, roles: string[], store: Store, dataDir: string): Promise<number> {
  const users = openUsers(store, dataDir);
  switch (sub) {
    case 'create': {
      await users.upsert(name!, password!, roles);
      process.stdout.write(`user '${name}' saved with roles ${roles.join(',')}\n`);
      const registry = new RoleRegistry(store);
      const grantsNothing = roles.filter((g) => !registry.exists(g) && !registry.hasMapping(g));
      if (grantsNothing.length) {
        process.stderr.write(`grid: note: ${grantsNothing.map((g) => `'${g}'`).join(', ')} names no role and has no grant yet, so it gives '${name}' no permission until one is granted (PUT /rest/v2/security/roles/GROUP?action=grant&role=ROLE) or a role of that name is created\n`);
      }
      return 0;
    }
    case 'list':
      for (const u of users.list()) process.stdout.write(`${u.name}\t${u.roles.join(',')}\n`);
      return 0;
    case 'remove':
      users.remove(name!);
      process.stdout.write(`user '${name}' removed\n`);
      return 0;
    default: // 'password', the only command left after checkArguments
      await users.setPassword(name!, password!);
      process.stdout.write(`password of '${name}' changed\n`);
      return 0;
  }
}

/**
 * The users of a redis-engine grid: the container's records on the cluster, written through and
 * waited for; Digest credentials are sealed with a node's key, so `dataDir` must be a node's data
 * directory (every node shares that key: docs/scale-out.md).
 */
async function onCluster(engine: RedisEngineConfig, dataDir: string, tenant: string | undefined, run: (store: Store) => Promise<number>): Promise<number> {
  if (!existsSync(join(dataDir, CREDENTIALS_KEY_FILE))) {
    throw new UsageError(`${dataDir} holds no ${CREDENTIALS_KEY_FILE}: name a node's data directory with --data (its key seals the Digest credentials every node opens)`);
  }
  // loaded here only: the SQLite path needs no Redis client library
  const { connectCluster } = require('../store/redis/cluster-client') as typeof import('../store/redis/cluster-client');
  const client = await connectCluster(engine);
  try {
    const store = await RedisStore.open(client, clusterContainerName(tenant ?? CONTAINER_NAME, engine.namespace), dataDir);
    let failed: Error | undefined;
    store.onCommitFailure((_ops, err) => { failed ??= err; });
    try {
      const code = await run(store);
      await store.whenDurable();
      if (failed) throw failed;
      return code;
    } finally {
      await store.close();
    }
  } finally {
    await client.quit().catch(() => undefined);
  }
}

function checkArguments(sub: string | undefined, name: string | undefined, password: string | undefined, roles: string[]): void {
  switch (sub) {
    case 'create':
      if (!name) throw new UsageError('user create needs a NAME');
      if (password === undefined) throw new UsageError('user create needs -p PASSWORD');
      if (!roles.length) throw new UsageError('user create needs -g ROLE[,ROLE]');
      return;
    case 'list':
      return;
    case 'remove':
      if (!name) throw new UsageError('user remove needs a NAME');
      return;
    case 'password':
      if (!name) throw new UsageError('user password needs a NAME');
      if (password === undefined) throw new UsageError('user password needs -p NEW');
      return;
    default:
      throw new UsageError(sub ? `unknown user command '${sub}'` : 'user needs a command: create, list, remove or password');
  }
}

/** The default container's data dir, or with `--tenant NAME` that tenant's (its users are its own). */
function usersDir(dataDir: string, tenant: string | undefined): string {
  if (tenant === undefined) return dataDir;
  const problem = tenantNameProblem(tenant);
  if (problem) throw new UsageError(problem);
  return tenantDataDir(dataDir, tenant);
}

import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadOrCreateCredentialsKey } from '../config/credentials-key';
import { AUTH_MECHANISMS_SETTING, DigestVault } from '../services/auth/digest-vault';
import { tenantDataDir, tenantNameProblem } from '../config/tenants';
import { UserService } from '../services/auth/user.service';
import { RoleRegistry } from '../services/auth/role-registry';
import { DATABASE_FILE, SqliteStore } from '../store/sqlite-store';
import { systemClock } from '../util/clock';
import { parse, UsageError } from './args';
import { USAGE } from './usage';

/**
 * The server's rules for stored credentials: Digest HA1 values sealed with the data directory's
 * key, none at all when the server last ran without Digest (it records its `auth-mechanisms`).
 */
function openUsers(store: SqliteStore, dataDir: string): UserService {
  const mechanisms = store.settings.find(AUTH_MECHANISMS_SETTING);
  const digest = mechanisms === undefined || mechanisms.split(',').includes('digest');
  const users = new UserService(store.users, systemClock, new DigestVault(digest, loadOrCreateCredentialsKey(dataDir).key));
  users.secureStoredDigests();
  return users;
}

/** `grid user …`: writes the user table directly; a running server sees changes at once. */
export async function runUser(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, {
    data: { type: 'string' }, tenant: { type: 'string' }, password: { type: 'string', short: 'p' }, groups: { type: 'string', short: 'g' },
    init: { type: 'boolean' },
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
  const root = resolve((values.data as string | undefined) ?? './data');
  const dataDir = usersDir(root, tenant);
  // a mistyped --data (or a command run from another directory) must not make a store nobody serves
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
  } finally {
    store.close();
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

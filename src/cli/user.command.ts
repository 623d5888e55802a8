import { resolve } from 'node:path';
import { loadOrCreateCredentialsKey } from '../config/credentials-key';
import { AUTH_MECHANISMS_SETTING, DigestVault } from '../services/digest-vault';
import { tenantDataDir, tenantNameProblem } from '../config/tenants';
import { UserService } from '../services/user.service';
import { SqliteStore } from '../store/sqlite-store';
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
  });
  if (values.help) {
    process.stdout.write(USAGE.user + '\n');
    return 0;
  }
  const [sub, name, ...extra] = positionals;
  if (extra.length) throw new UsageError(`unexpected argument '${extra[0]}'`);
  const dataDir = usersDir(resolve((values.data as string | undefined) ?? './data'), values.tenant as string | undefined);
  const store = new SqliteStore({ dataDir, durability: 'power' });
  try {
    const users = openUsers(store, dataDir);
    const password = values.password as string | undefined;
    switch (sub) {
      case 'create': {
        if (!name) throw new UsageError('user create needs a NAME');
        if (password === undefined) throw new UsageError('user create needs -p PASSWORD');
        const roles = ((values.groups as string | undefined) ?? '').split(',').map((r) => r.trim()).filter(Boolean);
        if (!roles.length) throw new UsageError('user create needs -g ROLE[,ROLE]');
        await users.upsert(name, password, roles);
        process.stdout.write(`user '${name}' saved with roles ${roles.join(',')}\n`);
        return 0;
      }
      case 'list':
        for (const u of users.list()) process.stdout.write(`${u.name}\t${u.roles.join(',')}\n`);
        return 0;
      case 'remove':
        if (!name) throw new UsageError('user remove needs a NAME');
        users.remove(name);
        process.stdout.write(`user '${name}' removed\n`);
        return 0;
      case 'password':
        if (!name) throw new UsageError('user password needs a NAME');
        if (password === undefined) throw new UsageError('user password needs -p NEW');
        await users.setPassword(name, password);
        process.stdout.write(`password of '${name}' changed\n`);
        return 0;
      default:
        throw new UsageError(sub ? `unknown user command '${sub}'` : 'user needs a command: create, list, remove or password');
    }
  } finally {
    store.close();
  }
}

/** The default container's data dir, or with `--tenant NAME` that tenant's (its users are its own). */
function usersDir(dataDir: string, tenant: string | undefined): string {
  if (tenant === undefined) return dataDir;
  const problem = tenantNameProblem(tenant);
  if (problem) throw new UsageError(problem);
  return tenantDataDir(dataDir, tenant);
}

import { resolve } from 'node:path';
import { UserService } from '../services/user.service';
import { SqliteStore } from '../store/sqlite-store';
import { systemClock } from '../util/clock';
import { parse, UsageError } from './args';
import { USAGE } from './usage';

/** `grid user …`: writes the user table directly; a running server sees changes at once. */
export async function runUser(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, {
    data: { type: 'string' }, password: { type: 'string', short: 'p' }, groups: { type: 'string', short: 'g' },
  });
  if (values.help) {
    process.stdout.write(USAGE.user + '\n');
    return 0;
  }
  const [sub, name, ...extra] = positionals;
  if (extra.length) throw new UsageError(`unexpected argument '${extra[0]}'`);
  const store = new SqliteStore({ dataDir: resolve((values.data as string | undefined) ?? './data'), durability: 'power' });
  try {
    const users = new UserService(store.users, systemClock);
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

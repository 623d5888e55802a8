import { InvalidUserError, UserNotFoundError } from '../errors';
import { digestHa1, hashPassword } from '../model/passwords';
import { DEFAULT_ROLES } from '../model/permissions';
import type { Store, UserRecord } from '../store/store';
import type { Clock } from '../util/clock';

export interface UserView {
  name: string;
  roles: string[];
}

/** Users of the built-in realm: stored as scrypt hashes plus Digest HA1 values, never in clear. */
export class UserService {
  /** Called after every change made through this service (remembered verifications must go). */
  onChange: () => void = () => undefined;

  constructor(private readonly users: Store['users'], private readonly clock: Clock) {}

  /** Creates the user, or replaces the password and roles of an existing one. */
  async upsert(name: string, password: string, roles: string[]): Promise<UserView> {
    this.validate(name, password, roles);
    const existing = this.users.find(name);
    // unchanged (APP_USER at every start): the Digest HA1 already tells, without a slow hash
    if (existing && existing.roles.join(',') === roles.join(',') && existing.digestSha256 === digestHa1('SHA-256', name, password)) {
      return { name, roles };
    }
    const credentials = await this.credentials(name, password);
    const now = this.clock.now();
    this.users.upsert({ ...credentials, name, roles, createdAt: existing?.createdAt ?? now, updatedAt: now });
    this.onChange();
    return { name, roles };
  }

  async setPassword(name: string, password: string): Promise<void> {
    const u = this.users.find(name);
    if (!u) throw new UserNotFoundError(name);
    this.validate(name, password, u.roles);
    const credentials = await this.credentials(name, password);
    this.users.upsert({ ...u, ...credentials, updatedAt: this.clock.now() });
    this.onChange();
  }

  remove(name: string): void {
    if (!this.users.delete(name)) throw new UserNotFoundError(name);
    this.onChange();
  }

  list(): UserView[] {
    return this.users.list().map((u) => ({ name: u.name, roles: u.roles }));
  }

  count(): number {
    return this.users.count();
  }

  private async credentials(name: string, password: string): Promise<Pick<UserRecord, 'passwordHash' | 'digestMd5' | 'digestSha256'>> {
    return {
      passwordHash: await hashPassword(password),
      digestMd5: digestHa1('MD5', name, password),
      digestSha256: digestHa1('SHA-256', name, password),
    };
  }

  private validate(name: string, password: string, roles: string[]): void {
    if (!/^[^\s:,"]{1,128}$/.test(name)) throw new InvalidUserError(`Invalid user name '${name}': 1 to 128 characters, no spaces, ':', ',' or '"'`);
    if (password.length === 0) throw new InvalidUserError('The password must not be empty');
    if (roles.length === 0) throw new InvalidUserError('A user needs at least one role');
    const unknown = roles.filter((r) => !DEFAULT_ROLES.has(r));
    if (unknown.length) throw new InvalidUserError(`Unknown role(s): ${unknown.join(', ')}; known roles: ${[...DEFAULT_ROLES.keys()].join(', ')}`);
  }
}

import { InvalidUserError, UserNotFoundError } from '../../errors';
import { digestHa1, hashPassword, verifyPassword } from '../../model/security/passwords';
import type { Store, UserRecord } from '../../store/store';
import type { Clock } from '../../util/clock';
import type { DigestResealing, DigestVault } from './digest-vault';

export interface UserView {
  name: string;
  roles: string[];
}

/**
 * Users of the built-in realm: stored as scrypt hashes plus sealed Digest HA1 values (none with
 * Digest off), never in clear. The server and `grid user` both go through this class.
 */
export class UserService {
  /** Called after every change made through this service (remembered verifications must go). */
  onChange: () => void = () => undefined;

  constructor(private readonly users: Store['users'], private readonly clock: Clock, private readonly vault: DigestVault) {}

  /**
   * The start-up step: plain HA1 values left by earlier versions are sealed, and with Digest off
   * every HA1 is dropped, in one transaction. Reports what it found for the caller to log.
   */
  secureStoredDigests(): DigestResealing {
    const result = this.vault.reseal(this.users.list());
    if (result.updates.length) {
      this.users.replaceDigests(result.updates);
      this.onChange();
    }
    return result;
  }

  /** Creates the user, or replaces the password and roles of an existing one. */
  async upsert(name: string, password: string, roles: string[]): Promise<UserView> {
    return (await this.prepareUpsert(name, password, roles))();
  }

  /**
   * `upsert` in two steps: the slow part (checks, password hash) now, the write when the returned
   * function is called — at start, only once the server listens (nothing is stored for a server
   * that never served). Nothing else may change this user in between.
   */
  async prepareUpsert(name: string, password: string, roles: string[]): Promise<() => UserView> {
    this.validate(name, password, roles);
    const existing = this.users.find(name);
    // unchanged (APP_USER at every start): nothing to write
    if (existing && existing.roles.join(',') === roles.join(',') && await this.hasPassword(existing, password)) {
      return () => ({ name, roles });
    }
    const credentials = await this.credentials(name, password);
    return () => {
      const now = this.clock.now();
      this.users.upsert({ ...credentials, name, roles, createdAt: existing?.createdAt ?? now, updatedAt: now });
      this.onChange();
      return { name, roles };
    };
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
    return { passwordHash: await hashPassword(password), ...this.vault.digestsFor(name, password) };
  }

  /** The sealed HA1 tells without a slow hash when there is one; otherwise scrypt decides. */
  private async hasPassword(u: UserRecord, password: string): Promise<boolean> {
    const ha1 = this.vault.ha1Of(u, 'SHA-256');
    if (ha1 !== undefined) return ha1 === digestHa1('SHA-256', u.name, password);
    return !this.vault.digestEnabled && verifyPassword(password, u.passwordHash);
  }

  private validate(name: string, password: string, roles: string[]): void {
    checkPrincipalName('user', name);
    if (password.length === 0) throw new InvalidUserError('The password must not be empty');
    if (roles.length === 0) throw new InvalidUserError('A user needs at least one role');
    // groups are names, as in the original: a group gets the roles granted to it, else the role of
    // its name (custom roles included), else nothing (docs/security.md)
    for (const group of roles) checkPrincipalName('group', group);
  }
}

/** User and group names: they travel in Basic credentials and in comma-separated group lists. */
function checkPrincipalName(kind: 'user' | 'group', name: string): void {
  if (!/^[^\s:,"]{1,128}$/.test(name)) throw new InvalidUserError(`Invalid ${kind} name '${name}': 1 to 128 characters, no spaces, ':', ',' or '"'`);
}

import { createHmac, hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { MalformedAuthHeaderError, UnauthorizedError, UnsupportedAuthMechanismError } from '../errors';
import { parseDigestFields } from '../model/digest-header';
import { type DigestAlgorithm, digestHash, REALM, verifyPassword } from '../model/passwords';
import { PERMISSION_MASKS } from '../model/permissions';
import type { Store, UserRecord } from '../store/store';
import type { Clock } from '../util/clock';
import type { RoleRegistry } from './role-registry';

/** Who is calling: the user, its groups, the roles they map to and the union of their permission bits. */
export interface Subject {
  name: string;
  groups: string[];
  roles: string[];
  /** Permission bits of each role, for caches that accept only some roles. */
  roleMasks: Readonly<Record<string, number>>;
  mask: number;
}

/** With authentication off (`--no-auth`) every caller is this subject. */
export const ANONYMOUS_ADMIN: Subject = { name: 'anonymous', groups: [], roles: ['admin'], roleMasks: { admin: PERMISSION_MASKS.ALL }, mask: PERMISSION_MASKS.ALL };

/** With authentication on, the caller of an anonymous route (probes, `/metrics`): no role, no permission. */
export const ANONYMOUS: Subject = { name: 'anonymous', groups: [], roles: [], roleMasks: {}, mask: 0 };

const NONCE_TTL_MS = 5 * 60_000;
const REMEMBER_MS = 60_000;
const REMEMBER_MAX = 10_000;
/** How often the user table is checked for changes made by another process (the CLI). */
const VERSION_CHECK_MS = 200;

interface Remembered { subject: Subject; until: number }

/**
 * HTTP Basic and Digest (MD5, SHA-256) against the user table. Successful Basic verifications are
 * remembered for a minute, keyed by a SHA-256 of the exact header value and dropped when the user
 * table changes, so the slow password hash is paid once per client rather than per request.
 */
export class AuthService {
  private readonly secret = randomBytes(32);
  private readonly remembered = new Map<string, Remembered>();
  private seenVersion: number;
  private versionCheckedAt = 0;

  constructor(
    private readonly store: Pick<Store, 'users' | 'externalVersion'>,
    private readonly roles: RoleRegistry,
    private readonly clock: Clock,
  ) {
    this.seenVersion = store.externalVersion();
    roles.onChange = () => this.forget();
  }

  /** A user's subject: its name and groups are principals, mapped to roles by the registry (a name alone grants nothing). */
  subjectOf(u: UserRecord): Subject {
    const roles = this.roles.rolesOf(u.name, u.roles);
    const roleMasks = Object.fromEntries(roles.map((r) => [r, this.roles.maskOf(r)]));
    return { name: u.name, groups: u.roles, roles, roleMasks, mask: Object.values(roleMasks).reduce((m, x) => m | x, 0) };
  }

  /** One challenge per enabled mechanism, sent with every 401. */
  challenges(stale = false): string[] {
    const nonce = this.newNonce();
    const extra = stale ? ', stale=true' : '';
    return [
      `Digest realm="${REALM}", domain="/", nonce="${nonce}", opaque="00000000000000000000000000000000", algorithm=MD5, qop="auth"${extra}`,
      `Digest realm="${REALM}", domain="/", nonce="${nonce}", opaque="00000000000000000000000000000000", algorithm=SHA-256, qop="auth"${extra}`,
      `Basic realm="${REALM}"`,
    ];
  }

  /** Drops every remembered verification (a user changed through this server). */
  forget(): void {
    this.remembered.clear();
  }

  async authenticate(header: string | undefined, method: string, uri: string): Promise<Subject> {
    if (!header) throw new UnauthorizedError(this.challenges());
    const space = header.indexOf(' ');
    if (space <= 0) throw new UnauthorizedError(this.challenges());
    const scheme = header.slice(0, space);
    const credentials = header.slice(space + 1).trim();
    switch (scheme.toLowerCase()) {
      case 'basic': return this.basic(header, credentials);
      case 'digest': return this.digest(credentials, method, uri);
      default: throw new UnsupportedAuthMechanismError(scheme.toUpperCase());
    }
  }

  private async basic(header: string, credentials: string): Promise<Subject> {
    const fingerprint = hash('sha256', header, 'base64');
    const known = this.recall(fingerprint);
    if (known) return known;
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(credentials)) throw new UnauthorizedError(this.challenges());
    const decoded = Buffer.from(credentials, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) throw new UnauthorizedError(this.challenges());
    const user = this.store.users.find(decoded.slice(0, colon));
    if (!user || !(await verifyPassword(decoded.slice(colon + 1), user.passwordHash))) {
      throw new UnauthorizedError(this.challenges());
    }
    const subject = this.subjectOf(user);
    this.remember(fingerprint, subject);
    return subject;
  }

  private digest(credentials: string, method: string, uri: string): Subject {
    const f = parseDigestFields(credentials);
    if (!f) throw new MalformedAuthHeaderError();
    const algorithm: DigestAlgorithm | undefined = !f.algorithm || f.algorithm.toUpperCase() === 'MD5' ? 'MD5'
      : f.algorithm.toUpperCase() === 'SHA-256' ? 'SHA-256' : undefined;
    if (!algorithm || (f.realm !== undefined && f.realm !== REALM)) throw new UnauthorizedError(this.challenges());
    const nonceAge = this.nonceAge(f.nonce);
    if (nonceAge === undefined) throw new UnauthorizedError(this.challenges());
    if (nonceAge > NONCE_TTL_MS) throw new UnauthorizedError(this.challenges(true));
    if (f.uri !== uri) throw new UnauthorizedError(this.challenges());
    const user = this.store.users.find(f.username);
    if (!user) throw new UnauthorizedError(this.challenges());
    const ha1 = algorithm === 'MD5' ? user.digestMd5 : user.digestSha256;
    const ha2 = digestHash(algorithm, `${method}:${f.uri}`);
    const expected = f.qop
      ? digestHash(algorithm, `${ha1}:${f.nonce}:${f.nc ?? ''}:${f.cnonce ?? ''}:${f.qop}:${ha2}`)
      : digestHash(algorithm, `${ha1}:${f.nonce}:${ha2}`);
    const given = Buffer.from(f.response.toLowerCase());
    if (given.length !== expected.length || !timingSafeEqual(given, Buffer.from(expected))) {
      throw new UnauthorizedError(this.challenges());
    }
    return this.subjectOf(user);
  }

  /** Stateless nonces: time + HMAC, valid for five minutes (then `stale=true`). */
  private newNonce(): string {
    const ts = this.clock.now().toString(36);
    return `${ts}.${createHmac('sha256', this.secret).update(ts).digest('base64url')}`;
  }

  private nonceAge(nonce: string): number | undefined {
    const [ts, mac] = nonce.split('.');
    if (!ts || !mac) return undefined;
    const expected = createHmac('sha256', this.secret).update(ts).digest('base64url');
    if (mac.length !== expected.length || !timingSafeEqual(Buffer.from(mac), Buffer.from(expected))) return undefined;
    return this.clock.now() - parseInt(ts, 36);
  }

  private recall(fingerprint: string): Subject | undefined {
    const now = this.clock.now();
    if (now - this.versionCheckedAt >= VERSION_CHECK_MS || now < this.versionCheckedAt) {
      this.versionCheckedAt = now;
      const version = this.store.externalVersion();
      if (version !== this.seenVersion) {
        this.seenVersion = version;
        this.remembered.clear();
        return undefined;
      }
    }
    const r = this.remembered.get(fingerprint);
    if (!r) return undefined;
    if (r.until > this.clock.now()) return r.subject;
    this.remembered.delete(fingerprint);
    return undefined;
  }

  private remember(fingerprint: string, subject: Subject): void {
    if (this.remembered.size >= REMEMBER_MAX) this.remembered.delete(this.remembered.keys().next().value as string);
    this.remembered.set(fingerprint, { subject, until: this.clock.now() + REMEMBER_MS });
  }
}

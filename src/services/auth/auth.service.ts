import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  LoginQueueFullError, MalformedAuthHeaderError, TooManyFailedLoginsError, UnauthorizedError, UnsupportedAuthMechanismError,
} from '../../errors';
import { clientAddressKey, clientAddressPrefixes } from '../../model/client-address';
import { parseDigestFields } from '../../model/security/digest-header';
import { type DigestAlgorithm, digestHash, REALM, UNKNOWN_USER_HASH, verifyPassword } from '../../model/security/passwords';
import { PERMISSION_MASKS } from '../../model/security/permissions';
import type { Store, UserRecord } from '../../store/store';
import { BoundedMap } from '../../util/bounded-map';
import type { Clock } from '../../util/clock';
import type { Logger } from '../../util/logger';
import { RateLimitedLog } from '../../util/rate-limited-log';
import { DigestNonces } from './digest-nonces';
import type { AuthMechanism } from '../../config/server-config';
import type { DigestVault } from './digest-vault';
import { FairGate, type GatePlace } from './fair-gate';
import { DEFAULT_THROTTLE_RULES, LoginThrottle, type ThrottleRules } from './login-throttle';
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

export interface AuthOptions {
  mechanisms: readonly AuthMechanism[];
  /** Accept Digest without qop (RFC 2069: no nonce count, so each nonce then works once). */
  digestWithoutQop: boolean;
  throttle?: ThrottleRules;
  /** Where failed logins are reported (`grid.security`, WARN). */
  log?: Logger;
}

const REMEMBER_MS = 60_000;
const REMEMBER_MAX = 10_000;
/** How often the user table is checked for changes made by another process (the CLI). */
const VERSION_CHECK_MS = 200;
/**
 * scrypt runs on libuv's pool (4 threads by default), which file I/O shares: at most two
 * verifications run at once. The others wait in two lanes served in turn — addresses where
 * somebody logged in within a day, and the rest — of 64 places each; within a lane, per address
 * (and per IPv6 /48, /56, /64), then per user name, in turn. An address (or prefix) may hold 16
 * places, one user name there 4 (docs/security.md, Bounded password verifications).
 */
const VERIFY_SLOTS = 2;
const VERIFY_WAITING_PER_LANE = 64;
const VERIFY_WAITING_PER_ADDRESS = 16;
const VERIFY_WAITING_PER_USER = 4;

interface Remembered { subject: Subject; until: number }
/** What a connection last authenticated with: its exact Basic header, while `generation` is current. */
interface ConnectionLogin { header: string; subject: Subject; until: number; generation: number }
type Verdict = { kind: 'ok'; subject: Subject } | { kind: 'failed' } | { kind: 'throttled'; waitMs: number };

/**
 * HTTP Basic and Digest (MD5, SHA-256) against the user table.
 *
 * Basic: successful verifications are remembered for a minute, keyed by a SHA-256 of the exact
 * header value and dropped when the user table changes, so the slow password hash is paid once per
 * client rather than per request. The connection that logged in also keeps its own header, as the
 * original keeps a subject per connection: its next requests with the same header are compared
 * with it (constant time) instead of hashed, and share its expiry and its dropping when users or
 * roles change (`generation`). A header that just failed is answered 401 at once, and identical
 * headers in flight share one verification. Verifications wait behind a small number of slots
 * and take turns by lane (known addresses apart), address prefix and user (`FairGate`), unknown
 * users are verified against a dummy hash (same time as a wrong password), and failed logins back
 * off (`LoginThrottle`).
 *
 * Digest: never remembered; every request is checked against its nonce and nonce count, so a
 * captured header cannot be replayed (`DigestNonces`). Qop-less Digest is refused unless enabled.
 */
export class AuthService {
  private readonly remembered = new BoundedMap<string, Remembered>(REMEMBER_MAX);
  /** Held by the connection object, so it goes with the connection. */
  private readonly byConnection = new WeakMap<object, ConnectionLogin>();
  /** Counts `forget()`s: a connection's login from an older generation no longer counts. */
  private generation = 0;
  private readonly failedHeaders = new BoundedMap<string, number>(REMEMBER_MAX);
  private readonly inflight = new Map<string, Promise<Verdict>>();
  private readonly gate = new FairGate(VERIFY_SLOTS, 2 * VERIFY_WAITING_PER_LANE);
  private readonly throttle: LoginThrottle;
  private readonly failures?: RateLimitedLog;
  private readonly nonces: DigestNonces;
  private readonly basicOn: boolean;
  private readonly digestOn: boolean;
  /** What unknown users are verified against, so they cost what known ones do. */
  private readonly dummyHash = UNKNOWN_USER_HASH;
  private readonly dummyDigests: Pick<UserRecord, 'name' | 'digestMd5' | 'digestSha256'>;
  private seenVersion: number;
  private versionCheckedAt = 0;

  constructor(
    private readonly store: Pick<Store, 'users' | 'externalVersion'>,
    private readonly roles: RoleRegistry,
    private readonly clock: Clock,
    private readonly vault: DigestVault,
    private readonly options: AuthOptions,
  ) {
    this.seenVersion = store.externalVersion();
    roles.onChange = () => this.forget();
    this.basicOn = options.mechanisms.includes('basic');
    this.digestOn = options.mechanisms.includes('digest') && vault.digestEnabled;
    this.throttle = new LoginThrottle(clock, options.throttle ?? DEFAULT_THROTTLE_RULES);
    this.nonces = new DigestNonces(clock);
    this.failures = options.log && new RateLimitedLog(options.log, 'login failed');
    this.dummyDigests = { name: '\u0000', ...vault.digestsFor('\u0000', randomBytes(16).toString('base64')) };
  }

  /** A user's subject: its name and groups are principals, mapped to roles by the registry (a name alone grants nothing). */
  subjectOf(u: UserRecord): Subject {
    const roles = this.roles.rolesOf(u.name, u.roles);
    const roleMasks = Object.fromEntries(roles.map((r) => [r, this.roles.maskOf(r)]));
    return { name: u.name, groups: u.roles, roles, roleMasks, mask: Object.values(roleMasks).reduce((m, x) => m | x, 0) };
  }

  /** The original's names of the mechanisms offered, in its order. */
  mechanismNames(): string[] {
    return [...(this.digestOn ? ['DIGEST', 'DIGEST-SHA-256'] : []), ...(this.basicOn ? ['BASIC'] : [])];
  }

  /** One challenge per enabled mechanism, sent with every 401. */
  challenges(stale = false): string[] {
    const out: string[] = [];
    if (this.digestOn) {
      const nonce = this.nonces.issue();
      const extra = stale ? ', stale=true' : '';
      for (const algorithm of ['MD5', 'SHA-256']) {
        out.push(`Digest realm="${REALM}", domain="/", nonce="${nonce}", opaque="00000000000000000000000000000000", algorithm=${algorithm}, qop="auth"${extra}`);
      }
    }
    if (this.basicOn) out.push(`Basic realm="${REALM}"`);
    return out;
  }

  /** Drops every remembered verification (a user or a role mapping changed through this server). */
  forget(): void {
    this.generation++;
    this.remembered.clear();
    this.failedHeaders.clear();
  }

  /**
   * `client` is the peer's address: failed logins are counted per address and per user name.
   * `connection` (the socket, or the HTTP/2 session) keeps its Basic login for its next requests.
   * Synchronous when the login is remembered; a promise while a password is verified.
   */
  authenticate(header: string | undefined, method: string, uri: string, client?: string, connection?: object): Subject | Promise<Subject> {
    if (!header) throw new UnauthorizedError(this.challenges(), 'no-credentials');
    const same = connection && this.sameConnectionLogin(connection, header);
    if (same) return same;
    const space = header.indexOf(' ');
    if (space <= 0) throw new UnauthorizedError(this.challenges(), 'no-credentials');
    const scheme = header.slice(0, space);
    const credentials = header.slice(space + 1).trim();
    switch (scheme.toLowerCase()) {
      case 'basic': {
        if (!this.basicOn) break;
        const fingerprint = hash('sha256', header, 'base64');
        const known = this.recall(fingerprint);
        if (known) return this.keepForConnection(connection, header, fingerprint, known);
        return this.basic(fingerprint, credentials, client).then((subject) => this.keepForConnection(connection, header, fingerprint, subject));
      }
      case 'digest':
        if (!this.digestOn) break;
        // a Digest response covers the method and URI too: the same header may be wrong for DELETE and right for GET
        return this.digest(hash('sha256', `${method} ${uri}\n${header}`, 'base64'), credentials, method, uri, client);
    }
    throw new UnsupportedAuthMechanismError(scheme.toUpperCase());
  }

  /** The subject `connection` logged in as with exactly `header`, while that login is remembered. */
  private sameConnectionLogin(connection: object, header: string): Subject | undefined {
    const login = this.byConnection.get(connection);
    if (!login) return undefined;
    const now = this.clock.now();
    if (now - this.versionCheckedAt >= VERSION_CHECK_MS || now < this.versionCheckedAt) this.checkVersion(now);
    if (login.generation !== this.generation || login.until <= now || !sameText(login.header, header)) return undefined;
    return login.subject;
  }

  private keepForConnection(connection: object | undefined, header: string, fingerprint: string, subject: Subject): Subject {
    const r = this.remembered.get(fingerprint);
    if (connection && r) this.byConnection.set(connection, { header, subject, until: r.until, generation: this.generation });
    return subject;
  }

  private async basic(fingerprint: string, credentials: string, remote: string | undefined): Promise<Subject> {
    if (this.failedRecently(fingerprint)) throw new UnauthorizedError(this.challenges(), 'wrong-credentials');
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(credentials)) throw new UnauthorizedError(this.challenges(), 'no-credentials');
    const decoded = Buffer.from(credentials, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) throw new UnauthorizedError(this.challenges(), 'no-credentials');
    const verdict = await this.verifyOnce(fingerprint, remote, decoded.slice(0, colon), decoded.slice(colon + 1));
    if (verdict.kind === 'ok') return verdict.subject;
    if (verdict.kind === 'throttled') throw new TooManyFailedLoginsError(Math.ceil(verdict.waitMs / 1000));
    throw new UnauthorizedError(this.challenges(), 'wrong-credentials');
  }

  /** One verification per distinct header at a time; the outcome is booked once. */
  private verifyOnce(fingerprint: string, remote: string | undefined, name: string, password: string): Promise<Verdict> {
    const running = this.inflight.get(fingerprint);
    if (running) return running;
    const client = clientAddressKey(remote);
    const waitMs = this.throttle.retryAfter(client, name);
    if (waitMs > 0) return Promise.resolve({ kind: 'throttled', waitMs });
    const queued = this.gate.run(this.placeOf(client, remote, name), () => this.verify(client, name, password), () => new LoginQueueFullError());
    if (!queued) throw new LoginQueueFullError();
    const booked = queued.then((verdict) => {
      if (verdict.kind === 'ok') {
        this.throttle.succeeded(client, name);
        this.remember(fingerprint, verdict.subject);
      } else if (verdict.kind === 'failed') {
        this.throttle.failed(client, name);
        this.failedHeaders.set(fingerprint, this.clock.now() + REMEMBER_MS);
        this.reportFailure('BASIC', name, remote);
      }
      return verdict;
    }).finally(() => this.inflight.delete(fingerprint));
    this.inflight.set(fingerprint, booked);
    return booked;
  }

  /** Where a verification waits: its lane, its address's prefixes, its user name. */
  private placeOf(client: string, remote: string | undefined, name: string): GatePlace[] {
    return [
      { key: this.throttle.isKnownAddress(client) ? 'known' : 'new', cap: VERIFY_WAITING_PER_LANE },
      ...clientAddressPrefixes(remote).map((key) => ({ key, cap: VERIFY_WAITING_PER_ADDRESS })),
      { key: name, cap: VERIFY_WAITING_PER_USER },
    ];
  }

  private async verify(client: string, name: string, password: string): Promise<Verdict> {
    const waitMs = this.throttle.retryAfter(client, name); // failures booked while this waited its turn
    if (waitMs > 0) return { kind: 'throttled', waitMs };
    const user = this.store.users.find(name);
    const ok = await verifyPassword(password, user?.passwordHash ?? this.dummyHash);
    return ok && user ? { kind: 'ok', subject: this.subjectOf(user) } : { kind: 'failed' };
  }

  private digest(fingerprint: string, credentials: string, method: string, uri: string, remote: string | undefined): Subject {
    const client = clientAddressKey(remote);
    const f = parseDigestFields(credentials);
    if (!f) throw new MalformedAuthHeaderError();
    const algorithm: DigestAlgorithm | undefined = !f.algorithm || f.algorithm.toUpperCase() === 'MD5' ? 'MD5'
      : f.algorithm.toUpperCase() === 'SHA-256' ? 'SHA-256' : undefined;
    if (!algorithm || (f.realm !== undefined && f.realm !== REALM) || f.uri !== uri) throw new UnauthorizedError(this.challenges(), 'no-credentials');
    let nc: number | undefined;
    if (f.qop !== undefined) {
      if (f.qop.toLowerCase() !== 'auth') throw new UnauthorizedError(this.challenges(), 'no-credentials');
      if (!f.cnonce || !/^[0-9a-fA-F]{8}$/.test(f.nc ?? '')) throw new MalformedAuthHeaderError();
      nc = parseInt(f.nc, 16);
    } else if (!this.options.digestWithoutQop) {
      throw new UnauthorizedError(this.challenges(), 'no-credentials');
    }
    if (this.failedRecently(fingerprint)) throw new UnauthorizedError(this.challenges(), 'wrong-credentials');
    const waitMs = this.throttle.retryAfter(client, f.username);
    if (waitMs > 0) throw new TooManyFailedLoginsError(Math.ceil(waitMs / 1000));
    const user = this.store.users.find(f.username);
    const real = user && this.vault.ha1Of(user, algorithm);
    // unknown users and users without Digest values cost the same as known ones
    const ha1 = real ?? this.vault.ha1Of(this.dummyDigests, algorithm) ?? '';
    const ha2 = digestHash(algorithm, `${method}:${f.uri}`);
    const expected = nc !== undefined
      ? digestHash(algorithm, `${ha1}:${f.nonce}:${f.nc}:${f.cnonce}:${f.qop}:${ha2}`)
      : digestHash(algorithm, `${ha1}:${f.nonce}:${ha2}`);
    const given = Buffer.from(f.response.toLowerCase());
    const matches = given.length === expected.length && timingSafeEqual(given, Buffer.from(expected));
    if (!matches || !user || real === undefined) {
      this.throttle.failed(client, f.username);
      this.failedHeaders.set(fingerprint, this.clock.now() + REMEMBER_MS);
      this.reportFailure(algorithm === 'MD5' ? 'DIGEST' : 'DIGEST-SHA-256', f.username, remote);
      throw new UnauthorizedError(this.challenges(), 'wrong-credentials');
    }
    // the response is right: an old, foreign or already counted nonce asks for a new one (RFC 7616 stale)
    if (this.nonces.use(f.nonce, nc) === 'stale') throw new UnauthorizedError(this.challenges(true), 'stale-nonce');
    this.throttle.succeeded(client, user.name);
    return this.subjectOf(user);
  }

  private recall(fingerprint: string): Subject | undefined {
    const now = this.clock.now();
    if (now - this.versionCheckedAt >= VERSION_CHECK_MS || now < this.versionCheckedAt) this.checkVersion(now);
    const r = this.remembered.get(fingerprint);
    if (!r) return undefined;
    if (r.until > now) return r.subject;
    this.remembered.delete(fingerprint);
    return undefined;
  }

  /** A header that failed within the last minute, unless users changed since (checked every time: a new user must work at once). */
  private failedRecently(fingerprint: string): boolean {
    const until = this.failedHeaders.get(fingerprint);
    if (until === undefined) return false;
    const now = this.clock.now();
    this.checkVersion(now);
    if (this.failedHeaders.get(fingerprint) === undefined) return false;
    if (until > now) return true;
    this.failedHeaders.delete(fingerprint);
    return false;
  }

  /** Another process (`grid user`) changed the database: forget everything remembered. */
  private checkVersion(now: number): void {
    this.versionCheckedAt = now;
    const version = this.store.externalVersion();
    if (version === this.seenVersion) return;
    this.seenVersion = version;
    this.forget();
  }

  /**
   * A wrong password or an unknown user, with the name and address, never the password. A flood
   * is one line per 10 s with the count (src/util/rate-limited-log.ts); a header that failed is
   * answered at once (not verified, not reported) for a minute.
   */
  private reportFailure(mechanism: string, user: string, remote: string | undefined): void {
    this.failures?.warn({ mechanism, user: user.length > 128 ? `${user.slice(0, 128)}…` : user, client: remote });
  }

  private remember(fingerprint: string, subject: Subject): void {
    this.remembered.set(fingerprint, { subject, until: this.clock.now() + REMEMBER_MS });
  }
}

/** Equality of two strings in time that depends on their lengths only. */
function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

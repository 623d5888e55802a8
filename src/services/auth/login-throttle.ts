import { BoundedMap } from '../../util/bounded-map';
import type { Clock } from '../../util/clock';

/** After `threshold` failures, verifications wait `base · 2^(failures − threshold)`, at most `cap`, from the last failure. */
export interface BackoffRule {
  threshold: number;
  baseMs: number;
  capMs: number;
}

export interface ThrottleRules {
  /** One client address guessing one user's password. */
  pair: BackoffRule;
  /** One client address trying many users (password spraying). */
  address: BackoffRule;
  /** Many addresses guessing one user's password. */
  name: BackoffRule;
}

/** docs/security.md, Authentication abuse: the numbers and why. */
export const DEFAULT_THROTTLE_RULES: ThrottleRules = {
  pair: { threshold: 5, baseMs: 1000, capMs: 5 * 60_000 },
  address: { threshold: 20, baseMs: 1000, capMs: 5 * 60_000 },
  name: { threshold: 20, baseMs: 1000, capMs: 60_000 },
};

/** Failures are forgotten this long after the last one. */
const FORGET_MS = 15 * 60_000;
/** An address that logged in as a user stays exempt from the address and name rules this long. */
const TRUST_MS = 24 * 60 * 60_000;
/** Each table holds at most this many keys (least recently failed go first). */
const TABLE_LIMIT = 10_000;

interface Failures { count: number; last: number }

/**
 * Backs off password guessing. Failures are counted per (address, user), per address and per
 * user name; past a threshold, verifications are refused until an exponentially growing delay has
 * passed. An address that has logged in successfully as a user is exempt from the per-address and
 * per-name rules for that user, so an attacker elsewhere cannot lock a known user out of the
 * places they use; only the (address, user) rule applies everywhere. A success clears that pair's
 * and that name's failures, not the address's: a valid account must not buy guesses at others.
 */
export class LoginThrottle {
  private readonly pairs = new BoundedMap<string, Failures>(TABLE_LIMIT);
  private readonly addresses = new BoundedMap<string, Failures>(TABLE_LIMIT);
  private readonly names = new BoundedMap<string, Failures>(TABLE_LIMIT);
  private readonly trusted = new BoundedMap<string, number>(TABLE_LIMIT);
  /** Addresses where anybody logged in, and when last. */
  private readonly known = new BoundedMap<string, number>(TABLE_LIMIT);

  constructor(private readonly clock: Clock, private readonly rules: ThrottleRules = DEFAULT_THROTTLE_RULES) {}

  /** Milliseconds before a verification of `name` from `address` may run; 0 = now. */
  retryAfter(address: string, name: string): number {
    const now = this.clock.now();
    const pair = pairKey(address, name);
    let wait = this.blocked(this.pairs, pair, this.rules.pair, now);
    if (!this.isTrusted(pair, now)) {
      wait = Math.max(wait, this.blocked(this.addresses, address, this.rules.address, now), this.blocked(this.names, name, this.rules.name, now));
    }
    return wait;
  }

  failed(address: string, name: string): void {
    const now = this.clock.now();
    this.count(this.pairs, pairKey(address, name), now);
    this.count(this.addresses, address, now);
    this.count(this.names, name, now);
  }

  succeeded(address: string, name: string): void {
    const pair = pairKey(address, name);
    this.pairs.delete(pair);
    this.names.delete(name);
    this.trusted.set(pair, this.clock.now());
    this.known.set(address, this.clock.now());
  }

  /** Somebody logged in from `address` within the trust period (its logins wait in a lane of their own). */
  isKnownAddress(address: string): boolean {
    const at = this.known.get(address);
    return at !== undefined && this.clock.now() - at <= TRUST_MS;
  }

  private blocked(table: BoundedMap<string, Failures>, key: string, rule: BackoffRule, now: number): number {
    const f = this.current(table, key, now);
    if (!f || f.count < rule.threshold) return 0;
    const delay = Math.min(rule.capMs, rule.baseMs * 2 ** Math.min(f.count - rule.threshold, 30));
    return Math.max(0, f.last + delay - now);
  }

  private count(table: BoundedMap<string, Failures>, key: string, now: number): void {
    const f = this.current(table, key, now);
    table.set(key, { count: (f?.count ?? 0) + 1, last: now });
  }

  private current(table: BoundedMap<string, Failures>, key: string, now: number): Failures | undefined {
    const f = table.get(key);
    if (f && now - f.last > FORGET_MS) {
      table.delete(key);
      return undefined;
    }
    return f;
  }

  private isTrusted(pair: string, now: number): boolean {
    const at = this.trusted.get(pair);
    return at !== undefined && now - at <= TRUST_MS;
  }
}

function pairKey(address: string, name: string): string {
  return `${address}\u0000${name}`;
}

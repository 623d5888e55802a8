import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { BoundedMap } from '../../util/bounded-map';
import type { Clock } from '../../util/clock';

/** Timings of the original's Digest mechanism (WildFly Elytron's NonceManager defaults). */
const FIRST_USE_MS = 5 * 60_000;
const SESSION_MS = 15 * 60_000;
/** Nonce counts below the highest seen are still accepted once within this window (parallel connections). */
const WINDOW = 32;
const TABLE_LIMIT = 10_000;

interface NonceState {
  issuedAt: number;
  lastUsed: number;
  /** Highest nonce count seen; -1 for a nonce used without one (single use). */
  highest: number;
  /** Bit i set: count `highest - 1 - i` was seen. */
  seen: number;
}

export type NonceVerdict = 'fresh' | 'stale';

/**
 * Digest nonces: `time.counter.mac`, signed with a per-process key, valid for a first use within
 * five minutes and then for as long as the client keeps using them (fifteen minutes after the
 * last use). Each use must bring a nonce count not seen before for that nonce, so a captured
 * header cannot be replayed; counts may arrive slightly out of order (a client using one nonce on
 * several connections), within a window of 32. Only nonces that authenticated someone are
 * tracked, so unauthenticated requests cannot fill the table; when the bounded table pushes one
 * out, every nonce issued up to then and not tracked counts as stale, so eviction never reopens a
 * nonce to replay.
 */
export class DigestNonces {
  private readonly key = randomBytes(32);
  private counter = 0;
  private floor = -Infinity;
  private readonly used = new BoundedMap<string, NonceState>(TABLE_LIMIT, (_, s) => {
    this.floor = Math.max(this.floor, s.issuedAt);
  });

  constructor(private readonly clock: Clock) {}

  issue(): string {
    const body = `${this.clock.now().toString(36)}.${(++this.counter).toString(36)}`;
    return `${body}.${this.mac(body)}`;
  }

  /**
   * Records one use of a nonce whose response was correct. `nc` is the nonce count, undefined
   * for Digest without qop. `stale`: expired, not ours, or this count was used already.
   */
  use(nonce: string, nc: number | undefined): NonceVerdict {
    const issuedAt = this.issuedAt(nonce);
    if (issuedAt === undefined) return 'stale';
    const now = this.clock.now();
    const state = this.used.get(nonce);
    if (!state) {
      if (now - issuedAt > FIRST_USE_MS || now < issuedAt || issuedAt <= this.floor) return 'stale';
      this.used.set(nonce, { issuedAt, lastUsed: now, highest: nc ?? -1, seen: 0 });
      return 'fresh';
    }
    if (now - state.lastUsed > SESSION_MS || nc === undefined || state.highest < 0 || !this.accept(state, nc)) return 'stale';
    state.lastUsed = now;
    this.used.set(nonce, state);
    return 'fresh';
  }

  private accept(s: NonceState, nc: number): boolean {
    if (nc > s.highest) {
      const d = nc - s.highest;
      s.seen = d > WINDOW ? 0 : d === WINDOW ? 0x8000_0000 : ((s.seen << d) | (1 << (d - 1))) >>> 0;
      s.highest = nc;
      return true;
    }
    const d = s.highest - nc;
    if (d === 0 || d > WINDOW) return false;
    const bit = (1 << (d - 1)) >>> 0;
    if (s.seen & bit) return false;
    s.seen = (s.seen | bit) >>> 0;
    return true;
  }

  /** When the nonce was issued, if this process issued it. */
  private issuedAt(nonce: string): number | undefined {
    const dot = nonce.lastIndexOf('.');
    if (dot <= 0) return undefined;
    const body = nonce.slice(0, dot);
    const mac = Buffer.from(nonce.slice(dot + 1));
    const expected = Buffer.from(this.mac(body));
    if (mac.length !== expected.length || !timingSafeEqual(mac, expected)) return undefined;
    const at = parseInt(body.slice(0, body.indexOf('.')), 36);
    return Number.isFinite(at) ? at : undefined;
  }

  private mac(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }
}

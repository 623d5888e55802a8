import { randomBytes } from 'node:crypto';
import { type DigestAlgorithm, digestHash } from '../model/security/passwords';
import type { Credentials } from './credentials';

interface Challenge {
  realm: string;
  nonce: string;
  opaque?: string;
  algorithm: DigestAlgorithm;
  qop: boolean;
}

/** The challenges of a 401's `WWW-Authenticate` (several headers arrive joined with ", "). */
export function challengesOf(header: string | null | undefined): Array<{ scheme: string; params: Map<string, string> }> {
  return (header ?? '').split(/,\s*(?=[A-Za-z][\w-]*\s+[\w-]+=)/).map((part) => {
    const scheme = /^\s*([A-Za-z][\w-]*)/.exec(part)?.[1] ?? '';
    const params = new Map<string, string>();
    for (const m of part.slice(part.indexOf(scheme) + scheme.length).matchAll(/([\w-]+)=(?:"((?:[^"\\]|\\.)*)"|([^,\s]*))/g)) {
      params.set(m[1].toLowerCase(), m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : m[3]);
    }
    return { scheme: scheme.toLowerCase(), params };
  }).filter((c) => c.scheme !== '');
}

/**
 * HTTP Digest (RFC 7616) for a server that takes no Basic (grid with --auth-mechanisms digest): SHA-256
 * when offered, else MD5; qop=auth with a fresh cnonce and a counting nc on every request.
 */
export class DigestSession {
  private nc = 0;

  private constructor(private challenge: Challenge, private readonly credentials: Credentials) {}

  /** A session from a 401's header, or undefined when it offers no Digest this client speaks. */
  static from(header: string | null | undefined, credentials: Credentials): DigestSession | undefined {
    const challenge = pick(header);
    return challenge && new DigestSession(challenge, credentials);
  }

  /** Whether a 401 says only that the nonce expired (`stale=true`): then it is taken and the request repeated. */
  renew(header: string | null | undefined): boolean {
    const fresh = challengesOf(header).find((c) => c.scheme === 'digest' && c.params.get('stale')?.toLowerCase() === 'true');
    const challenge = fresh && pick(header);
    if (!challenge) return false;
    this.challenge = challenge;
    this.nc = 0;
    return true;
  }

  authorization(method: string, uri: string): string {
    const c = this.challenge;
    const h = (s: string) => digestHash(c.algorithm, s);
    const ha1 = h(`${this.credentials.user}:${c.realm}:${this.credentials.password}`);
    const ha2 = h(`${method}:${uri}`);
    const q = (s: string) => `"${s.replace(/["\\]/g, '\\$&')}"`;
    const fields = [`username=${q(this.credentials.user)}`, `realm=${q(c.realm)}`, `nonce=${q(c.nonce)}`, `uri=${q(uri)}`, `algorithm=${c.algorithm}`];
    if (c.opaque !== undefined) fields.push(`opaque=${q(c.opaque)}`);
    if (!c.qop) return `Digest ${fields.join(', ')}, response="${h(`${ha1}:${c.nonce}:${ha2}`)}"`;
    const nc = (++this.nc).toString(16).padStart(8, '0');
    const cnonce = randomBytes(12).toString('hex');
    return `Digest ${fields.join(', ')}, response="${h(`${ha1}:${c.nonce}:${nc}:${cnonce}:auth:${ha2}`)}", qop=auth, nc=${nc}, cnonce="${cnonce}"`;
  }
}

function pick(header: string | null | undefined): Challenge | undefined {
  const offers = challengesOf(header).filter((c) => c.scheme === 'digest' && c.params.has('nonce'));
  const algorithmOf = (p: Map<string, string>) => (p.get('algorithm') ?? 'MD5').toUpperCase();
  const best = offers.find((c) => algorithmOf(c.params) === 'SHA-256') ?? offers.find((c) => algorithmOf(c.params) === 'MD5');
  if (!best) return undefined;
  const p = best.params;
  const qop = p.get('qop');
  return { realm: p.get('realm') ?? '', nonce: p.get('nonce')!, opaque: p.get('opaque'), algorithm: algorithmOf(p) as DigestAlgorithm, qop: qop === undefined ? false : qop.split(',').map((s) => s.trim()).includes('auth') };
}

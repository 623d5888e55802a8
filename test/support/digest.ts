import { createHash } from 'node:crypto';
import { request } from 'node:http';

export type Algorithm = 'MD5' | 'SHA-256';

export const hashOf = (algorithm: Algorithm, text: string): string =>
  createHash(algorithm === 'SHA-256' ? 'sha256' : 'md5').update(text).digest('hex');

/** The challenge of one algorithm among the `WWW-Authenticate` values of a 401. */
export function challengeFor(wwwAuthenticate: string | null, algorithm: Algorithm = 'MD5'): string {
  const found = (wwwAuthenticate ?? '').split(/,\s*(?=Digest|Basic)/).find((c) => c.startsWith('Digest') && c.includes(`algorithm=${algorithm}`));
  if (!found) throw new Error(`no ${algorithm} Digest challenge in: ${wwwAuthenticate}`);
  return found;
}

export function fieldOf(challenge: string, name: string): string | undefined {
  return new RegExp(`${name}="?([^",]+)"?`).exec(challenge)?.[1];
}

export interface DigestInput {
  challenge: string;
  user: string;
  method: string;
  uri: string;
  /** The password, or directly an HA1 value (what a stolen database would give). */
  password?: string;
  ha1?: string;
  nc?: number;
  cnonce?: string;
  /** Leave out qop, nc and cnonce (RFC 2069). */
  noQop?: boolean;
}

/** An `Authorization: Digest …` value as RFC 7616 clients compute it. */
export function digestAuthorization(d: DigestInput): string {
  const algorithm = (fieldOf(d.challenge, 'algorithm') ?? 'MD5') as Algorithm;
  const h = (s: string) => hashOf(algorithm, s);
  const nonce = fieldOf(d.challenge, 'nonce')!;
  const ha1 = d.ha1 ?? h(`${d.user}:default:${d.password}`);
  const ha2 = h(`${d.method}:${d.uri}`);
  const base = `Digest username="${d.user}", realm="default", nonce="${nonce}", uri="${d.uri}", algorithm=${algorithm}`;
  if (d.noQop) return `${base}, response="${h(`${ha1}:${nonce}:${ha2}`)}"`;
  const nc = (d.nc ?? 1).toString(16).padStart(8, '0');
  const cnonce = d.cnonce ?? 'abcdef';
  return `${base}, response="${h(`${ha1}:${nonce}:${nc}:${cnonce}:auth:${ha2}`)}", qop=auth, nc=${nc}, cnonce="${cnonce}"`;
}

export interface RawReply { status: number; headers: Record<string, string | string[] | undefined>; text: string }

/** A GET from a chosen local address (127.0.0.0/8 are all this host): lets tests be several clients. */
export function getFrom(localAddress: string, url: string, headers: Record<string, string> = {}): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const req = request(url, { localAddress, headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => { text += c; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end();
  });
}

export const basic = (user: string, password: string): string => 'Basic ' + Buffer.from(`${user}:${password}`).toString('base64');

import type { ParseArgsConfig } from 'node:util';
import { UsageError } from './args';
import { resolveCredentials, type Credentials } from './credentials';
import { challengesOf, DigestSession } from './digest-auth';
import { exchange, isStream, type Body, type Reply } from './http-transport';
import { CommandFailure, EXIT } from './failure';

export const DEFAULT_SERVER = 'http://127.0.0.1:11222';

/** The options of every command that talks to a server (docs/cli.md, Connecting). */
export const CONNECTION_OPTIONS = {
  server: { type: 'string' },
  user: { type: 'string', short: 'u' },
  password: { type: 'string', short: 'p' },
  'netrc-file': { type: 'string' },
  tenant: { type: 'string' },
} as const satisfies ParseArgsConfig['options'];

/**
 * What a command says about a status of its request instead of the server's text; a function gets
 * that text (the first line of the body) and may return undefined to keep it.
 */
export type Explain = Partial<Record<number, string | ((said: string) => string | undefined)>>;

export interface RequestOptions {
  query?: Record<string, string | string[] | undefined>;
  headers?: Record<string, string>;
  body?: Body;
  /** Statuses that are an answer, not a failure (default: any 2xx). */
  ok?: number[];
  explain?: Explain;
}

/**
 * The CLI's one HTTP client: the REST API of any grid server (or the original's), nothing else.
 * Every failure becomes one sentence (CommandFailure): no server, wrong credentials, a refusal.
 */
export class RestClient {
  private readonly basic: string | undefined;
  /** Set once the server turned Basic down and offered Digest. */
  private digest: DigestSession | undefined;

  constructor(
    /** The server's base URL, without a trailing slash. */
    readonly server: string,
    /** `/rest`, or `/rest/<tenant>`. */
    private readonly rest: string,
    readonly credentials: Credentials | undefined,
  ) {
    this.basic = credentials && 'Basic ' + Buffer.from(`${credentials.user}:${credentials.password}`).toString('base64');
  }

  /** Sends a request to `<rest><path>` (path like `/v2/caches/x`) and fails unless its status is expected. */
  async request(method: string, path: string, opts: RequestOptions = {}): Promise<Reply> {
    let response = await this.send(method, path, opts);
    if ((response.status === 401 || response.status === 403) && !isStream(opts.body) && await this.switchToDigest(response)) {
      response.discard();
      response = await this.send(method, path, opts);
    }
    const expected = opts.ok ? opts.ok.includes(response.status) : response.status >= 200 && response.status < 300;
    if (expected) return response;
    throw await this.failure(response, opts.explain ?? {});
  }

  async json<T>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
    const text = await (await this.request(method, path, opts)).text();
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new CommandFailure(`${this.server} answered ${method} ${path} with something that is not JSON: is it a grid server?`);
    }
  }

  private async send(method: string, path: string, opts: RequestOptions): Promise<Reply> {
    const url = new URL(this.server + this.rest + path);
    for (const [name, value] of Object.entries(opts.query ?? {})) {
      for (const v of value === undefined ? [] : Array.isArray(value) ? value : [value]) url.searchParams.append(name, v);
    }
    const headers = { ...opts.headers };
    const authorization = this.digest ? this.digest.authorization(method, url.pathname + url.search) : this.basic;
    if (authorization) headers.Authorization = authorization;
    try {
      return await exchange(url, method, headers, opts.body);
    } catch (err) {
      throw this.unreachable(err);
    }
  }

  /**
   * Basic goes first (one round trip). A server that takes no Basic — the original configured so, or
   * grid with --auth-mechanisms digest: 401 without a Basic challenge, or 403 ISPN080052 ("the
   * request authentication mechanism 'BASIC' is not supported") — gets Digest from then on, and so
   * does one whose Digest nonce went stale. A streamed body cannot be sent twice: commands that
   * stream one make a small request first (login).
   */
  private async switchToDigest(response: Reply): Promise<boolean> {
    if (!this.credentials) return false;
    let header = response.header('www-authenticate');
    if (this.digest) return response.status === 401 && this.digest.renew(header);
    if (response.status === 403) {
      if (!(await response.text()).includes('ISPN080052')) return false;
      // the challenge comes with a 401 to a request without credentials
      const probe = await exchange(new URL(this.server + this.rest + '/v2/caches'), 'GET', {}, undefined).catch(() => undefined);
      probe?.discard();
      header = probe?.status === 401 ? probe.header('www-authenticate') : undefined;
    } else if (challengesOf(header).some((c) => c.scheme === 'basic')) {
      return false;
    }
    this.digest = DigestSession.from(header, this.credentials);
    return this.digest !== undefined;
  }

  /** A small authenticated request, so that a streamed upload after it goes with the right scheme. */
  async login(path: string): Promise<void> {
    (await this.request('GET', path)).discard();
  }

  private unreachable(err: unknown): CommandFailure {
    const code = (err as NodeJS.ErrnoException).code ?? '';
    if (/CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS/.test(code)) {
      return new CommandFailure(`the TLS certificate of ${this.server} is not trusted (${code}): give its CA with NODE_EXTRA_CA_CERTS=FILE`);
    }
    return new CommandFailure(`no grid server answers at ${this.server} — is it running?`, EXIT.noServer);
  }

  private async failure(response: Reply, explain: Explain): Promise<CommandFailure> {
    if (response.status === 401) {
      return new CommandFailure(this.credentials
        ? `wrong user or password for ${this.server}; give -u/-p or GRID_USER/GRID_PASSWORD`
        : `${this.server} needs a user and password; give -u/-p or GRID_USER/GRID_PASSWORD`);
    }
    const said = serverText(await response.text().catch(() => ''));
    const rule = explain[response.status];
    const own = typeof rule === 'function' ? rule(said) : rule;
    if (own) return new CommandFailure(own);
    if (response.status === 403) {
      return new CommandFailure(`user '${this.credentials?.user ?? 'anonymous'}' may not do this on ${this.server}${said ? ` (${said})` : ''}`);
    }
    return new CommandFailure(said ? `the server refused (${response.status}): ${said}` : `the server answered ${response.status} ${response.statusText}`);
  }
}

/** The first line of an error body; a query error's JSON `{"error":{"message","cause"}}` as `message: cause`. */
function serverText(body: string): string {
  const text = body.trim();
  if (text.startsWith('{')) {
    try {
      const e = (JSON.parse(text) as { error?: { message?: string; cause?: string | null } }).error;
      if (e?.message) return e.cause ? `${e.message}: ${e.cause}` : e.message;
    } catch { /* not JSON after all: shown as text */ }
  }
  const line = text.split('\n')[0];
  return line.length > 300 ? line.slice(0, 300) + '…' : line;
}

/** The client for the --server / -u / -p / --netrc-file / --tenant values of a command line. */
export function connect(values: Record<string, unknown>, env: NodeJS.ProcessEnv = process.env): RestClient {
  const raw = (values.server as string | undefined) ?? env.GRID_SERVER ?? DEFAULT_SERVER;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`--server '${raw}' is not a URL: give one like ${DEFAULT_SERVER}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--server '${raw}' is not an http:// or https:// URL`);
  const credentials = resolveCredentials(url.hostname, {
    user: values.user as string | undefined,
    password: values.password as string | undefined,
    netrcFile: values['netrc-file'] as string | undefined,
    env,
  });
  const tenant = values.tenant as string | undefined;
  const server = url.origin + url.pathname.replace(/\/+$/, '');
  return new RestClient(server, tenant === undefined ? '/rest' : `/rest/${encodeURIComponent(tenant)}`, credentials);
}

/** One path segment: a cache, key, schema, counter, task or backup name, any character allowed. */
export function seg(name: string): string {
  return encodeURIComponent(name);
}

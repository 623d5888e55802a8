export interface Credentials {
  user: string;
  password: string;
}

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  bytes: Buffer;
  json<T = unknown>(): T;
}

export interface RequestOptions {
  body?: string | Buffer;
  headers?: Record<string, string>;
}

/**
 * A tiny HTTP client over fetch: real requests, Basic credentials when given. The address may be a
 * function, read at each request: a client of useServer's server is made before that server starts.
 */
export class Client {
  constructor(private readonly address: string | (() => string), private readonly credentials?: Credentials) {}

  get url(): string {
    return typeof this.address === 'string' ? this.address : this.address();
  }

  async request(method: string, path: string, opts: RequestOptions = {}): Promise<Reply> {
    const headers: Record<string, string> = { ...opts.headers };
    if (this.credentials && !('authorization' in lower(headers))) {
      headers.Authorization = 'Basic ' + Buffer.from(`${this.credentials.user}:${this.credentials.password}`).toString('base64');
    }
    const url = this.url + path;
    let res = await fetch(url, { method, headers, body: opts.body, redirect: 'manual' });
    const location = res.headers.get('location');
    if (res.status === 307 && location && /^https?:\/\//.test(location) && new URL(location).origin !== new URL(url).origin) {
      // another grid node holds what was asked for (docs/scale-out.md, "Backups and restores"): followed with
      // the credentials, as `curl --location-trusted` does (fetch drops them on a redirect to another origin)
      res = await fetch(location, { method, headers, body: opts.body, redirect: 'manual' });
    } else if (res.status >= 300 && res.status < 400 && location) {
      res = await fetch(url, { method, headers, body: opts.body }); // any other redirect: fetch's own following
    }
    const bytes = Buffer.from(await res.arrayBuffer());
    const text = bytes.toString('utf8');
    return { status: res.status, headers: res.headers, text, bytes, json: <T>() => JSON.parse(text) as T };
  }

  get(path: string, headers?: Record<string, string>): Promise<Reply> { return this.request('GET', path, { headers }); }
  head(path: string, headers?: Record<string, string>): Promise<Reply> { return this.request('HEAD', path, { headers }); }
  delete(path: string, headers?: Record<string, string>): Promise<Reply> { return this.request('DELETE', path, { headers }); }
  put(path: string, body?: string | Buffer, headers?: Record<string, string>): Promise<Reply> { return this.request('PUT', path, { body, headers }); }
  post(path: string, body?: string | Buffer, headers?: Record<string, string>): Promise<Reply> { return this.request('POST', path, { body, headers }); }

  /** Creates a cache from a JSON configuration; throws unless the server says 200. */
  async createCache(name: string, config: unknown = { 'local-cache': {} }): Promise<void> {
    const r = await this.post(`/rest/v2/caches/${encodeURIComponent(name)}`, JSON.stringify(config), { 'Content-Type': 'application/json' });
    if (r.status !== 200) throw new Error(`creating cache ${name}: ${r.status} ${r.text}`);
  }
}

function lower(h: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));
}

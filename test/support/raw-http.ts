import { request, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';

export interface RawReply {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body exactly as it came over the wire (still compressed, if it was). */
  body: Buffer;
}

export interface RawRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
  /** Send the body with `Transfer-Encoding: chunked`, in pieces of this many bytes. */
  chunked?: number;
}

export const basicAuth = (user: string): Record<string, string> => ({
  Authorization: 'Basic ' + Buffer.from(`${user}:${user}-pw`).toString('base64'),
});

/**
 * One request over node:http, which (unlike fetch) neither adds `Accept-Encoding` nor decodes
 * the answer: what the tests of content codings need to see.
 */
export function rawRequest(baseUrl: string, path: string, opts: RawRequest = {}): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const req = openRequest(baseUrl, path, opts, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

/** The response as a stream, for answers that do not end (server-sent events). */
export function rawStream(baseUrl: string, path: string, opts: RawRequest = {}): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    openRequest(baseUrl, path, opts, resolve).on('error', reject);
  });
}

function openRequest(baseUrl: string, path: string, opts: RawRequest, onResponse: (res: IncomingMessage) => void) {
  const url = new URL(path, baseUrl);
  const body = typeof opts.body === 'string' ? Buffer.from(opts.body) : opts.body;
  const headers: Record<string, string> = { ...opts.headers };
  if (body && !opts.chunked) headers['Content-Length'] = String(body.length);
  // the path goes out as written: no URL parser resolves `..` or `%2e%2e` on the way
  const req = request({ host: url.hostname, port: url.port, path: path.startsWith('/') ? path : url.pathname + url.search, method: opts.method ?? 'GET', headers }, onResponse);
  if (body && opts.chunked) {
    for (let i = 0; i < body.length; i += opts.chunked) req.write(body.subarray(i, i + opts.chunked));
  } else if (body) {
    req.write(body);
  }
  req.end();
  return req;
}

/**
 * One request over node:http naming every header the server sees, `Host` included (fetch will
 * not let a test set it), as a browser tricked by DNS rebinding would send them.
 */
export function requestWithHost(url: string, method: string, path: string, headers: Record<string, string>, body?: string): Promise<{ status: number; headers: IncomingHttpHeaders; text: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, method, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect, type ClientHttp2Session, constants } from 'node:http2';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** One answer, whatever protocol carried it. */
export interface Exchange {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  text: string;
  /** `1.1` or `2`, as the client saw it. */
  version: string;
  /** Interim answers before this one (101 for an upgrade), where the client shows them. */
  interim: number[];
}

export interface RequestOptions {
  headers?: Record<string, string>;
  body?: string | Buffer;
}

/** A streaming GET left open: `text()` is what arrived so far. */
export interface OpenStream {
  status: number;
  version: string;
  text(): string;
  close(): void;
}

/** A real client speaking one protocol to one server. */
export interface Transport {
  name: string;
  request(method: string, path: string, opts?: RequestOptions): Promise<Exchange>;
  stream(path: string, headers: Record<string, string>): Promise<OpenStream>;
  close(): void;
}

export function basic(user: string, password = `${user}-pw`): Record<string, string> {
  return { Authorization: 'Basic ' + Buffer.from(`${user}:${password}`).toString('base64') };
}

function flatten(headers: IncomingHttpHeaders | Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined && !k.startsWith(':')) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v);
  return out;
}

function exchange(status: number, headers: Record<string, string>, body: Buffer, version: string, interim: number[] = []): Exchange {
  return { status, headers, body, text: body.toString('utf8'), version, interim };
}

/** node:http or node:https with ALPN http/1.1; `ca` verifies the server's certificate. */
export function http1Transport(base: string, tls: { ca?: string | Buffer } = {}): Transport {
  const secure = base.startsWith('https:');
  const send = (method: string, path: string, headers: Record<string, string>, onResponse: (res: import('node:http').IncomingMessage) => void) => {
    const options = { method, headers, ...(secure ? { ca: tls.ca, ALPNProtocols: ['http/1.1'], servername: undefined } : {}) };
    const req = (secure ? httpsRequest : httpRequest)(new URL(path, base), options, onResponse);
    return req;
  };
  return {
    name: secure ? 'HTTP/1.1 over TLS (ALPN http/1.1, node:https)' : 'HTTP/1.1 (node:http)',
    request: (method, path, opts = {}) => new Promise((resolve, reject) => {
      const req = send(method, path, opts.headers ?? {}, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve(exchange(res.statusCode!, flatten(res.headers), Buffer.concat(chunks), res.httpVersion)));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(opts.body);
    }),
    stream: (path, headers) => new Promise((resolve, reject) => {
      let text = '';
      const req = send('GET', path, headers, (res) => {
        res.on('data', (c: Buffer) => { text += c.toString(); });
        res.on('error', () => undefined);
        resolve({ status: res.statusCode!, version: res.httpVersion, text: () => text, close: () => req.destroy() });
      });
      req.on('error', reject);
      req.end();
    }),
    close: () => undefined,
  };
}

/** node:http2: h2c with prior knowledge for `http:`, ALPN h2 for `https:`; one session for all requests. */
export function h2Transport(base: string, tls: { ca?: string | Buffer } = {}): Transport & { session(): ClientHttp2Session } {
  let session: ClientHttp2Session | undefined;
  const open = () => {
    if (!session || session.closed || session.destroyed) {
      session = connect(base, { ca: tls.ca });
      session.on('error', () => undefined);
    }
    return session;
  };
  const start = (method: string, path: string, headers: Record<string, string>, endStream: boolean) => {
    const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
    return open().request({ ':method': method, ':path': path, ...lower }, { endStream });
  };
  return {
    name: base.startsWith('https:') ? 'HTTP/2 over TLS (ALPN h2, node:http2)' : 'HTTP/2 h2c prior knowledge (node:http2)',
    session: open,
    request: (method, path, opts = {}) => new Promise((resolve, reject) => {
      const stream = start(method, path, opts.headers ?? {}, opts.body === undefined);
      const chunks: Buffer[] = [];
      let head: Record<string, unknown> = {};
      stream.on('response', (h) => { head = h; });
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => resolve(exchange(Number(head[':status']), flatten(head), Buffer.concat(chunks), '2')));
      stream.on('error', reject);
      stream.on('close', () => {
        if (stream.rstCode && stream.rstCode !== constants.NGHTTP2_NO_ERROR) reject(new Error(`stream reset with code ${stream.rstCode}`));
      });
      if (opts.body !== undefined) stream.end(opts.body);
    }),
    stream: (path, headers) => new Promise((resolve, reject) => {
      let text = '';
      const stream = start('GET', path, headers, true);
      stream.on('data', (c: Buffer) => { text += c.toString(); });
      stream.on('error', () => undefined);
      stream.once('response', (h) => resolve({ status: Number(h[':status']), version: '2', text: () => text, close: () => stream.close() }));
      stream.once('close', () => reject(new Error('stream closed before its response')));
    }),
    close: () => session?.close(),
  };
}

/**
 * The curl command line tool with the given protocol flags (`--http2`, `--http2-prior-knowledge`,
 * `-k`…). Run asynchronously: the server under test shares this process's event loop.
 */
export function curlTransport(base: string, name: string, flags: string[]): Transport {
  const dir = mkdtempSync(join(tmpdir(), 'grid-curl-'));
  let n = 0;
  const args = (headers: Record<string, string>) => Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]);
  return {
    name,
    request: (method, path, opts = {}) => new Promise((resolve, reject) => {
      const id = ++n;
      const headFile = join(dir, `${id}.head`);
      const bodyFile = join(dir, `${id}.body`);
      const methodArgs = method === 'HEAD' ? ['-I'] : ['-X', method];
      const bodyFileIn = join(dir, `${id}.in`);
      if (opts.body !== undefined) writeFileSync(bodyFileIn, opts.body);
      const bodyArgs = opts.body === undefined ? [] : ['--data-binary', `@${bodyFileIn}`];
      execFile('curl', ['-s', '-S', ...flags, ...methodArgs, ...args(opts.headers ?? {}), ...bodyArgs, '-D', headFile, '-o', bodyFile,
        '-w', '%{http_version}', '--max-time', '20', new URL(path, base).href], (err, stdout, stderr) => {
        if (err) return reject(new Error(`curl ${flags.join(' ')} ${method} ${path}: ${stderr || err.message}`));
        // with an upgrade, the 101's header block comes first: the answer is the last block
        const blocks = readFileSync(headFile, 'latin1').split('\r\n\r\n').filter((b) => b.trim() !== '');
        const interim = blocks.slice(0, -1).map((b) => Number(b.split(' ')[1]));
        const lines = blocks[blocks.length - 1].split('\r\n');
        const status = Number(lines[0].split(' ')[1]);
        const headers: Record<string, string> = {};
        for (const line of lines.slice(1)) {
          const at = line.indexOf(':');
          const k = line.slice(0, at).trim().toLowerCase();
          headers[k] = headers[k] ? `${headers[k]}, ${line.slice(at + 1).trim()}` : line.slice(at + 1).trim();
        }
        const body = method === 'HEAD' ? Buffer.alloc(0) : readFileSync(bodyFile);
        resolve(exchange(status, headers, body, stdout.trim(), interim));
      });
    }),
    stream: (path, headers) => new Promise((resolve, reject) => {
      const child: ChildProcess = spawn('curl', ['-s', '-N', '-i', ...flags, ...args(headers), new URL(path, base).href]);
      let text = '';
      let answered = false;
      child.stdout!.on('data', (c: Buffer) => {
        text += c.toString();
        // after an upgrade the 101's header block comes first; the answer's block must be complete
        const blocks = text.split('\r\n\r\n');
        const at = blocks.findIndex((b) => /^HTTP\/\S+ (?!101)\d{3}/.test(b));
        if (answered || at < 0 || blocks.length <= at + 1) return;
        answered = true;
        const [, version, status] = /^HTTP\/(\S+) (\d{3})/.exec(blocks[at])!;
        resolve({ status: Number(status), version, text: () => text, close: () => child.kill() });
      });
      child.once('exit', () => { if (!answered) reject(new Error(`curl stream ended: ${text}`)); });
    }),
    close: () => rmSync(dir, { recursive: true, force: true }),
  };
}

import { Agent, request } from 'node:http';
import type { FuzzRequest } from './fuzz-requests';

const REQUEST_TIMEOUT_MS = 30_000;

export interface Outcome { status: number; bodyBytes: number; head?: string; error?: string }

/**
 * What the oracle says about one answer: undefined when it is fine. A 500 passes only with one of
 * the original's message ids (counter bounds, failed backups… answer 500 there too); an unexpected
 * error (`Internal server error`) never does.
 */
export function violation(r: FuzzRequest, o: Outcome): string | undefined {
  if (o.error) return `no answer: ${o.error}`;
  if (o.status === 500 && !/^ISPN\d+/.test(o.head ?? '')) return `500 for a client request (${o.head ?? ''})`;
  if (o.status > 500 && o.status !== 501 && o.status !== 503) return `${o.status}`;
  if (o.status >= 500 && o.bodyBytes === 0 && r.method !== 'HEAD') return `${o.status} without a reason`;
  if (o.status >= 400 && o.status < 500 && o.status !== 401 && r.method !== 'HEAD' && o.bodyBytes === 0) return `${o.status} without a reason`;
  return undefined;
}

export function send(baseUrl: string, agent: Agent, r: FuzzRequest): Promise<Outcome> {
  const headers: Record<string, string> = { ...r.headers };
  if (r.as === 'wrong-password') headers.Authorization = 'Basic ' + Buffer.from('admin:not-the-password').toString('base64');
  else if (r.as !== 'anonymous') headers.Authorization = 'Basic ' + Buffer.from(`${r.as}:${r.as}-pw`).toString('base64');
  if (r.body) headers['Content-Length'] = String(r.body.length);
  return new Promise((resolve) => {
    let req: ReturnType<typeof request>;
    try {
      req = request(baseUrl + r.path.replace(/ /g, '%20'), { method: r.method, headers, agent, timeout: REQUEST_TIMEOUT_MS });
    } catch (err) {
      // the client library refuses it (a header value it will not send): nothing reached the server
      resolve({ status: -1, bodyBytes: 0 });
      return;
    }
    req.once('response', (res) => {
      let bodyBytes = 0;
      // an event stream stays open by design: its status and first bytes are enough
      if ((res.headers['content-type'] ?? '').startsWith('text/event-stream')) {
        res.destroy();
        resolve({ status: res.statusCode ?? 0, bodyBytes: 1 });
        return;
      }
      let head = '';
      res.on('data', (c: Buffer) => {
        if (bodyBytes < 200) head += c.subarray(0, 200 - bodyBytes).toString('latin1');
        bodyBytes += c.length;
      });
      res.once('end', () => resolve({ status: res.statusCode ?? 0, bodyBytes, head }));
      res.once('error', (err) => resolve({ status: res.statusCode ?? 0, bodyBytes, error: err.message }));
    });
    req.once('timeout', () => req.destroy(new Error(`no answer in ${REQUEST_TIMEOUT_MS} ms`)));
    req.once('error', (err) => resolve({ status: 0, bodyBytes: 0, error: err.message }));
    req.end(r.body);
  });
}

export function describeRequest(r: FuzzRequest): string {
  const body = r.body ? ` body(${r.body.length})=${JSON.stringify(r.body.subarray(0, 120).toString('latin1'))}` : '';
  return `${r.method} ${r.path} as ${r.as} ${JSON.stringify(r.headers)}${body}`;
}

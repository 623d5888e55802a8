import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';

/** A request body: bytes, or a stream (an archive being uploaded) with its length when known. */
export type Body = string | Buffer | { stream: Readable; length?: number };

/** An answer: status and headers at once, the body read when asked (once; text() and bytes() share it). */
export class Reply {
  private read: Promise<Buffer> | undefined;

  constructor(private readonly message: IncomingMessage) {}

  get status(): number { return this.message.statusCode ?? 0; }
  get statusText(): string { return this.message.statusMessage ?? ''; }
  /** The body as a stream, for downloads; not with text() or bytes(). */
  get stream(): Readable { return this.message; }

  header(name: string): string | undefined {
    const v = this.message.headers[name.toLowerCase()];
    return Array.isArray(v) ? v.join(', ') : v;
  }

  bytes(): Promise<Buffer> {
    this.read ??= (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of this.message) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    })();
    return this.read;
  }

  async text(): Promise<string> {
    return (await this.bytes()).toString('utf8');
  }

  /** Drops an unread body, so the connection can serve the next request. */
  discard(): void {
    if (!this.read) this.message.resume();
  }
}

/**
 * One HTTP(S) exchange over node:http. Not fetch: in Node 20 its first use costs about 0.4 s and
 * 40 MB (undici starts up), which a command run many times in a script pays every time.
 */
export function exchange(url: URL, method: string, headers: Record<string, string>, body: Body | undefined): Promise<Reply> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const outgoing: Record<string, string | number> = { ...headers };
    if (typeof body === 'string' || Buffer.isBuffer(body)) outgoing['Content-Length'] = Buffer.byteLength(body);
    else if (body?.length !== undefined) outgoing['Content-Length'] = body.length;
    // one connection per request, closed after it: an answer a command does not read (a 204, a
    // confirmation) cannot then keep the process waiting for the server's keep-alive timeout
    const req = send(url, { method, headers: outgoing, agent: false }, (res) => resolve(new Reply(res)));
    req.on('error', reject);
    if (body === undefined) req.end();
    else if (typeof body === 'string' || Buffer.isBuffer(body)) req.end(body);
    else {
      body.stream.on('error', (err) => req.destroy(err));
      body.stream.pipe(req);
    }
  });
}

export function isStream(body: Body | undefined): body is { stream: Readable; length?: number } {
  return body !== undefined && typeof body !== 'string' && !Buffer.isBuffer(body);
}

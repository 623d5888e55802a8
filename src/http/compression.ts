import type { Context } from 'koa';
import { pipeline, Stream } from 'node:stream';
import { compressBytes, createEncoder, responseCoding } from './content-coding';

/**
 * Compresses the response the handler wrote when the request's `Accept-Encoding` allows gzip or
 * deflate, as the original's Netty HttpContentCompressor (threshold 0, level 6) does: never for
 * HEAD, 1xx/204/304, HTTP/1.0, an empty body or a response that already names its
 * Content-Encoding. Whole bodies are compressed on the thread pool and keep a Content-Length;
 * streams (key listings, backup downloads, server-sent events) go through zlib chunk by chunk,
 * each chunk flushed, so nothing is buffered and events still arrive when they are sent.
 */
export async function compressResponse(ctx: Context): Promise<void> {
  if (ctx.method === 'HEAD' || ctx.status < 200 || ctx.status === 204 || ctx.status === 304) return;
  if (ctx.req.httpVersion === '1.0') return;
  if (ctx.response.get('Content-Encoding')) return;
  const body: unknown = ctx.body;
  if (body === null || body === undefined || body === '') return;
  const coding = responseCoding(ctx.get('accept-encoding') || undefined);
  if (!coding) return;
  if (body instanceof Stream) {
    const encoder = createEncoder(coding);
    // a failing source fails the encoder, which Koa treats as the body failing
    pipeline(body as unknown as NodeJS.ReadableStream, encoder, () => undefined);
    ctx.body = encoder;
  } else {
    const bytes = Buffer.isBuffer(body) ? body : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
    if (bytes.length === 0) return;
    ctx.body = await compressBytes(coding, bytes);
  }
  ctx.set('Content-Encoding', coding);
  ctx.vary('Accept-Encoding');
}

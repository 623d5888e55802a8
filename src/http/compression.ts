import type { Context } from 'koa';
import { pipeline, Readable, Stream } from 'node:stream';
import { compressBytes, createEncoder, responseCoding } from './content-coding';

/**
 * Media types whose bodies are compressed already (archives, images, fonts, audio and video):
 * compressing them again costs CPU and usually adds bytes. The original compresses every body;
 * grid sends these as they are (docs/compatibility.md).
 */
const ALREADY_COMPRESSED: ReadonlySet<string> = new Set([
  'application/zip', 'application/gzip', 'application/x-gzip', 'application/x-bzip2', 'application/x-xz',
  'application/zstd', 'application/x-7z-compressed', 'application/vnd.rar', 'application/x-rar-compressed',
  'image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif',
  'font/woff', 'font/woff2', 'application/font-woff',
  'audio/mpeg', 'audio/ogg', 'audio/aac', 'video/mp4', 'video/mpeg', 'video/webm', 'video/ogg',
]);

export function isAlreadyCompressed(contentType: string): boolean {
  return ALREADY_COMPRESSED.has(contentType.split(';', 1)[0].trim().toLowerCase());
}

/**
 * Compresses the response the handler wrote when the request's `Accept-Encoding` allows gzip or
 * deflate, as the original's Netty HttpContentCompressor (threshold 0, level 6) does: never for
 * 1xx/204/304, HTTP/1.0, an empty body or a response that already names its Content-Encoding —
 * nor, unlike the original, for a body whose type is compressed already. Whole bodies are
 * compressed on the thread pool and keep a Content-Length; streams (key listings, server-sent
 * events) go through zlib chunk by chunk, each chunk flushed, so nothing is buffered and events
 * still arrive when they are sent.
 *
 * HEAD gets the headers GET would (RFC 9110 §9.3.2) — Content-Encoding and Vary — but no
 * Content-Length: only compressing the body would tell it, and a HEAD must not announce the
 * uncompressed length that GET would not send (§8.6). Netty leaves HEAD uncoded instead.
 */
export async function compressResponse(ctx: Context): Promise<void> {
  if (ctx.status < 200 || ctx.status === 204 || ctx.status === 304) return;
  if (ctx.req.httpVersion === '1.0') return;
  if (ctx.response.get('Content-Encoding')) return;
  if (isAlreadyCompressed(ctx.response.get('Content-Type') || '')) return;
  const body: unknown = ctx.body;
  if (body === null || body === undefined || body === '') return;
  const coding = responseCoding(ctx.get('accept-encoding') || undefined);
  if (!coding) return;
  if (ctx.method === 'HEAD') {
    if (Buffer.isBuffer(body) && body.length === 0) return;
    // a body of unknown length: Koa then sends no Content-Length for it (nor a body, for HEAD)
    if (!(body instanceof Stream)) ctx.body = Readable.from([]);
    ctx.remove('Content-Length');
  } else if (body instanceof Stream) {
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

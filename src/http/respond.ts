import type { Context } from 'koa';
import { Readable } from 'node:stream';
import { inChunks } from '../util/slices';

const TEXT = 'text/plain; charset=utf-8';

export function sendText(ctx: Context, text: string, contentType = TEXT, status = 200): void {
  ctx.status = status;
  ctx.type = contentType;
  ctx.body = text;
}

export function sendJson(ctx: Context, value: unknown, status = 200): void {
  ctx.status = status;
  setJsonType(ctx);
  ctx.body = JSON.stringify(value);
}

/**
 * A JSON array streamed a few items at a time (src/util/slices.ts `inChunks`): for lists whose
 * items grow with stored state (every cache with its configuration or aliases). The text is what
 * `JSON.stringify(items, null, pretty ? 2 : undefined)` gives.
 */
export function sendJsonArray(ctx: Context, items: Iterable<unknown>, pretty = false): void {
  ctx.status = 200;
  setJsonType(ctx);
  ctx.body = Readable.from(inChunks(jsonArray(items, pretty)));
}

function* jsonArray(items: Iterable<unknown>, pretty: boolean): Generator<string> {
  let first = true;
  for (const item of items) {
    const text = JSON.stringify(item, null, pretty ? 2 : undefined);
    if (!pretty) yield `${first ? '[' : ','}${text}`;
    else yield `${first ? '[\n  ' : ',\n  '}${text.replace(/\n/g, '\n  ')}`;
    first = false;
  }
  yield first ? '[]' : pretty ? '\n]' : ']';
}

/** `application/json` as the original writes it: Koa's `ctx.type` would add `; charset=utf-8`. */
export function setJsonType(ctx: Context): void {
  ctx.set('Content-Type', 'application/json');
}

export function sendBytes(ctx: Context, bytes: Buffer, contentType: string): void {
  ctx.status = 200;
  ctx.body = bytes;
  ctx.set('Content-Type', contentType);
}

/** Bytes a stream of parts hands the socket before it lets other work run. */
const TURN_BYTES = 1024 * 1024;

/** A body made of parts, written one after the other with its Content-Length: a large answer is never one buffer. */
export function sendParts(ctx: Context, parts: Buffer[]): void {
  if (parts.length === 1) {
    ctx.body = parts[0];
    return;
  }
  ctx.body = partsStream(parts);
  ctx.length = parts.reduce((n, p) => n + p.length, 0);
}

/**
 * The parts as a stream that gives the event loop a turn every TURN_BYTES. A socket whose reader
 * keeps up (loopback, a fast client) accepts each write at once and asks for more in the same
 * turn, so a plain stream of 100 MB is written in one go: 0.3-0.9 s without any other request.
 */
function partsStream(parts: Buffer[]): Readable {
  let next = 0;
  let sent = 0;
  return new Readable({
    read() {
      const part = next < parts.length ? parts[next++] : null;
      sent += part?.length ?? 0;
      if (sent < TURN_BYTES) return void this.push(part);
      sent = 0;
      setImmediate(() => this.push(part));
    },
  });
}

/** A status with an empty body and `Content-Length: 0` (the original's empty responses). */
export function sendStatus(ctx: Context, status: number): void {
  ctx.status = status;
  ctx.body = '';
  ctx.remove('Content-Type');
}

export function noContent(ctx: Context): void {
  ctx.status = 204;
  ctx.body = null;
}

const EMPTY_STATUSES = new Set([204, 205, 304]);

/**
 * Koa leaves HEAD requests over HTTP/2 unanswered: Node ends a HEAD stream's writable side as soon
 * as the stream opens, and Koa takes an unwritable response for one already sent. Answers them
 * as Koa answers HEAD over HTTP/1.1: status, headers and the body's length, no body.
 */
export function answerHeadOverHttp2(ctx: Context): void {
  if (ctx.method !== 'HEAD' || ctx.req.httpVersionMajor < 2 || ctx.res.headersSent) return;
  ctx.respond = false;
  if (EMPTY_STATUSES.has(ctx.status)) ctx.body = null;
  else if (!ctx.res.hasHeader('content-length') && Number.isInteger(ctx.response.length)) ctx.length = ctx.response.length;
  ctx.res.end();
}

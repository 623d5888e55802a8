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

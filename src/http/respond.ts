import type { Context } from 'koa';

const TEXT = 'text/plain; charset=utf-8';

export function sendText(ctx: Context, text: string, contentType = TEXT, status = 200): void {
  ctx.status = status;
  ctx.type = contentType;
  ctx.body = text;
}

export function sendJson(ctx: Context, value: unknown, status = 200): void {
  ctx.status = status;
  ctx.type = 'application/json';
  ctx.body = JSON.stringify(value);
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

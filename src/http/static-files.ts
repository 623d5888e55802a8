import type { Stats } from 'node:fs';
import { type FileHandle, open, realpath } from 'node:fs/promises';
import { extname, join, sep } from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import type { Context } from 'koa';
import { headerDate } from './request-headers';

/** One month, as the original's static content (docs/reference/management-plane.md#console). */
const MAX_AGE_SECONDS = 60 * 60 * 24 * 31;

/** Types by extension, for what a single-page application ships (the original: MediaTypeResolver). */
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.eot': 'application/vnd.ms-fontobject',
  '.wasm': 'application/wasm',
};

export function contentTypeOf(path: string): string {
  return CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * The file segments name inside `root` (a real path), opened; undefined when there is none or the
 * name would leave `root`. Segments arrive decoded: `..`, `.`, names starting with a dot, a `/` or
 * `\` inside a segment and NUL are refused outright; a symbolic link is followed only if it stays
 * inside `root`. The open handle is what gets read, so the checked file is the one served.
 */
export async function openStaticFile(root: string, segments: string[]): Promise<{ file: FileHandle; stats: Stats } | undefined> {
  if (segments.length === 0 || !segments.every(isPlainName)) return undefined;
  let real: string;
  try {
    real = await realpath(join(root, ...segments));
  } catch {
    return undefined;
  }
  if (!real.startsWith(root.endsWith(sep) ? root : root + sep)) return undefined;
  let file: FileHandle;
  try {
    file = await open(real, 'r');
  } catch {
    return undefined;
  }
  const stats = await file.stat();
  if (!stats.isFile()) {
    await file.close();
    return undefined;
  }
  return { file, stats };
}

/**
 * Starts the answer for an opened static file with the original's cache headers
 * (docs/reference/management-plane.md#console): `Last-Modified`, one month of private `Cache-Control` and `Expires`, and 304 (the file
 * closed) when `If-Modified-Since` is not older than the file. False after a 304; otherwise the
 * status and type are set and the caller sets the body.
 */
export async function answerStaticFile(ctx: Context, opened: { file: FileHandle; stats: Stats }, type: string, now: number): Promise<boolean> {
  const modified = Math.floor(opened.stats.mtimeMs / 1000) * 1000;
  ctx.set('Last-Modified', new Date(modified).toUTCString());
  ctx.set('Cache-Control', `private, max-age=${MAX_AGE_SECONDS}`);
  ctx.set('Expires', new Date(now + MAX_AGE_SECONDS * 1000).toUTCString());
  // a date that does not parse is ignored here (RFC 9110 §13.1.3), unlike on entries
  const since = headerDate(ctx, 'if-modified-since');
  if (typeof since === 'number' && modified <= since) {
    await opened.file.close();
    ctx.status = 304;
    ctx.body = null;
    return false;
  }
  ctx.status = 200;
  ctx.type = type;
  return true;
}

function isPlainName(segment: string): boolean {
  return segment !== '' && !segment.startsWith('.') && !/[/\\\0]/.test(segment);
}

/**
 * Replaces placeholders in a streamed file, so a large file is never held whole: the last bytes of
 * each chunk that could begin a placeholder wait for the next one. Placeholders and values are ASCII.
 */
export class PlaceholderStream extends Transform {
  private carry = '';
  private readonly keep: number;

  constructor(private readonly values: ReadonlyArray<readonly [string, string]>) {
    super();
    this.keep = Math.max(...values.map(([placeholder]) => placeholder.length)) - 1;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    const text = this.replace(this.carry + chunk.toString('latin1'));
    const cut = Math.max(text.length - this.keep, 0);
    this.carry = text.slice(cut);
    done(null, Buffer.from(text.slice(0, cut), 'latin1'));
  }

  override _flush(done: TransformCallback): void {
    done(null, Buffer.from(this.carry, 'latin1'));
  }

  private replace(text: string): string {
    let out = text;
    for (const [placeholder, value] of this.values) out = out.split(placeholder).join(value);
    return out;
  }
}

import type { Context } from 'koa';
import type { IncomingMessage } from 'node:http';
import { finished, type Readable, Transform, type TransformCallback } from 'node:stream';
import { CorruptContentEncodingError, type GridError, IncompleteBodyError, isGridError, PayloadTooLargeError } from '../errors';
import type { BodyBudget } from './body-budget';
import { type Coding, createDecoder, requestCoding } from './content-coding';

type TooLarge = () => GridError;

/** 413 whose reason names the limit that was passed. */
const tooLargeFor = (limit: number): TooLarge => () => new PayloadTooLargeError(limit);

/**
 * Reads the whole request body, decoded from its `Content-Encoding` (gzip or deflate), refusing
 * more than `limit` decoded bytes with 413 (docs/reference/http.md#limits): a small compressed body that
 * inflates past the limit is stopped there, never held whole. While it arrives it counts against
 * the server's budget for bodies (`ctx.state.bodies`, src/http/body-budget.ts): 503 past it.
 */
export function readBody(ctx: Context, limit: number): Promise<Buffer> {
  refuseIfBroken(ctx);
  const coding = codingOf(ctx);
  if (coding) return collect(ctx, openBody(ctx, limit), limit, coding);
  // A plain body is read straight from the request: the common case pays for no extra stream.
  return collectPlain(ctx, plainBody(ctx, limit, tooLargeFor(limit)) as IncomingMessage, limit);
}

export async function readText(ctx: Context, limit: number): Promise<string> {
  return (await readBody(ctx, limit)).toString('utf8');
}

/**
 * The request body as a stream for parsers that consume it piecewise (multipart): decoded, and
 * failing with `tooLarge()` once more than `limit` decoded bytes came. Errors it emits are GridErrors.
 */
export function openBody(ctx: Context, limit: number, tooLarge: TooLarge = tooLargeFor(limit)): Readable {
  refuseIfBroken(ctx);
  const coding = codingOf(ctx);
  const limited = new ByteLimit(limit, tooLarge);
  if (!coding) {
    const req = plainBody(ctx, limit, tooLarge);
    forwardAbort(req, limited);
    limited.once('close', () => { if (!limited.readableEnded) refuseBody(ctx); });
    return req.pipe(limited);
  }
  // Deflate expands data by at most a few bytes per block: a body much larger on the wire than the
  // limit is padding (empty blocks, empty gzip members) and is cut off as well.
  const wire = new ByteLimit(limit + Math.floor(limit / 64) + 64 * 1024, tooLarge);
  const decoder = createDecoder(coding);
  forwardAbort(ctx.req, wire);
  wire.on('error', (err) => limited.destroy(err));
  decoder.on('error', (err) => limited.destroy(isGridError(err) ? err : new CorruptContentEncodingError(coding, err.message)));
  limited.once('close', () => {
    if (!limited.readableEnded) refuseBody(ctx); // failed or abandoned: the connection closes after the answer
    wire.destroy();
    decoder.destroy();
  });
  return ctx.req.pipe(wire).pipe(decoder).pipe(limited);
}

/** Bodies Node's HTTP parser refused part-way, by request (`failBody`). */
const brokenBodies = new WeakMap<IncomingMessage, GridError>();

/**
 * Node's parser refused the rest of `req`'s body (a broken chunk) while its request was being
 * handled: no more of it comes, and Node tells the request nothing. A reader of the body fails
 * with `err` (now, or when it starts reading), so the request itself answers it.
 */
export function failBody(req: IncomingMessage, err: GridError): void {
  brokenBodies.set(req, err);
  if (req.listenerCount('error') > 0) req.emit('error', err);
}

function refuseIfBroken(ctx: Context): void {
  const err = brokenBodies.get(ctx.req);
  if (!err) return;
  refuseBody(ctx);
  throw err;
}

function codingOf(ctx: Context): Coding | undefined {
  const header = ctx.req.headers['content-encoding'];
  if (header === undefined) return undefined;
  try {
    return requestCoding(header || undefined);
  } catch (err) {
    refuseBody(ctx);
    throw err;
  }
}

/** The socket's body after the declared length was checked against the limit. */
function plainBody(ctx: Context, limit: number, tooLarge: TooLarge): Readable {
  if (Number(ctx.req.headers['content-length'] || 0) > limit) {
    refuseBody(ctx);
    throw tooLarge();
  }
  return ctx.req;
}

/**
 * Stops reading a body that is refused: what still arrives is discarded while the answer is
 * written, and the connection closes after it, so a client cannot keep it busy (the original
 * closes the connection after a 413).
 */
export function refuseBody(ctx: Context): void {
  ctx.req.unpipe();
  ctx.req.resume();
  // HTTP/2 has no Connection header: the stream, not the connection, is reset after the answer
  if (ctx.req.httpVersionMajor >= 2) ctx.state.bodyRefused = true;
  else ctx.set('Connection', 'close');
}

/** A client that goes away mid-body fails the stream instead of leaving its reader waiting. */
function forwardAbort(req: Readable, to: Transform): void {
  const stop = finished(req, (err) => {
    stop();
    if (err) to.destroy(isGridError(err) ? err : new IncompleteBodyError());
  });
}

/** The server's budget for bodies being received, when the app set one. */
function budgetOf(ctx: Context): BodyBudget | undefined {
  return (ctx.state as { bodies?: BodyBudget }).bodies;
}

function collect(ctx: Context, source: Readable, limit: number, coding: Coding | undefined): Promise<Buffer> {
  const budget = budgetOf(ctx);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    let settled = false;
    const settle = (err?: unknown) => {
      if (settled) return;
      settled = true;
      budget?.give(total);
      source.off('data', onData);
      stopWatching();
      if (err === undefined) return resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, total));
      if (source === ctx.req) refuseBody(ctx);
      else source.destroy();
      reject(toGridError(err, coding));
    };
    const onData = (chunk: Buffer) => {
      if (total + chunk.length > limit) return settle(new PayloadTooLargeError());
      try {
        budget?.take(chunk.length);
      } catch (err) {
        return settle(err);
      }
      total += chunk.length;
      chunks.push(chunk);
    };
    source.on('data', onData);
    const stopWatching = finished(source, (err) => settle(err ?? undefined));
  });
}

/**
 * `collect` for the request itself, with its own listeners instead of `finished()` (which watches
 * a stream of any kind, at several times the cost): the body ends with 'end'; an 'error', or a
 * 'close' before the end (the client went away), fails it.
 */
function collectPlain(ctx: Context, req: IncomingMessage, limit: number): Promise<Buffer> {
  if (req.readableEnded) return Promise.resolve(EMPTY); // read already: nothing more comes
  const budget = budgetOf(ctx);
  return new Promise((resolve, reject) => {
    let first: Buffer | undefined;
    let chunks: Buffer[] | undefined;
    let total = 0;
    const stop = () => {
      budget?.give(total);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const fail = (err: unknown) => {
      stop();
      refuseBody(ctx);
      reject(toGridError(err, undefined));
    };
    const onData = (chunk: Buffer) => {
      if (total + chunk.length > limit) return fail(new PayloadTooLargeError());
      try {
        budget?.take(chunk.length);
      } catch (err) {
        return fail(err);
      }
      total += chunk.length;
      if (first === undefined) first = chunk;
      else (chunks ??= [first]).push(chunk);
    };
    const onEnd = () => {
      stop();
      resolve(chunks ? Buffer.concat(chunks, total) : first ?? EMPTY);
    };
    const onError = (err: unknown) => fail(err);
    const onClose = () => fail(new IncompleteBodyError());
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

const EMPTY = Buffer.alloc(0);

function toGridError(err: unknown, coding: Coding | undefined): GridError {
  if (isGridError(err)) return err;
  const code = (err as { code?: unknown }).code;
  if (coding && typeof code === 'string' && code.startsWith('Z_')) return new CorruptContentEncodingError(coding, (err as Error).message);
  return new IncompleteBodyError();
}

/** Passes bytes through until more than `limit` came, then fails with `tooLarge()`. */
class ByteLimit extends Transform {
  private seen = 0;

  constructor(private readonly limit: number, private readonly tooLarge: TooLarge) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.seen += chunk.length;
    if (this.seen > this.limit) return done(this.tooLarge());
    done(null, chunk);
  }
}

/** How long an answered HTTP/2 request may take to finish sending its body. */
const DISCARD_WAIT_MS = 10_000;

/**
 * Over HTTP/2, Node resets a stream whose answer ends before its request body was read
 * (RST_STREAM NO_ERROR, which RFC 9113 §8.1 allows), and some clients — curl 7.88 among them —
 * then drop the answer, e.g. the 401 of a Digest challenge to a PUT. Before the answer leaves,
 * reads and discards what the handler left of a body that fits `limit`, for at most 10 s; past
 * that, and for a refused body (`refuseBody`), the reset stands. HTTP/1.1 needs nothing: Node drains or closes the connection itself.
 */
export async function discardUnreadBody(ctx: Context, limit: number): Promise<void> {
  const req = ctx.req as Context['req'] & { stream?: { endAfterHeaders: boolean } };
  if (!req.stream || req.stream.endAfterHeaders || req.readableEnded || ctx.state.bodyRefused || ctx.status === 413) return;
  if (Number(ctx.get('content-length') || 0) > limit) return;
  let timer: NodeJS.Timeout | undefined;
  const drained = (async () => {
    let total = 0;
    for await (const chunk of req as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > limit) return;
    }
  })().catch(() => undefined);
  await Promise.race([drained, new Promise((resolve) => { timer = setTimeout(resolve, DISCARD_WAIT_MS); })]);
  clearTimeout(timer);
}

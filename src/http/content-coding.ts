import { Transform, type TransformCallback } from 'node:stream';
import { promisify } from 'node:util';
import { constants, createDeflate, createGunzip, createGzip, createInflate, createInflateRaw, deflate, gzip } from 'node:zlib';
import { UnsupportedContentEncodingError } from '../errors';

/** The two content codings the original's Netty pipeline speaks (docs/reference/http.md#compression). */
export type Coding = 'gzip' | 'deflate';

/** The original's `compression-level` default. */
const LEVEL = 6;

/**
 * The coding of a request body from its `Content-Encoding`: undefined for none or `identity`;
 * `x-gzip` and `x-deflate` are the old names Netty's decompressor also takes. Anything else, or a
 * stack of codings, is a 415 before a byte of the body is read.
 */
export function requestCoding(header: string | undefined): Coding | undefined {
  if (header === undefined) return undefined;
  const codings = header.split(',').map((c) => c.trim().toLowerCase()).filter((c) => c !== '' && c !== 'identity');
  if (codings.length === 0) return undefined;
  if (codings.length > 1) throw new UnsupportedContentEncodingError(header.trim());
  const [coding] = codings;
  if (coding === 'gzip' || coding === 'x-gzip') return 'gzip';
  if (coding === 'deflate' || coding === 'x-deflate') return 'deflate';
  throw new UnsupportedContentEncodingError(coding);
}

/**
 * The coding for a response from `Accept-Encoding`, chosen as Netty's HttpContentCompressor does:
 * the better q of gzip and deflate (gzip on a tie), else `*` picks one the header did not name;
 * q=0 refuses. Other codings (br, zstd) are ignored.
 */
export function responseCoding(header: string | undefined): Coding | undefined {
  if (!header) return undefined;
  let gzip = -1;
  let deflate = -1;
  let star = -1;
  for (const item of header.split(',')) {
    const [name, ...params] = item.split(';');
    const token = name.trim().toLowerCase();
    const qParam = params.map((p) => p.trim().toLowerCase()).find((p) => p.startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    const weight = Number.isFinite(q) ? q : 0;
    if (token === '*') star = weight;
    else if (token === 'gzip' || token === 'x-gzip') gzip = Math.max(gzip, weight);
    else if (token === 'deflate') deflate = Math.max(deflate, weight);
  }
  if (gzip > 0 || deflate > 0) return gzip >= deflate ? 'gzip' : 'deflate';
  if (star > 0) {
    if (gzip === -1) return 'gzip';
    if (deflate === -1) return 'deflate';
  }
  return undefined;
}

/** A streaming inflater for a request body; its output respects the reader's backpressure. */
export function createDecoder(coding: Coding): Transform {
  return new Inflater(coding);
}

/**
 * A streaming compressor for a response. Every chunk written is flushed (Z_SYNC_FLUSH), as Netty's
 * encoder does, so a server-sent event reaches the client when it is sent, not when 32 KiB of them
 * have piled up. Runs on the thread pool: the event loop never waits for it.
 */
export function createEncoder(coding: Coding): Transform {
  const options = { level: LEVEL, flush: constants.Z_SYNC_FLUSH };
  return coding === 'gzip' ? createGzip(options) : createDeflate(options);
}

const gzipAsync = promisify(gzip);
const deflateAsync = promisify(deflate);

/** A whole response body compressed on the thread pool (deflate is zlib-wrapped, as Netty writes it). */
export function compressBytes(coding: Coding, bytes: Buffer): Promise<Buffer> {
  return coding === 'gzip' ? gzipAsync(bytes, { level: LEVEL }) : deflateAsync(bytes, { level: LEVEL });
}

/** zlib-wrapped data starts with a CMF byte naming deflate and a check over the first two bytes (RFC 1950). */
function isZlibHeader(head: Buffer): boolean {
  return (head[0] & 0x0f) === 8 && (head[0] >> 4) <= 7 && ((head[0] << 8) | head[1]) % 31 === 0;
}

/**
 * Inflates a request body. `deflate` comes zlib-wrapped (RFC 9110) or, from some clients, raw;
 * Netty accepts both (ZLIB_OR_NONE), so the first two bytes choose the inflater. A body with no
 * bytes at all is empty, whatever its label. Output is passed on with backpressure: the inner
 * inflater pauses while the reader is behind, so a small body cannot balloon in memory.
 */
class Inflater extends Transform {
  private inner: Transform | undefined;
  private head: Buffer[] = [];
  private headLength = 0;

  constructor(private readonly coding: Coding) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    if (this.inner) return this.feed(chunk, done);
    this.head.push(chunk);
    this.headLength += chunk.length;
    if (this.headLength < 2) return done();
    this.open().write(this.takeHead(), (err) => done(err ?? undefined));
  }

  override _flush(done: TransformCallback): void {
    if (this.headLength === 0) return done();
    // a single byte cannot be a body: the inflater says why
    if (!this.inner) this.open().write(this.takeHead());
    this.inner!.once('end', () => done());
    this.inner!.end();
  }

  override _read(size: number): void {
    this.inner?.resume();
    super._read(size);
  }

  override _destroy(err: Error | null, done: (error?: Error | null) => void): void {
    this.inner?.destroy();
    done(err);
  }

  /** Chooses the inflater once the first bytes are known (they are written by the caller). */
  private open(): Transform {
    const head = this.head[0].length >= 2 ? this.head[0] : Buffer.concat(this.head);
    const inner = this.coding === 'gzip' ? createGunzip() : head.length >= 2 && isZlibHeader(head) ? createInflate() : createInflateRaw();
    inner.on('data', (out: Buffer) => {
      if (!this.push(out)) inner.pause();
    });
    inner.on('error', (err) => this.destroy(err));
    this.inner = inner;
    return inner;
  }

  private takeHead(): Buffer {
    const head = Buffer.concat(this.head);
    this.head = [];
    return head;
  }

  private feed(chunk: Buffer, done: TransformCallback): void {
    this.inner!.write(chunk, (err) => done(err ?? undefined));
  }
}

import {
  constants, type Http2SecureServer, type Http2Server, type Http2ServerRequest, type SecureServerOptions, type ServerHttp2Session, type ServerHttp2Stream, type ServerOptions,
} from 'node:http2';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Limits } from '../../config/limits';
import type { Logger } from '../../util/logger';
import { RateLimitedLog } from '../../util/rate-limited-log';

/** Limits every HTTP/2 connection lives under, plain or TLS (docs/configuration.md, "HTTP/2 limits"). */
export const H2_LIMITS = {
  /** Streams a client may have open at once (SETTINGS_MAX_CONCURRENT_STREAMS). */
  maxConcurrentStreams: 100,
  /** Decoded request header bytes per stream, names + values + 32 each (SETTINGS_MAX_HEADER_LIST_SIZE). */
  maxHeaderListSize: 32 * 1024,
  maxHeaderListPairs: 128,
  /** MB of buffered frames and header tables per session before new streams are refused. */
  maxSessionMemoryMb: 10,
  /** Stream resets by the client: a bucket of this many, refilled at `resetsPerSecond` (CVE-2023-44487). */
  resetBurst: 200,
  resetsPerSecond: 20,
  /** Requests still being handled per session, counting those the client already reset. */
  maxHandlersPerSession: 200,
} as const;

/** The time-outs of HTTP/2 sessions and streams, from the server's limits. */
export type H2Timeouts = Pick<Limits, 'keepAliveTimeout' | 'requestTimeout'>;

export type RequestHandler = (req: IncomingMessage | Http2ServerRequest, res: ServerResponse | import('node:http2').Http2ServerResponse) => unknown;

/**
 * Node's HTTP/2 options for grid's limits. nghttp2 (1.61 in Node 20.20) already acknowledges at
 * most 1000 queued SETTINGS/PING frames and rate-limits RST_STREAM at 1000 + 33/s; grid's own,
 * tighter reset bound and handler bound are in `trackSessions`.
 */
export function h2Options(): ServerOptions & SecureServerOptions {
  return {
    settings: { maxConcurrentStreams: H2_LIMITS.maxConcurrentStreams, maxHeaderListSize: H2_LIMITS.maxHeaderListSize, enablePush: false },
    maxHeaderListPairs: H2_LIMITS.maxHeaderListPairs,
    maxSessionMemory: H2_LIMITS.maxSessionMemoryMb,
    maxSettings: 32,
    maxOutstandingPings: 10,
    maxSessionInvalidFrames: 100,
    maxSessionRejectedStreams: 100,
  };
}

interface SessionState {
  /** Streams not yet closed. */
  open: Set<ServerHttp2Stream>;
  handlers: number;
  resetTokens: number;
  refilledAt: number;
}

const STATE = Symbol('grid.h2');
type TrackedSession = ServerHttp2Session & { [STATE]?: SessionState };

/** The open HTTP/2 sessions of both ports, so shutdown can send each a GOAWAY. */
export class H2Sessions {
  private readonly open = new Set<ServerHttp2Session>();
  private closing = false;

  add(session: ServerHttp2Session): void {
    this.open.add(session);
    session.once('close', () => this.open.delete(session));
    if (this.closing) session.close();
  }

  /** GOAWAY to every session, now and for any that starts later: streams in flight finish, no new ones start. */
  closeAll(): void {
    this.closing = true;
    for (const session of this.open) session.close();
  }
}

/**
 * Adds every new session to `sessions` and puts it under grid's limits: GOAWAY ENHANCE_YOUR_CALM
 * when the client resets streams faster than the bucket allows, and the time-outs:
 * - a stream that goes `requestTimeout` without a frame while it waits on the client (its request
 *   has not ended, or its answer waits for the client to read) is reset (CANCEL): HTTP/1.1's
 *   request time-out, for one stream;
 * - a session that goes `keepAliveTimeout` without a frame either way is closed whatever its
 *   streams, unless one of them waits on the server (a handler still working): with no open
 *   stream by GOAWAY, else at once — a client cannot keep a connection by leaving streams half-sent.
 */
export function trackSessions(server: Http2Server | Http2SecureServer, sessions: H2Sessions, log: Logger, timeouts: H2Timeouts): void {
  const tooFast = new RateLimitedLog(log, 'HTTP/2 client reset streams too fast; connection closed');
  server.on('session', (session: TrackedSession) => {
    const state: SessionState = { open: new Set(), handlers: 0, resetTokens: H2_LIMITS.resetBurst, refilledAt: performance.now() };
    session[STATE] = state;
    sessions.add(session);
    // Node calls a time-out once per quiet period: one still in progress is looked at again a period later
    session.setTimeout(timeouts.keepAliveTimeout);
    session.on('timeout', () => {
      if (state.open.size === 0) session.close();
      else if (![...state.open].some(isServerBusy)) session.destroy();
      else session.setTimeout(timeouts.keepAliveTimeout);
    });
    session.on('stream', (stream: ServerHttp2Stream) => {
      state.open.add(stream);
      let timedOut = false;
      stream.setTimeout(timeouts.requestTimeout);
      stream.on('timeout', () => {
        if (stream.closed) return;
        if (isServerBusy(stream)) return void stream.setTimeout(timeouts.requestTimeout);
        timedOut = true;
        stream.close(constants.NGHTTP2_CANCEL);
      });
      stream.once('close', () => {
        state.open.delete(stream);
        // a reset of ours is not the client's: only the client's count against its bucket
        if (stream.rstCode !== constants.NGHTTP2_NO_ERROR && !timedOut && !takeResetToken(state) && !session.destroyed) {
          tooFast.warn({ remote: session.socket?.remoteAddress });
          session.destroy(new Error('too many stream resets'), constants.NGHTTP2_ENHANCE_YOUR_CALM);
        }
      });
    });
  });
  server.on('sessionError', (err: Error & { code?: string }) => log.debug({ code: err.code }, 'HTTP/2 session error'));
}

/**
 * The stream waits on the server, not on the client: its request has ended (RFC 9113 §5.1:
 * half-closed remote) and nothing of its answer waits for the client to read it.
 */
function isServerBusy(stream: ServerHttp2Stream): boolean {
  return !!stream.state?.remoteClose && stream.writableLength === 0;
}

/**
 * Runs `handle` for HTTP/2 requests unless their session already has `maxHandlersPerSession`
 * requests being handled (streams the client reset stop counting against its concurrency limit
 * at once, but not their handlers): such a stream is refused with REFUSED_STREAM, which a client
 * may retry. A request whose header list passes `maxHeaderListSize` is reset with
 * ENHANCE_YOUR_CALM: nghttp2 enforces that setting only once the client has acknowledged it, so a
 * connection's first requests would otherwise pass with any size. HTTP/1.1 requests pass straight
 * through (Node's parser bounds their headers).
 */
export function boundHandlers(handle: RequestHandler): RequestHandler {
  return (req, res) => {
    if (!('stream' in req)) return handle(req, res);
    if (headerListSize(req.rawHeaders) > H2_LIMITS.maxHeaderListSize) {
      req.stream.close(constants.NGHTTP2_ENHANCE_YOUR_CALM);
      return undefined;
    }
    const state = (req.stream.session as TrackedSession | undefined)?.[STATE];
    if (!state) return handle(req, res);
    if (state.handlers >= H2_LIMITS.maxHandlersPerSession) {
      req.stream.close(constants.NGHTTP2_REFUSED_STREAM);
      return undefined;
    }
    state.handlers++;
    return Promise.resolve(handle(req, res)).finally(() => state.handlers--);
  };
}

/** RFC 9113 §6.5.2's size of a header list: each field's name and value octets plus 32. */
function headerListSize(raw: string[]): number {
  let size = 0;
  for (const field of raw) size += field.length;
  return size + (raw.length / 2) * 32;
}

function takeResetToken(state: SessionState): boolean {
  const now = performance.now();
  state.resetTokens = Math.min(H2_LIMITS.resetBurst, state.resetTokens + ((now - state.refilledAt) / 1000) * H2_LIMITS.resetsPerSecond);
  state.refilledAt = now;
  if (state.resetTokens < 1) return false;
  state.resetTokens--;
  return true;
}

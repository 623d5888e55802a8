import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import { createServer as createH2Server } from 'node:http2';
import type { Socket } from 'node:net';
import type { Logger } from '../../util/logger';
import { answerClientError, answerConnect } from '../client-errors';
import { inRequestOrder } from './http1-order';
import type { ConnectionGuards } from '../connection-guards';
import { PREFACE } from './h2-frames';
import { unread } from './unread';
import { h2cSettingsOf, headWithoutUpgrade, switchToH2c } from './h2c-upgrade';
import { boundHandlers, h2Options, type H2Sessions, type RequestHandler, trackSessions } from './h2-sessions';

/**
 * The plain port: one `http.Server` that listens, whose connections are looked at first. A
 * connection opening with the HTTP/2 preface (prior knowledge) goes to an `http2.Server` that
 * never listens itself; every other one to the HTTP/1.1 server as usual, where a request asking
 * `Upgrade: h2c` is switched to HTTP/2 (h2c-upgrade.ts). Sockets still being looked at are in
 * `pending`, so shutdown can drop them.
 */
export function createPlainServer(handle: RequestHandler, sessions: H2Sessions, pending: Set<Socket>, log: Logger, guards: ConnectionGuards): HttpServer {
  // time-outs are checked every second so that slow clients are closed close to their deadline
  const http1 = createServer({ connectionsCheckingInterval: 1000 }, inRequestOrder(handle));
  guards.attach(http1);
  http1.on('clientError', (err: Error & { code?: string }, socket: Socket) => answerClientError(err, socket, log));
  http1.on('connect', (_req: IncomingMessage, socket: Socket) => answerConnect(socket));
  // Expect other than 100-continue: 417 with a reason (Node would answer it with an empty body)
  http1.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(417, { 'Content-Type': 'text/plain; charset=utf-8', Connection: 'close' });
    res.end(`Expectation '${req.headers.expect ?? ''}' is not supported; only 100-continue is\n`);
  });
  const h2 = createH2Server(h2Options(), boundHandlers(handle));
  trackSessions(h2, sessions, log, guards.limits);

  const serveHttp1 = http1.listeners('connection')[0] as (socket: Socket) => void;
  const serveH2 = (socket: Socket) => { h2.emit('connection', socket); };
  http1.removeListener('connection', serveHttp1);
  http1.on('connection', (socket: Socket) => {
    if (socket.writableEnded) return; // refused by the connection caps (connection-guards.ts): already answered
    sniffPreface(socket, http1.headersTimeout, pending, (isH2) => (isH2 ? serveH2(socket) : serveHttp1.call(http1, socket)));
  });
  http1.on('upgrade', (req, socket: Socket, head: Buffer) => {
    const settings = h2cSettingsOf(req);
    if (settings) return switchToH2c(req, socket, head, settings, serveH2);
    socket.unshift(headWithoutUpgrade(req, head));
    serveHttp1.call(http1, socket);
  });
  return http1;
}

/**
 * Reads a new connection's first bytes until they either are the HTTP/2 preface or cannot become
 * it (usually the first byte: no HTTP/1.1 method starts with `PRI * HTTP/2.0`), puts them back
 * and tells which protocol it speaks. A connection that says nothing is closed after `timeoutMs`.
 */
function sniffPreface(socket: Socket, timeoutMs: number, pending: Set<Socket>, route: (isH2: boolean) => void): void {
  let seen: Buffer = Buffer.alloc(0);
  const drop = () => socket.destroy();
  const onData = (chunk: Buffer) => {
    seen = seen.length ? Buffer.concat([seen, chunk]) : chunk;
    const n = Math.min(seen.length, PREFACE.length);
    const isPrefix = seen.subarray(0, n).equals(PREFACE.subarray(0, n));
    if (isPrefix && n < PREFACE.length) return;
    pending.delete(socket);
    socket.removeListener('data', onData);
    socket.removeListener('error', drop);
    socket.removeListener('timeout', drop);
    socket.setTimeout(0);
    unread(socket, seen);
    route(isPrefix);
  };
  pending.add(socket);
  socket.once('close', () => pending.delete(socket));
  socket.on('error', drop);
  socket.setTimeout(timeoutMs, drop);
  socket.on('data', onData);
}

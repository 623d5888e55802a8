import { createSecureServer, type Http2SecureServer } from 'node:http2';
import type { Socket } from 'node:net';
import type { SecureContextOptions } from 'node:tls';
import type { Logger } from '../../util/logger';
import { answerClientError, answerConnect } from '../client-errors';
import { inRequestOrder } from './http1-order';
import { boundHandlers, h2Options, type H2Sessions, type H2Timeouts, type RequestHandler, trackSessions } from './h2-sessions';

/** A TLS handshake not finished by then is dropped (Node's default is 120 s). */
const HANDSHAKE_TIMEOUT_MS = 30_000;

/**
 * The TLS port: ALPN picks `h2` or `http/1.1` (RFC 7301); both reach the same handler. `Upgrade:
 * h2c` is not offered here (RFC 7540 §3.2: h2c is for cleartext), so such requests are plain
 * HTTP/1.1 requests.
 */
export function createTlsServer(handle: RequestHandler, identity: SecureContextOptions, sessions: H2Sessions, log: Logger, timeouts: H2Timeouts): Http2SecureServer {
  const server = createSecureServer({ ...h2Options(), ...identity, allowHTTP1: true, handshakeTimeout: HANDSHAKE_TIMEOUT_MS }, boundHandlers(inRequestOrder(handle)));
  server.on('connect', (_req: unknown, socket: Socket) => answerConnect(socket));
  // HTTP/1.1 parse errors get the same answers as on the plain port; TLS errors just close
  server.on('clientError', (err: Error & { code?: string }, socket: Socket) => {
    if (err.code?.startsWith('HPE_')) answerClientError(err, socket, log);
    else socket.destroy();
  });
  (server as Http2SecureServer & { keepAliveTimeout: number }).keepAliveTimeout = timeouts.keepAliveTimeout;
  trackSessions(server, sessions, log, timeouts);
  return server;
}

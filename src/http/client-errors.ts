import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { MalformedBodyError } from '../errors';
import type { Logger } from '../util/logger';
import { failBody } from './request-body';
import { afterAnswerInProgress } from './transport/http1-order';

/** Errors that only mean the client went away: nothing to answer, nothing to alarm anyone with. */
const CLIENT_GONE = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ERR_STREAM_PREMATURE_CLOSE', 'ERR_STREAM_DESTROYED']);

export function isClientGone(err: unknown): boolean {
  const code = (err as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && CLIENT_GONE.has(code);
}

/** Status line and reason for what Node's HTTP parser refused, by its error code. */
function refusalOf(code: string | undefined): [string, string] {
  switch (code) {
    // an unknown verb is 403 as in the original (docs/reference/http.md#routing)
    case 'HPE_INVALID_METHOD': return ['403 Forbidden', 'Unknown HTTP method'];
    case 'HPE_HEADER_OVERFLOW': return ['413 Payload Too Large', 'Request line and headers are too large']; // docs/reference/http.md#limits
    case 'ERR_HTTP_REQUEST_TIMEOUT': return ['408 Request Timeout', 'The request was not received in time'];
    case 'HPE_INVALID_URL': return ['400 Bad Request', 'Malformed request target'];
    case 'HPE_UNEXPECTED_CONTENT_LENGTH': case 'HPE_INVALID_CONTENT_LENGTH':
      return ['400 Bad Request', 'Invalid Content-Length'];
    case 'HPE_INVALID_TRANSFER_ENCODING': case 'HPE_INVALID_CHUNK_SIZE':
      return ['400 Bad Request', 'Invalid Transfer-Encoding or chunk'];
    default: return ['400 Bad Request', 'Malformed HTTP request'];
  }
}

/**
 * Requests Node's HTTP parser refuses before Koa sees them: each answered with a status and a
 * one-line reason, then the connection is closed — after the answer in progress on it, whose
 * request ran. A client that went away is logged at debug.
 */
export function answerClientError(err: Error & { code?: string }, socket: Socket, log?: Logger): void {
  if (isClientGone(err) || !socket.writable || endedInBodyInProgress(err, socket)) {
    log?.debug({ code: err.code }, 'client connection ended');
    socket.destroy();
    return;
  }
  const [status, reason] = refusalOf(err.code);
  log?.debug({ code: err.code, status }, 'malformed request refused');
  const inProgress = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  const req = inProgress && !inProgress.writableFinished ? inProgress.req : undefined;
  const code = Number(status.slice(0, 3));
  if (req && !req.complete && (code === 400 || code === 408)) {
    // the request being handled had this body: it answers (and closes the connection) itself
    failBody(req, new MalformedBodyError(code, reason));
    afterAnswerInProgress(socket, () => socket.destroySoon());
    return;
  }
  afterAnswerInProgress(socket, () => refuse(socket, status, reason));
}

/**
 * The client ended its side of the connection (half-closed) while the request in progress was
 * still sending its body: that body cannot complete, so nothing is waited for. Waiting for the
 * answer in progress, which waits for that body, held the request and what it had read for 10 s.
 */
function endedInBodyInProgress(err: Error & { code?: string }, socket: Socket): boolean {
  if (err.code !== 'HPE_INVALID_EOF_STATE') return false;
  const current = (socket as Socket & { _httpMessage?: { req?: { complete: boolean } } | null })._httpMessage;
  return current?.req !== undefined && !current.req.complete;
}

/** A CONNECT request (Node hands it over as a `connect` event, not a request): 403 as any unknown verb (docs/reference/http.md#routing). */
export function answerConnect(socket: Socket): void {
  afterAnswerInProgress(socket, () => refuse(socket, '403 Forbidden', 'Unknown HTTP method'));
}

function refuse(socket: Socket, status: string, reason: string): void {
  if (!socket.writable) return void socket.destroy();
  const body = `${reason}\n`;
  socket.end(`HTTP/1.1 ${status}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { RequestHandler } from './h2-sessions';

/**
 * HTTP/1.1 pipelining in request order (RFC 9112 §9.3.2). Node parses and hands over a pipelined
 * request as soon as it arrives, while the one before it may still be reading its body, so a PUT
 * followed at once by a DELETE of the same key could run the DELETE first. Node queues the answer
 * of such a request without a socket until the answer before it has finished; its handler now
 * waits for that moment too. A request that is not pipelined has its socket at once and pays one
 * property read.
 */
export function inRequestOrder(handle: RequestHandler): RequestHandler {
  return (req, res) => {
    const r = res as ServerResponse;
    if (r.socket || 'stream' in req) return handle(req, res);
    r.once('socket', () => { void handle(req as IncomingMessage, r); });
    return undefined;
  };
}

/** How long a refusal waits for the answer in progress on its connection before closing anyway. */
const ANSWER_WAIT_MS = 10_000;

/**
 * Runs `refuse` once the answer in progress on the connection, if any, has finished: a request
 * Node's parser refused must not cut off the answers of the requests before it, which ran.
 */
export function afterAnswerInProgress(socket: Socket, refuse: () => void): void {
  const current = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (!current || current.writableFinished) return refuse();
  const timer = setTimeout(() => socket.destroy(), ANSWER_WAIT_MS);
  timer.unref();
  const done = () => { clearTimeout(timer); refuse(); };
  current.once('finish', done);
  current.once('close', () => { if (!current.writableFinished) { clearTimeout(timer); socket.destroy(); } });
}

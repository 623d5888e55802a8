import type { Socket } from 'node:net';

/**
 * Requests Node's HTTP parser refuses before Koa sees them: an unknown verb is 403 as in the
 * original (behavior-notes §1.1), oversized headers 413 (§19), anything else 400. Empty bodies.
 */
export function answerClientError(err: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const status = err.code === 'HPE_INVALID_METHOD' ? '403 Forbidden'
    : err.code === 'HPE_HEADER_OVERFLOW' ? '413 Payload Too Large' : '400 Bad Request';
  socket.end(`HTTP/1.1 ${status}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
}

import type { Socket } from 'node:net';

/**
 * Gives bytes read from a socket back to it for whoever takes it over next, in the state Node
 * itself leaves a socket in before `upgrade`: neither flowing nor paused, so a new `data`
 * listener starts the flow, and Node's HTTP/2 session reads the buffer when it starts.
 */
export function unread(socket: Socket, bytes: Buffer): void {
  (socket as unknown as { readableFlowing: boolean | null }).readableFlowing = null;
  socket.unshift(bytes);
}

import { type Server, STATUS_CODES } from 'node:http';
import type { Http2Session } from 'node:http2';
import type { Server as NetServer, Socket } from 'node:net';
import type { Limits } from '../config/limits';
import { type GridError, TooManyForUserError, TooManyFromAddressError, TooManyOpenError } from '../errors';
import { clientAddressKey } from '../model/client-address';
import type { Logger } from '../util/logger';
import { RateLimitedLog } from '../util/rate-limited-log';

/**
 * Whose quota a request counts against: a user of one container. Every container (the default
 * one and each tenant's) has its own users, so `admin` of tenant t1 and `admin` of the default
 * container are two holders and never share a quota.
 */
export interface Holder {
  /** The tenant's name; undefined for the default container. */
  tenant?: string;
  user: string;
}

/** One map key per holder: tenant names hold no NUL, so the first NUL ends the tenant. */
function keyOf(holder: Holder): string {
  return `${holder.tenant ?? ''}\u0000${holder.user}`;
}

/** What a user's connection count is kept for: an HTTP/1.1 socket, or an HTTP/2 session (each of whose streams has a socket proxy of its own). */
export type Connection = Socket | Http2Session;

/**
 * What one client can hold open: connections (server-wide, per client address, and per user once
 * a request on the connection authenticated) and event streams (server-wide and per user), plus
 * the time-outs that close connections whose requests never complete (slowloris). Counts drop as
 * sockets close.
 */
export class ConnectionGuards {
  private open = 0;
  /** Open connections per client address (IPv4, or an IPv6 client's /64: src/model/client-address.ts), oldest first. */
  private readonly openFrom = new Map<string, Set<Socket>>();
  private readonly owner = new WeakMap<Connection, string>();
  private readonly connectionsOf = new Map<string, number>();
  private streams = 0;
  private readonly streamsOf = new Map<string, number>();
  /** A flood of refused connections writes a line per interval, not one per connection. */
  private readonly refusals: RateLimitedLog;
  private readonly evictions: RateLimitedLog;

  constructor(readonly limits: Limits, log: Logger) {
    this.refusals = new RateLimitedLog(log, 'connections refused: too many open');
    this.evictions = new RateLimitedLog(log, 'connections closed to make room for another address');
  }

  /** Time-outs and the connection caps on the plain port's HTTP server. */
  attach(server: Server): void {
    server.headersTimeout = this.limits.headersTimeout;
    server.requestTimeout = this.limits.requestTimeout;
    server.keepAliveTimeout = this.limits.keepAliveTimeout;
    this.countConnections(server, (socket, err) => {
      const body = `${err.message}\n`;
      socket.end(`HTTP/1.1 ${err.status} ${STATUS_CODES[err.status]}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
      socket.destroySoon?.();
    });
  }

  /** The same connection caps on the TLS port, whose sockets cannot carry a plain-text answer before the handshake. */
  attachTls(server: NetServer): void {
    this.countConnections(server, (socket) => socket.destroy());
  }

  /** Writes what the refusal log held back (at shutdown). */
  flushLogs(): void {
    this.refusals.flush();
    this.evictions.flush();
  }

  /**
   * One address may hold `connectionsPerAddress` of the server's `connections`: past that it is
   * refused (429) while the others are still served. When the server holds all it may, a new
   * connection from an address that holds fewer than the address holding most, minus one, takes
   * the place of that address's newest connection (closed at once); otherwise it is refused (503).
   * So a few addresses cannot keep every other one out, while one busy client may use what
   * nobody else needs.
   */
  private countConnections(server: NetServer, refuse: (socket: Socket, err: GridError) => void): void {
    server.on('connection', (socket: Socket) => {
      const address = clientAddressKey(socket.remoteAddress);
      const held = this.openFrom.get(address)?.size ?? 0;
      if (held >= this.limits.connectionsPerAddress) {
        this.refusals.warn({ address, open: held, limit: 'connections-per-address' });
        refuse(socket, new TooManyFromAddressError('connections', this.limits.connectionsPerAddress, 'connections-per-address'));
        return;
      }
      if (this.open >= this.limits.connections && !this.makeRoom(held)) {
        this.refusals.warn({ address, open: this.open, limit: 'connections' });
        refuse(socket, new TooManyOpenError('connections', this.limits.connections, 'connections'));
        return;
      }
      const mine = this.openFrom.get(address) ?? new Set<Socket>();
      this.openFrom.set(address, mine);
      mine.add(socket);
      this.open++;
      socket.once('close', () => this.forget(address, socket));
    });
  }

  /** Closes the newest connection of the address holding most, when it holds more than `held` + 1. */
  private makeRoom(held: number): boolean {
    let largest: [string, Set<Socket>] | undefined;
    for (const entry of this.openFrom) if (!largest || entry[1].size > largest[1].size) largest = entry;
    if (!largest || largest[1].size <= held + 1) return false;
    const [address, sockets] = largest;
    let newest: Socket | undefined;
    for (const socket of sockets) newest = socket;
    this.forget(address, newest!);
    this.evictions.warn({ address, open: sockets.size + 1 });
    newest!.destroy();
    return true;
  }

  /** The connection no longer counts (it closed, or it is being closed to make room). */
  private forget(address: string, socket: Socket): void {
    const sockets = this.openFrom.get(address);
    if (!sockets?.delete(socket)) return;
    this.open--;
    if (!sockets.size) this.openFrom.delete(address);
  }

  /**
   * Counts the connection against the user whose request it carries; 429 past the per-user cap.
   * The count drops when the connection closes.
   */
  claim(connection: Connection, holder: Holder): void {
    const key = keyOf(holder);
    const current = this.owner.get(connection);
    if (current === key) return;
    if ((this.connectionsOf.get(key) ?? 0) >= this.limits.connectionsPerUser) {
      throw new TooManyForUserError('connections', holder.user, this.limits.connectionsPerUser, 'connections-per-user');
    }
    if (current === undefined) (connection as Socket).once('close', () => this.release(connection));
    else this.release(connection);
    this.owner.set(connection, key);
    this.connectionsOf.set(key, (this.connectionsOf.get(key) ?? 0) + 1);
  }

  /** Reserves an event stream for the holder; the returned function gives it back. */
  openStream(holder: Holder): () => void {
    if (this.streams >= this.limits.listeners) throw new TooManyOpenError('event streams', this.limits.listeners, 'listeners');
    const key = keyOf(holder);
    const mine = this.streamsOf.get(key) ?? 0;
    if (mine >= this.limits.listenersPerUser) throw new TooManyForUserError('event streams', holder.user, this.limits.listenersPerUser, 'listeners-per-user');
    this.streams++;
    this.streamsOf.set(key, mine + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.streams--;
      decrement(this.streamsOf, key);
    };
  }

  private release(connection: Connection): void {
    const key = this.owner.get(connection);
    if (key === undefined) return;
    this.owner.delete(connection);
    decrement(this.connectionsOf, key);
  }
}

function decrement(counts: Map<string, number>, key: string): void {
  const n = (counts.get(key) ?? 0) - 1;
  if (n > 0) counts.set(key, n);
  else counts.delete(key);
}

import type { Server as HttpServer } from 'node:http';
import type { Http2SecureServer } from 'node:http2';
import type { AddressInfo, Server as NetServer, Socket } from 'node:net';
import type { SecureContextOptions } from 'node:tls';
import { ConfigError } from '../../config/server-config-error';
import type { Logger } from '../../util/logger';
import type { ConnectionGuards } from '../connection-guards';
import { H2Sessions, type RequestHandler } from './h2-sessions';
import { createPlainServer } from './plain-server';
import { createTlsServer } from './tls-server';

/** After this long, shutdown closes connections whose requests are still running. */
const FORCE_CLOSE_MS = 10_000;

export interface ListenOptions {
  host: string;
  port: number;
  /** The TLS port and its certificate; absent: no TLS listener. */
  tls?: { port: number; identity: SecureContextOptions };
}

/**
 * Grid's listeners: the plain port (HTTP/1.1, h2c by prior knowledge or `Upgrade`) and, when
 * configured, the TLS port (ALPN h2 or http/1.1). All reach the one request handler.
 */
export class HttpListeners {
  private readonly sessions = new H2Sessions();
  private readonly pending = new Set<Socket>();
  private readonly sockets = new Set<Socket>();
  private readonly plain: HttpServer;
  private readonly tls?: Http2SecureServer;

  constructor(handle: RequestHandler, private readonly opts: ListenOptions, log: Logger, private readonly guards: ConnectionGuards) {
    this.plain = createPlainServer(handle, this.sessions, this.pending, log, guards);
    if (opts.tls) {
      this.tls = createTlsServer(handle, opts.tls.identity, this.sessions, log, guards.limits);
      guards.attachTls(this.tls);
    }
    for (const server of this.servers()) {
      server.on('connection', (socket: Socket) => {
        this.sockets.add(socket);
        socket.once('close', () => this.sockets.delete(socket));
      });
    }
  }

  private servers(): Array<HttpServer | Http2SecureServer> {
    return this.tls ? [this.plain, this.tls] : [this.plain];
  }

  /** Binds both ports; resolves with the ports actually bound (port 0 picks a free one). */
  async listen(): Promise<{ port: number; tlsPort?: number }> {
    const { host } = this.opts;
    await listen(this.plain, this.opts.port, host, 'port');
    try {
      if (this.tls && this.opts.tls) await listen(this.tls, this.opts.tls.port, host, 'tls-port');
    } catch (err) {
      await new Promise((resolve) => this.plain.close(resolve));
      throw err;
    }
    return { port: portOf(this.plain), tlsPort: this.tls ? portOf(this.tls) : undefined };
  }

  /**
   * Stops accepting; in-flight requests finish. HTTP/2 sessions get a GOAWAY; HTTP/1.1 keep-alive
   * connections are closed as soon as they are idle (checked every 50 ms, since responses still
   * running become idle later); after 10 s the rest are closed.
   */
  close(): Promise<void> {
    const servers = this.servers();
    const closed = Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
    for (const socket of this.pending) socket.destroy();
    this.sessions.closeAll();
    // Http2SecureServer has closeIdleConnections for its HTTP/1.1 connections (allowHTTP1), untyped
    const closeIdle = () => servers.forEach((s) => (s as HttpServer).closeIdleConnections());
    const idle = setInterval(closeIdle, 50);
    const force = setTimeout(() => this.sockets.forEach((socket) => socket.destroy()), FORCE_CLOSE_MS);
    force.unref();
    closeIdle();
    return closed.then(() => {
      clearTimeout(force);
      clearInterval(idle);
      this.guards.flushLogs();
    });
  }
}

function listen(server: NetServer, port: number, host: string, flag: 'port' | 'tls-port'): Promise<void> {
  return new Promise((resolve, reject) => {
    const fail = (err: NodeJS.ErrnoException) => reject(listenError(err, port, host, flag));
    server.once('error', fail);
    server.listen(port, host, () => {
      server.off('error', fail);
      resolve();
    });
  });
}

/** Why a port could not be bound, in one line that says what to do (the CLI exits with code 2). */
function listenError(err: NodeJS.ErrnoException, port: number, host: string, flag: string): Error {
  const where = `${flag === 'port' ? 'port' : 'TLS port'} ${port} on ${host}`;
  switch (err.code) {
    case 'EADDRINUSE': return new ConfigError(`${where} is in use by another process: stop it or pass --${flag}`);
    case 'EACCES': return new ConfigError(`${where} needs privileges this process does not have: pass a --${flag} above 1023`);
    case 'EADDRNOTAVAIL': return new ConfigError(`${host} is not an address of this machine: pass a --host it has (127.0.0.1, 0.0.0.0, …)`);
    default: return err;
  }
}

function portOf(server: NetServer): number {
  return (server.address() as AddressInfo).port;
}

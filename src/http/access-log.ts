import type { Context } from 'koa';
import type { Logger } from '../util/logger';

/**
 * The REST access log (docs/configuration.md, Logs): one line per request on the logger
 * `org.infinispan.REST_ACCESS_LOG`, at TRACE as the original writes it, so it is off at the
 * logger's default level (INFO). Off, a request costs one level check: no object is built and
 * nothing reaches the log router.
 */
export class AccessLog {
  private written = 0;

  constructor(private readonly logger: Logger) {}

  get enabled(): boolean {
    return this.logger.isLevelEnabled('trace');
  }

  /** The original's fields (client address, user, method, path, protocol, status, bytes, duration); never values or credentials. */
  write(ctx: Context, user: string | undefined, ms: number): void {
    this.logger.trace({
      req: ++this.written, address: ctx.req.socket?.remoteAddress, user, method: ctx.method, path: ctx.path,
      protocol: `HTTP/${ctx.req.httpVersion}`, status: ctx.status, bytes: ctx.response.length, ms: Math.round(ms * 100) / 100,
    }, 'request');
  }
}

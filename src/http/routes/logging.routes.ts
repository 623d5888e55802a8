import type { Services } from '../../services';
import { sendJson, sendStatus } from '../respond';
import { query, queryAll } from '../params';
import type { GridContext, RouteSpec } from '../route-spec';

/** `/rest/v2/logging…` (spec 2 "Logging"): ADMIN only. */
export function loggingRoutes(): RouteSpec[] {
  const loggers = '/rest/v2/logging/loggers';
  return [
    { method: 'GET', path: '/rest/v2/logging/appenders', permission: 'ADMIN', handle: (ctx, s) => sendJson(ctx, s.logging.appenders()) },
    { method: 'GET', path: loggers, permission: 'ADMIN', handle: (ctx, s) => sendJson(ctx, s.logging.loggers()) },
    { method: 'PUT', path: loggers, permission: 'ADMIN', handle: (ctx, s) => set(ctx, s, '') },
    { method: 'PUT', path: `${loggers}/:logger`, permission: 'ADMIN', handle: (ctx, s) => set(ctx, s, ctx.params.logger) },
    { method: 'DELETE', path: `${loggers}/:logger`, permission: 'ADMIN', handle: async (ctx, s) => { await s.logging.remove(ctx.params.logger); sendStatus(ctx, 204); } },
  ];
}

/** `?level=L&appender=A&appender=B`; without appenders the logger keeps the root's. */
async function set(ctx: GridContext, s: Services, name: string): Promise<void> {
  const appenders = queryAll(ctx, 'appender');
  await s.logging.set(name, query(ctx, 'level'), appenders.length ? appenders : undefined);
  sendStatus(ctx, 204);
}

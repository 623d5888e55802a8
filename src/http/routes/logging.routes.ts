import type { Services } from '../../services';
import { LEVELS } from '../../util/logger-registry';
import { sendJson, sendStatus } from '../respond';
import { query, queryAll } from '../params';
import { DONE, json, param } from '../route-doc';
import type { GridContext, RouteSpec } from '../route-spec';

const LEVEL = param('level', 'Level (any case)', { enum: Object.keys(LEVELS) });
const APPENDER = param('appender', 'An appender name (repeatable); none: keep the root\'s', { repeated: true });
const SET = { ...DONE, 400: 'Neither level nor appender, an unknown level or an unknown appender' };

/** `/rest/v2/logging…` (docs/reference/management-plane.md#logging): ADMIN only. */
export function loggingRoutes(): RouteSpec[] {
  const loggers = '/rest/v2/logging/loggers';
  return [
    { method: 'GET', path: '/rest/v2/logging/appenders', permission: 'ADMIN', handle: (ctx, s) => sendJson(ctx, s.logging.appenders()),
      doc: { summary: 'The appenders', responses: { 200: json('Object by appender name') } } },
    { method: 'GET', path: loggers, permission: 'ADMIN', handle: (ctx, s) => sendJson(ctx, s.logging.loggers()),
      doc: { summary: 'The configured loggers and their levels', responses: { 200: json('JSON array of {name, level, appenders}') } } },
    { method: 'PUT', path: loggers, permission: 'ADMIN', handle: (ctx, s) => set(ctx, s, ''),
      doc: { summary: 'Set the root logger', query: [LEVEL, APPENDER], responses: SET } },
    { method: 'PUT', path: `${loggers}/:logger`, permission: 'ADMIN', handle: (ctx, s) => set(ctx, s, ctx.params.logger),
      doc: { summary: 'Set a logger (created when new)', query: [LEVEL, APPENDER], responses: SET } },
    { method: 'DELETE', path: `${loggers}/:logger`, permission: 'ADMIN', handle: async (ctx, s) => { await s.logging.remove(ctx.params.logger); sendStatus(ctx, 204); },
      doc: { summary: 'Remove a logger\'s own settings', responses: { ...DONE, 404: 'No such logger' } } },
  ];
}

/** `?level=L&appender=A&appender=B`; without appenders the logger keeps the root's. */
async function set(ctx: GridContext, s: Services, name: string): Promise<void> {
  const appenders = queryAll(ctx, 'appender');
  await s.logging.set(name, query(ctx, 'level'), appenders.length ? appenders : undefined);
  sendStatus(ctx, 204);
}

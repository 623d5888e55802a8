import type { Services } from '../../services';
import type { SchemaService } from '../../services/schema.service';
import { readText } from '../request-body';
import { sendJson, sendStatus, sendText } from '../respond';
import type { GridContext, RouteSpec } from '../route-spec';

/**
 * `/rest/v2/schemas…` (spec 1 "Protobuf schemas", behavior-notes §7). As ProtobufResource: changes
 * need CREATE, reads need only an authenticated caller.
 */
export function schemaRoutes(): RouteSpec[] {
  const one = '/rest/v2/schemas/:name';
  const name = (ctx: GridContext) => ctx.params.name;
  return [
    { method: 'GET', path: '/rest/v2/schemas', permission: 'AUTHENTICATED', handle: (ctx, s) => sendJson(ctx, s.schemas.list()) },
    { method: 'GET', path: '/rest/v2/schemas', action: 'types', permission: 'AUTHENTICATED', handle: (ctx, s) => sendJson(ctx, s.schemas.types()) },
    { method: 'GET', path: one, permission: 'AUTHENTICATED', handle: (ctx, s) => sendText(ctx, s.schemas.content(name(ctx))) },
    { method: 'GET', path: one, action: 'detailed', permission: 'AUTHENTICATED', handle: (ctx, s) => sendJson(ctx, s.schemas.detailed(name(ctx))) },
    { method: 'POST', path: one, permission: 'CREATE', handle: (ctx, s) => write(ctx, s, 'create') },
    { method: 'PUT', path: one, permission: 'CREATE', handle: (ctx, s) => write(ctx, s, 'save') },
    { method: 'DELETE', path: one, permission: 'CREATE', handle: async (ctx, s) => { await s.schemas.remove(name(ctx)); sendStatus(ctx, 204); } },
  ];
}

/** POST answers 201, PUT 200; both with `{name, error}`. */
async function write(ctx: GridContext, s: Services, op: keyof Pick<SchemaService, 'create' | 'save'>): Promise<void> {
  const status = await s.schemas[op](ctx.params.name, await readText(ctx, s.bodyLimit));
  sendJson(ctx, status, op === 'create' ? 201 : 200);
}

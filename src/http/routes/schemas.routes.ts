import type { Services } from '../../services';
import type { SchemaService } from '../../services/schema.service';
import { readText } from '../request-body';
import { sendJson, sendStatus, sendText } from '../respond';
import { DONE, json, MEDIA, text } from '../route-doc';
import type { GridContext, RouteSpec } from '../route-spec';

const NO_SCHEMA = 'No such schema';

/**
 * `/rest/v2/schemas…` (docs/reference/management-plane.md#schemas). As ProtobufResource: changes
 * need CREATE, reads need only an authenticated caller.
 */
export function schemaRoutes(): RouteSpec[] {
  const one = '/rest/v2/schemas/:name';
  const name = (ctx: GridContext) => ctx.params.name;
  return [
    { method: 'GET', path: '/rest/v2/schemas', permission: 'AUTHENTICATED', handle: (ctx, s) => sendJson(ctx, s.schemas.list()),
      doc: { summary: 'The schemas, with their validation errors', responses: { 200: json('JSON array of {name, error}') } } },
    { method: 'GET', path: '/rest/v2/schemas', action: 'types', permission: 'AUTHENTICATED', handle: (ctx, s) => sendJson(ctx, s.schemas.types()),
      doc: { summary: 'The message and enum types the schemas declare', responses: { 200: json('JSON array of fully qualified names') } } },
    { method: 'GET', path: one, permission: 'AUTHENTICATED', handle: (ctx, s) => sendText(ctx, s.schemas.content(name(ctx))),
      doc: { summary: 'A schema\'s text', params: { name: 'Schema name (`.proto` added when missing)' }, responses: { 200: text('The .proto source'), 404: NO_SCHEMA } } },
    { method: 'GET', path: one, action: 'detailed', permission: 'AUTHENTICATED', handle: (ctx, s) => sendJson(ctx, s.schemas.detailed(name(ctx))),
      doc: { summary: 'A schema with its validation status', responses: { 200: json('{name, error, caches}'), 404: NO_SCHEMA } } },
    { method: 'POST', path: one, permission: 'CREATE', handle: (ctx, s) => write(ctx, s, 'create'),
      doc: { summary: 'Register a new schema', body: [MEDIA.text], responses: { 201: json('{name, error}: error is null when the schema validates'), 409: 'It exists already' } } },
    { method: 'PUT', path: one, permission: 'CREATE', handle: (ctx, s) => write(ctx, s, 'save'),
      doc: { summary: 'Register or replace a schema', body: [MEDIA.text], responses: { 200: json('{name, error}: error is null when the schema validates'), 400: 'No schema text' } } },
    { method: 'DELETE', path: one, permission: 'CREATE', handle: async (ctx, s) => { await s.schemas.remove(name(ctx)); sendStatus(ctx, 204); },
      doc: { summary: 'Remove a schema', responses: { ...DONE, 404: NO_SCHEMA } } },
  ];
}

/** POST answers 201, PUT 200; both with `{name, error}`. */
async function write(ctx: GridContext, s: Services, op: keyof Pick<SchemaService, 'create' | 'save'>): Promise<void> {
  const status = await s.schemas[op](ctx.params.name, await readText(ctx, s.bodyLimit));
  sendJson(ctx, status, op === 'create' ? 201 : 200);
}

import type { Services } from '../../services';
import { buildOpenApiDocument } from '../openapi/openapi-document';
import { MEDIA, typed } from '../route-doc';
import { sendText } from '../respond';
import type { GridContext, RouteSpec } from '../route-spec';
import { serveSwaggerUi } from '../swagger-ui';

/**
 * The API describes itself (docs/api.md#generated-from-the-route-tables): `GET /rest/v2/openapi`, an OpenAPI 3.1 document generated
 * once, on first request, from `routes` — the very rows the router runs — and `/swagger-ui`, a
 * browsable view of it. All anonymous, as the original's `/rest/v3/openapi` and `/swagger-ui`.
 */
export function openApiRoutes(routes: () => readonly RouteSpec[]): RouteSpec[] {
  let document: string | undefined;
  const openapi = (ctx: GridContext, s: Services) => {
    document ??= JSON.stringify(buildOpenApiDocument(routes(), { version: s.version, authEnabled: s.authEnabled }));
    sendText(ctx, document, MEDIA.json);
  };
  const anonymous = { permission: 'AUTHENTICATED', anonymous: true } as const;
  const page = { 200: typed('The page', 'text/html'), 301: '`/swagger-ui` to `/swagger-ui/`, where the page\'s relative links resolve' };
  return [
    { method: 'GET', path: '/rest/v2/openapi', ...anonymous, doc: { summary: 'This document: the API, generated from the route tables', responses: { 200: typed('OpenAPI 3.1', MEDIA.json) } }, handle: openapi },
    { method: 'GET', path: '/swagger-ui', ...anonymous, doc: { summary: 'Swagger UI, a browsable view of this document', responses: page }, handle: (ctx, s) => serveSwaggerUi(ctx, undefined, s.clock.now()) },
    {
      method: 'GET', path: '/swagger-ui/:file', ...anonymous,
      doc: { summary: 'A file of the Swagger UI page', responses: { 200: typed('The file', 'text/html', 'text/javascript', 'text/css', 'image/png'), 304: 'Not modified since If-Modified-Since', 404: 'No such file' } },
      handle: (ctx, s) => serveSwaggerUi(ctx, ctx.params.file, s.clock.now()),
    },
  ];
}

import type { RouteSpec } from '../route-spec';
import { buildOperation, openApiPath } from './openapi-operation';
import type { OpenApiDocument, OpenApiPathItem } from './openapi-types';

export interface ApiFacts {
  version: string;
  authEnabled: boolean;
}

const ABOUT = [
  'Generated from the route tables the server runs, so every route, method and `?action=` is here.',
  'OpenAPI allows one operation per path and method: rows told apart by `?action=` are one operation whose',
  '`action` query parameter (an enum) selects the action; the description\'s table and `x-actions` give each',
  'action\'s summary and permission. `x-permission` names the permission the caller needs (on the cache a path',
  'names, by that cache\'s own roles when it is secured; else globally), `ANONYMOUS` for operations without',
  'credentials (`security: []`). Authentication is HTTP Basic or Digest (MD5, SHA-256) against the server\'s users.',
  'Operations with `x-per-container: true` act on one container: with tenants configured, `/rest/<tenant>/…`',
  '(e.g. `/rest/t1/v2/caches`) reaches them in that tenant\'s container.',
].join(' ');

/** The OpenAPI 3.1 document of `routes`, in table order; operations that share a path and method are one. */
export function buildOpenApiDocument(routes: readonly RouteSpec[], facts: ApiFacts): OpenApiDocument {
  const groups = new Map<string, Map<string, RouteSpec[]>>();
  for (const r of routes) {
    const path = openApiPath(r.path);
    const methods = groups.get(path) ?? new Map<string, RouteSpec[]>();
    groups.set(path, methods);
    methods.set(r.method, [...(methods.get(r.method) ?? []), r]);
  }
  const paths: Record<string, OpenApiPathItem> = {};
  const ids = new Set<string>();
  const tags = new Set<string>();
  for (const [path, methods] of groups) {
    const item: OpenApiPathItem = {};
    const tag = tagOf(path);
    tags.add(tag);
    const params = Object.assign({}, ...[...methods.values()].flat().map((r) => r.doc?.params ?? {})) as Record<string, string>;
    for (const [method, rows] of methods) {
      item[method.toLowerCase() as keyof OpenApiPathItem] = buildOperation(rows, uniqueId(operationIdOf(method, path), ids), tag, params);
    }
    paths[path] = item;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'grid REST API',
      version: facts.version,
      description: facts.authEnabled ? ABOUT : `${ABOUT} **Authentication is off on this server: every operation is open.**`,
      license: { name: 'Apache 2.0', identifier: 'Apache-2.0' },
    },
    tags: [...tags].sort().map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        basic: { type: 'http', scheme: 'basic', description: 'User name and password of a server user' },
        digest: { type: 'http', scheme: 'digest', description: 'Digest with MD5 or SHA-256, realm `default`' },
      },
    },
    security: [{ basic: [] }, { digest: [] }],
  };
}

/** Groups by resource: the segment after `/rest/v2/`, `v1` for the legacy `/rest/{cache}` paths, else the first segment. */
function tagOf(path: string): string {
  const segments = path.split('/').filter(Boolean);
  if (segments[0] === 'rest') return segments[1] === 'v2' ? segments[2] ?? 'v2' : 'v1 (legacy)';
  return segments[0] ?? 'root';
}

/** `GET /rest/v2/caches/{cache}` → `getRestV2CachesByCache`. */
function operationIdOf(method: string, path: string): string {
  const words = path.split('/').filter(Boolean).map((seg) => {
    const param = /^\{(.+)\}$/.exec(seg);
    return (param ? 'By-' + param[1] : seg).split(/[^A-Za-z0-9]+/).filter(Boolean).map((w) => w[0].toUpperCase() + w.slice(1)).join('');
  });
  return method.toLowerCase() + (words.join('') || 'Root');
}

function uniqueId(id: string, taken: Set<string>): string {
  let out = id;
  for (let n = 2; taken.has(out); n++) out = `${id}${n}`;
  taken.add(out);
  return out;
}

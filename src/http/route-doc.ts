/**
 * What a route table row tells readers of the API beyond its method, path, action and permission:
 * the generated OpenAPI document (`GET /rest/v2/openapi`, src/http/openapi/) is built from the rows
 * and these fields, so it cannot drift from the code. Path parameters and permissions come from
 * the row itself and are never written here. Keep each row's `doc` to one short line: shared
 * shapes live below.
 */
export interface RouteDoc {
  /** What the row does, in one line. */
  summary: string;
  /** Query parameters the handler reads, besides `action`. */
  query?: readonly ParamDoc[];
  /** Request headers the handler reads (Accept and Content-Type are expressed by the media types). */
  headers?: readonly ParamDoc[];
  /** Media types of the request body the handler reads; absent when it reads none. */
  body?: readonly string[];
  /** The statuses the handler itself answers. Authentication, permission, a missing cache, an unknown action and a stopped container are added from the row. */
  responses: Readonly<Record<number, ResponseDoc>>;
  /** Path parameters whose meaning differs from `PATH_PARAMS`; one row of a path says it for all its methods. */
  params?: Readonly<Record<string, string>>;
  deprecated?: boolean;
}

export interface ParamDoc {
  name: string;
  description: string;
  type?: 'string' | 'integer' | 'boolean';
  required?: boolean;
  enum?: readonly string[];
  /** The parameter may be given more than once; every value counts. */
  repeated?: boolean;
}

/** A description, or a description with the media types of the body. */
export type ResponseDoc = string | { description: string; content: readonly string[] };

/** Path parameters by name, as they read in every table. */
export const PATH_PARAMS: Readonly<Record<string, string>> = {
  cache: 'Cache name or alias',
  key: 'Entry key, read in the `Key-Content-Type` and converted to the cache\'s key storage type',
  counter: 'Counter name',
  manager: 'Cache manager name (only `default` exists)',
  task: 'Task name',
  backup: 'Backup name',
  restore: 'Restore name',
  site: 'Backup site name',
  principal: 'Principal (user or group) name',
  role: 'Role name',
  logger: 'Logger name (a dotted category)',
  connector: 'Connector name',
  datasource: 'Data source name',
  sub: 'Any path below `/metrics`: the same metrics',
  node: 'Node name, as `/rest/v2/cluster/members` reports it',
  name: 'Name',
  file: 'File name',
};

/** Media types, for `body` and response content. */
export const MEDIA = {
  json: 'application/json',
  xml: 'application/xml',
  yaml: 'application/yaml',
  text: 'text/plain',
  any: '*/*',
  events: 'text/event-stream',
  octets: 'application/octet-stream',
  zip: 'application/zip',
  gzip: 'application/gzip',
  multipart: 'multipart/form-data',
} as const;
/** A cache or template configuration, in any of the formats the server reads. */
export const CONFIG_BODY = [MEDIA.json, MEDIA.xml, MEDIA.yaml] as const;

export function json(description: string): ResponseDoc {
  return { description, content: [MEDIA.json] };
}

export function text(description: string): ResponseDoc {
  return { description, content: [MEDIA.text] };
}

export function typed(description: string, ...content: string[]): ResponseDoc {
  return { description, content };
}

export function param(name: string, description: string, more: Omit<ParamDoc, 'name' | 'description'> = {}): ParamDoc {
  return { name, description, ...more };
}

/** Query parameters more than one table reads. */
export const QUERY_PARAMS = {
  pretty: param('pretty', 'Indent the answer', { type: 'boolean' }),
  includeCurrentState: param('includeCurrentState', 'First send an event for everything that already exists', { type: 'boolean' }),
  limit: param('limit', 'Answer at most this many (-1: all)', { type: 'integer' }),
  batch: param('batch', 'Read in batches of this many (accepted for compatibility)', { type: 'integer' }),
  template: param('template', 'Create from this template instead of a configuration body'),
} as const;

/** Request headers of the entry operations (docs/reference/data-plane.md#request-headers). */
export const HEADERS = {
  keyContentType: param('Key-Content-Type', 'Media type of the key in the path (default text)'),
  flags: param('flags', 'Comma-separated core Flag names applied to the operation, e.g. SKIP_CACHE_LOAD,SKIP_STATISTICS (SKIP_CACHE_STORE, SKIP_CACHE_LOAD, SKIP_STATISTICS, SKIP_LISTENER_NOTIFICATION and SKIP_INDEXING take effect; the others are accepted; empty entries are dropped; docs/compatibility.md)'),
  ttl: param('timeToLiveSeconds', 'Lifespan of the entry in seconds (negative: never expires; absent: the cache\'s default)', { type: 'integer' }),
  maxIdle: param('maxIdleTimeSeconds', 'Maximum idle time in seconds (negative: never; absent: the cache\'s default)', { type: 'integer' }),
  ifNoneMatch: param('If-None-Match', 'An ETag: 304 (reads) or 412 (deletes) when it does not hold'),
  ifMatch: param('If-Match', 'An ETag the entry must carry, else 412'),
  ifModifiedSince: param('If-Modified-Since', 'An HTTP date: 304 when the entry has not changed since'),
  ifUnmodifiedSince: param('If-Unmodified-Since', 'An HTTP date: 412 when the entry changed since'),
  cacheControl: param('Cache-Control', '`min-fresh=N`: 404 unless the entry lives N more seconds'),
  configFlags: param('flags', '`VOLATILE`: the cache definition is not persisted'),
} as const;

/** The common answers of a row that only succeeds or fails. */
export const DONE = { 204: 'Done' } as const;
export const OK_EMPTY = { 200: 'Done (empty body)' } as const;
/** A configuration body the server could not read. */
export const BAD_CONFIG = { 400: 'Empty or invalid configuration', 415: 'A Content-Type the server does not read' } as const;

/**
 * The doc of a row under the deprecated `/rest/v2/cache-managers/{manager}` family: deprecated,
 * and 404 for a manager name other than `default`.
 */
export function underCacheManager(doc: RouteDoc | undefined): RouteDoc | undefined {
  return doc && { ...doc, deprecated: true, responses: { 404: 'No such cache manager', ...doc.responses } };
}

import { PATH_PARAMS, type ParamDoc, type ResponseDoc } from '../route-doc';
import type { RouteSpec } from '../route-spec';
import type { ActionSummary, JsonSchema, OpenApiContent, OpenApiOperation, OpenApiParameter, OpenApiResponse } from './openapi-types';

/** What `x-permission` says of an anonymous row: no credentials, no permission. */
export const ANONYMOUS_PERMISSION = 'ANONYMOUS';
/** The `x-permission` key of the row without `?action=` when the rows of an operation differ. */
export const NO_ACTION = '(none)';
/** Security requirements of an operation some of whose actions are anonymous: none, or either scheme. */
const OPTIONAL_SECURITY: Array<Record<string, string[]>> = [{}, { basic: [] }, { digest: [] }];

/**
 * One OpenAPI operation from the rows sharing a path and method. OpenAPI allows one operation per
 * path and method, so rows told apart by `?action=` become one operation with an `action` query
 * parameter (an enum of every action; required when no row goes without one); each action's
 * summary, permission and parameters are in the description's table and in `x-actions`.
 */
export function buildOperation(rows: readonly RouteSpec[], operationId: string, tag: string, pathParamDocs: Readonly<Record<string, string>> = {}): OpenApiOperation {
  const base = rows.find((r) => r.action === undefined);
  const actions = rows.filter((r) => r.action !== undefined);
  const op: OpenApiOperation = {
    operationId,
    summary: summaryOf(base, actions),
    description: descriptionOf(base, actions),
    tags: [tag],
    responses: responsesOf(rows, actions.length > 0),
    'x-permission': permissionsOf(rows),
  };
  const parameters = [...pathParameters(rows, pathParamDocs), ...actionParameter(base, actions), ...merged(rows, 'query'), ...merged(rows, 'header')];
  if (parameters.length) op.parameters = parameters;
  const body = requestBodyOf(rows);
  if (body) op.requestBody = body;
  const anonymous = rows.filter((r) => r.anonymous).length;
  if (anonymous === rows.length) op.security = [];
  else if (anonymous > 0) op.security = OPTIONAL_SECURITY;
  if (rows.every((r) => r.doc?.deprecated)) op.deprecated = true;
  if (actions.length) op['x-actions'] = actions.map(actionSummary);
  if (rows.every((r) => r.perContainer)) op['x-per-container'] = true;
  return op;
}

/** `/caches/:cache` → `/caches/{cache}`; a `*rest` segment (the rest of the path) too. */
export function openApiPath(path: string): string {
  return path.replace(/[:*]([A-Za-z0-9_]+)/g, '{$1}');
}

export function permissionOf(r: RouteSpec): string {
  return r.anonymous ? ANONYMOUS_PERMISSION : r.permission;
}

function labelOf(r: RouteSpec): string {
  return r.action === undefined ? 'without action' : `action=${r.action}`;
}

/** Which of an operation's rows something applies to: '' for all of them. */
function whichOf(users: readonly RouteSpec[], rows: readonly RouteSpec[]): string {
  if (users.length === rows.length) return '';
  const others = rows.filter((r) => !users.includes(r));
  if (users.length > 1 && users.every((r) => r.action !== undefined) && others.every((r) => r.action === undefined)) return ' (with any action)';
  return ` (${users.map(labelOf).join(', ')})`;
}

function summaryText(r: RouteSpec): string {
  return r.doc?.summary ?? `${r.method} ${r.path}${r.action === undefined ? '' : `?action=${r.action}`}`;
}

function summaryOf(base: RouteSpec | undefined, actions: readonly RouteSpec[]): string {
  const names = actions.map((r) => r.action).join(', ');
  if (!base) return actions.length === 1 ? `${summaryText(actions[0])} (action=${names})` : `Actions: ${names}`;
  return actions.length ? `${summaryText(base)}; actions: ${names}` : summaryText(base);
}

/** Who may call the row, in words. */
function permissionText(r: RouteSpec): string {
  if (r.anonymous) return 'none (anonymous)';
  if (r.permission === 'AUTHENTICATED') return 'any authenticated user';
  const cacheParam = r.cacheParam ?? 'cache';
  return r.path.split('/').includes(`:${cacheParam}`) ? `${r.permission} on the cache \`{${cacheParam}}\`` : r.permission;
}

function descriptionOf(base: RouteSpec | undefined, actions: readonly RouteSpec[]): string {
  const parts: string[] = [];
  if (base) parts.push(`${summaryText(base)}.\n\n**Permission:** ${permissionText(base)}.`);
  if (actions.length) {
    parts.push(base ? 'With `?action=`:' : 'The `action` query parameter selects what to do:');
    const lines = actions.map((r) => `| \`${r.action}\` | ${escapeCell(summaryText(r))} | ${permissionText(r)} |`);
    parts.push(['| action | what it does | permission |', '|---|---|---|', ...lines].join('\n'));
  }
  return parts.join('\n\n');
}

function escapeCell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

function permissionsOf(rows: readonly RouteSpec[]): string | Record<string, string> {
  const names = new Set(rows.map(permissionOf));
  if (names.size === 1) return permissionOf(rows[0]);
  return Object.fromEntries(rows.map((r) => [r.action ?? NO_ACTION, permissionOf(r)]));
}

function actionSummary(r: RouteSpec): ActionSummary {
  const out: ActionSummary = { action: r.action!, summary: summaryText(r), permission: permissionOf(r) };
  const names = [...(r.doc?.query ?? []), ...(r.doc?.headers ?? [])].map((p) => p.name);
  if (names.length) out.parameters = names;
  if (r.doc?.deprecated) out.deprecated = true;
  return out;
}

/** Described by a row of the operation, else by a row of another method on the path, else by `PATH_PARAMS`. */
function pathParameters(rows: readonly RouteSpec[], pathParamDocs: Readonly<Record<string, string>>): OpenApiParameter[] {
  const names = [...rows[0].path.matchAll(/[:*]([A-Za-z0-9_]+)/g)].map((m) => m[1]);
  return names.map((name) => ({
    name, in: 'path', required: true, schema: { type: 'string' },
    description: rows.map((r) => r.doc?.params?.[name]).find((d) => d !== undefined) ?? pathParamDocs[name] ?? PATH_PARAMS[name] ?? name,
  }));
}

function actionParameter(base: RouteSpec | undefined, actions: readonly RouteSpec[]): OpenApiParameter[] {
  if (!actions.length) return [];
  return [{
    name: 'action', in: 'query', required: !base, schema: { type: 'string', enum: actions.map((r) => r.action!) },
    description: base ? 'What to do instead of the plain operation (see the table above)' : 'What to do (see the table above)',
  }];
}

/** Query or header parameters of all rows, once each; one only some actions read says which. */
function merged(rows: readonly RouteSpec[], where: 'query' | 'header'): OpenApiParameter[] {
  const byName = new Map<string, { doc: ParamDoc; users: RouteSpec[] }>();
  for (const r of rows) {
    for (const doc of (where === 'query' ? r.doc?.query : r.doc?.headers) ?? []) {
      const seen = byName.get(doc.name);
      if (seen) seen.users.push(r);
      else byName.set(doc.name, { doc, users: [r] });
    }
  }
  return [...byName.values()].map(({ doc, users }) => {
    const all = users.length === rows.length;
    const p: OpenApiParameter = { name: doc.name, in: where, schema: schemaOf(doc), description: doc.description + whichOf(users, rows) };
    if (doc.required && all) p.required = true;
    if (doc.repeated) p.explode = true;
    return p;
  });
}

function schemaOf(doc: ParamDoc): JsonSchema {
  const one: JsonSchema = doc.enum ? { type: 'string', enum: doc.enum } : { type: doc.type ?? 'string' };
  return doc.repeated ? { type: 'array', items: one } : one;
}

function requestBodyOf(rows: readonly RouteSpec[]): OpenApiOperation['requestBody'] {
  const readers = rows.filter((r) => r.doc?.body?.length);
  if (!readers.length) return undefined;
  const content: OpenApiContent = {};
  for (const r of readers) for (const type of r.doc!.body!) content[type] = {};
  return readers.length === rows.length ? { content } : { description: `Read${whichOf(readers, rows)}`, content };
}

/** Statuses the pipeline answers before the handler runs, for every row of the operation. */
function pipelineResponses(rows: readonly RouteSpec[], hasActions: boolean): Array<[number, string]> {
  const out: Array<[number, string]> = [];
  if (hasActions) out.push([400, 'Unknown or empty `action`']);
  const checked = rows.filter((r) => !r.anonymous);
  if (checked.length) out.push([401, 'No or wrong credentials (when authentication is on)']);
  const needed = new Set(checked.map((r) => r.permission).filter((p) => p !== 'AUTHENTICATED'));
  if (needed.size) out.push([403, needed.size === 1 ? `The caller lacks ${[...needed][0]}` : 'The caller lacks the permission of the action (`x-permission`)']);
  return out;
}

/** Statuses the pipeline answers for one row, from what the row declares. */
function rowPipelineResponses(r: RouteSpec): Array<[number, string]> {
  const out: Array<[number, string]> = [];
  if (r.scope === 'cache') out.push([404, 'No such cache'], [503, 'The cache is on the ignore list']);
  if (r.requiresContainer) out.push([503, 'The container was shut down']);
  return out;
}

function describe(doc: ResponseDoc): { description: string; content: readonly string[] } {
  return typeof doc === 'string' ? { description: doc, content: [] } : doc;
}

/**
 * Every status any row answers. A status whose meaning differs between rows lists each meaning
 * with the actions it belongs to; the pipeline's statuses are shared by all rows and go unlabelled.
 */
function responsesOf(rows: readonly RouteSpec[], hasActions: boolean): Record<string, OpenApiResponse> {
  const byStatus = new Map<number, { meanings: Map<string, RouteSpec[]>; content: Set<string> }>();
  const add = (status: number, description: string, content: readonly string[], r: RouteSpec | undefined) => {
    let entry = byStatus.get(status);
    if (!entry) byStatus.set(status, (entry = { meanings: new Map(), content: new Set() }));
    const users = entry.meanings.get(description) ?? [];
    if (r) users.push(r);
    entry.meanings.set(description, users);
    for (const type of content) entry.content.add(type);
  };
  for (const r of rows) {
    for (const [status, doc] of Object.entries(r.doc?.responses ?? {})) {
      const { description, content } = describe(doc);
      add(Number(status), description, content, r);
    }
  }
  for (const r of rows) for (const [status, description] of rowPipelineResponses(r)) add(status, description, [], r);
  for (const [status, description] of pipelineResponses(rows, hasActions)) add(status, description, [], undefined);
  const out: Record<string, OpenApiResponse> = {};
  for (const status of [...byStatus.keys()].sort((a, b) => a - b)) {
    const { meanings, content } = byStatus.get(status)!;
    const lines = [...meanings].map(([d, users]) => (users.length === 0 ? d : d + whichOf(users, rows)));
    const res: OpenApiResponse = { description: lines.length === 1 ? lines[0] : lines.map((l) => `- ${l}`).join('\n') };
    if (content.size) res.content = Object.fromEntries([...content].map((type) => [type, {}]));
    out[String(status)] = res;
  }
  if (rows.some((r) => !r.doc)) out.default = { description: 'Not documented yet' };
  return out;
}

import type { Services } from '../../services';
import type { ScriptOutcome } from '../../services/tasks/script-sandbox';
import { query } from '../params';
import { readBody } from '../request-body';
import { sendBytes, sendJson, sendStatus, sendText } from '../respond';
import { json, MEDIA, OK_EMPTY, param, text, typed } from '../route-doc';
import type { GridContext, RouteSpec } from '../route-spec';

const TYPE = param('type', '`user`: leave out the server\'s own tasks');
const CACHE = param('cache', 'The cache the task runs against');
const PARAMETER = param('param.NAME', 'A parameter of the task, for each NAME it declares');

/** `/rest/v2/tasks…` (docs/reference/management-plane.md#tasks). */
export function taskRoutes(): RouteSpec[] {
  const t = '/rest/v2/tasks/:task';
  return [
    { method: 'GET', path: '/rest/v2/tasks', permission: 'AUTHENTICATED', handle: (ctx, s) => sendJson(ctx, s.tasks.list(isUserOnly(ctx))),
      doc: { summary: 'The tasks, with their parameters and allowed role', query: [TYPE], responses: { 200: json('JSON array of tasks') } } },
    { method: 'PUT', path: t, permission: 'ADMIN', handle: (ctx, s) => upload(ctx, s),
      doc: { summary: 'Upload a script task (JavaScript)', body: [MEDIA.text], responses: { ...OK_EMPTY, 400: 'A script whose metadata cannot be read' } } },
    { method: 'POST', path: t, permission: 'ADMIN', handle: (ctx, s) => upload(ctx, s),
      doc: { summary: 'Upload a script task (as PUT)', body: [MEDIA.text], responses: { ...OK_EMPTY, 400: 'A script whose metadata cannot be read' } } },
    { method: 'GET', path: t, action: 'script', permission: 'ADMIN', handle: (ctx, s) => sendText(ctx, s.tasks.script(ctx.params.task)),
      doc: { summary: 'A script task\'s source', responses: { 200: text('The script'), 404: 'No such script' } } },
    { method: 'POST', path: t, action: 'exec', permission: 'EXEC', handle: (ctx, s) => exec(ctx, s),
      doc: { summary: 'Run a task', query: [CACHE, PARAMETER], responses: { 200: typed('The result: JSON, or text for bytes', MEDIA.json, MEDIA.text), 400: 'Unknown task', 500: 'The script failed' } } },
  ];
}

/** `type=user` (any case) hides the admin tasks. */
function isUserOnly(ctx: GridContext): boolean {
  return query(ctx, 'type')?.toLowerCase() === 'user';
}

async function upload(ctx: GridContext, s: Services): Promise<void> {
  // script-bytes: compiling a script, and copying it into an isolate at each run, hold the loop a while per MiB
  const body = await readBody(ctx, Math.min(s.bodyLimit, s.limits.scriptBytes));
  await s.tasks.upload(ctx.params.task, decode(body, ctx.request.charset));
  sendStatus(ctx, 200);
}

/** The script text in the Content-Type's charset; UTF-8 when none is given or it is unknown. */
function decode(body: Buffer, charset: string | undefined): string {
  try {
    return new TextDecoder(charset || 'utf-8').decode(body);
  } catch {
    return body.toString('utf8');
  }
}

/** `param.<name>` and `cache` are read by their first value, as the original does. */
async function exec(ctx: GridContext, s: Services): Promise<void> {
  const parameters: Record<string, string> = {};
  let cacheName: string | undefined;
  for (const [key, raw] of Object.entries(ctx.query)) {
    const first = Array.isArray(raw) ? raw[0] : raw;
    if (first === undefined) continue;
    if (key === 'cache') cacheName = first;
    else if (key.startsWith('param.')) parameters[key.slice('param.'.length)] = first;
  }
  answer(ctx, await s.tasks.exec(ctx.params.task, { subject: ctx.state.subject, parameters, cacheName }));
}

/** Byte arrays as raw `text/plain`; anything else as JSON (a string result is a JSON string). */
function answer(ctx: GridContext, outcome: ScriptOutcome): void {
  if (outcome.kind === 'bytes') return sendBytes(ctx, outcome.bytes, 'text/plain');
  sendText(ctx, outcome.text, 'application/json');
}

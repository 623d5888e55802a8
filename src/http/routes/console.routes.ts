import { pipeline } from 'node:stream';
import { ConsoleNotEnabledError, StaticFileNotFoundError } from '../../errors';
import type { Services } from '../../services';
import { headerText } from '../request-headers';
import { sendStatus } from '../respond';
import { typed } from '../route-doc';
import type { GridContext, RouteSpec } from '../route-spec';
import { answerStaticFile, contentTypeOf, openStaticFile, PlaceholderStream } from '../static-files';

const MOUNT = '/console';
const INDEX = 'index.html';
/** The two files the original rewrites as it serves them (StaticContentResource). */
const REWRITTEN = new Set([INDEX, 'config.js']);

const NOT_ENABLED = 'The console is not enabled (no --console DIR)';

/**
 * The web console (docs/reference/management-plane.md#console), anonymous as in the original: `/` redirects to its
 * welcome page, `/console/…` serves the single-page application from `--console DIR`.
 */
export function consoleRoutes(): RouteSpec[] {
  const serve = (ctx: GridContext, s: Services) => serveConsole(ctx, s);
  return [
    { method: 'GET', path: '/', permission: 'AUTHENTICATED', anonymous: true, handle: (ctx) => redirect(ctx, 307, `${MOUNT}/welcome`),
      doc: { summary: 'To the web console', responses: { 307: 'To /console/welcome' } } },
    { method: 'GET', path: MOUNT, permission: 'AUTHENTICATED', anonymous: true, handle: serve,
      doc: { summary: 'The web console\'s page (with --console DIR)', responses: { 200: typed('The page', 'text/html'), 301: '`/console` to `/console/`', 404: NOT_ENABLED } } },
    { method: 'GET', path: `${MOUNT}/*file`, permission: 'AUTHENTICATED', anonymous: true, handle: serve,
      doc: { summary: 'A file of the web console; the application page for its own routes', params: { file: 'Path of the file under the console directory' }, responses: { 200: typed('The file', 'text/html', 'text/javascript', 'text/css'), 304: 'Not modified since If-Modified-Since', 404: `No such file, or ${NOT_ENABLED.toLowerCase()}` } } },
  ];
}

function redirect(ctx: GridContext, status: number, location: string): void {
  ctx.set('Location', location);
  sendStatus(ctx, status);
}

async function serveConsole(ctx: GridContext, s: Services): Promise<void> {
  const root = s.consoleDir;
  if (root === undefined) throw new ConsoleNotEnabledError();
  if (ctx.path === MOUNT) return redirect(ctx, 301, `${MOUNT}/`);
  const segments = decodeSegments(ctx.path.slice(MOUNT.length + 1));
  if (!segments) throw new StaticFileNotFoundError();
  const name = resourceOf(segments);
  const opened = await openStaticFile(root, name);
  if (!opened) throw new StaticFileNotFoundError();
  if (!await answerStaticFile(ctx, opened, contentTypeOf(name[name.length - 1]), s.clock.now())) return;
  const { file, stats } = opened;
  const content = file.createReadStream(); // closes the file when done or destroyed
  if (name.length === 1 && REWRITTEN.has(name[0])) {
    const rewritten = new PlaceholderStream(placeholders(headerText(ctx, 'x-forwarded-prefix') ?? ''));
    pipeline(content, rewritten, () => undefined); // a client gone early destroys both
    ctx.vary('X-Forwarded-Prefix');
    ctx.body = rewritten;
    return;
  }
  ctx.body = content;
  ctx.length = stats.size;
}

/** Path segments after `/console/`, percent-decoded; undefined when one does not decode. */
function decodeSegments(rest: string): string[] | undefined {
  try {
    return rest.split('/').filter((segment) => segment !== '').map((segment) => decodeURIComponent(segment));
  } catch {
    return undefined;
  }
}

/**
 * The original's resolver: the application page for any path without a dot (its client-side
 * routes) and for everything under `cache/` (cache names may hold dots, ISPN-14376); the named
 * file otherwise.
 */
function resourceOf(segments: string[]): string[] {
  if (segments.length === 0 || segments[0] === 'cache' || !segments.some((segment) => segment.includes('.'))) return [INDEX];
  return segments;
}

/** Path segments that start with a letter, digit, `_`, `~` or `-` (so no `.` or `..`). */
const PLAIN_PREFIX = /^(?:\/[A-Za-z0-9_~-][A-Za-z0-9._~-]*)+$/;

/**
 * `{{INFINISPAN_BASE_PATH}}` and `{{INFINISPAN_REST_CONTEXT_PATH}}`, under the prefix a reverse
 * proxy names in `X-Forwarded-Prefix` as the original honours it — only a plain path, since the
 * value lands in a page.
 */
function placeholders(forwardedPrefix: string): Array<[string, string]> {
  const trimmed = forwardedPrefix.replace(/\/$/, '');
  const prefix = trimmed.length <= 200 && PLAIN_PREFIX.test(trimmed) ? trimmed : '';
  return [['{{INFINISPAN_BASE_PATH}}', `${prefix}${MOUNT}/`], ['{{INFINISPAN_REST_CONTEXT_PATH}}', `${prefix}/rest`]];
}

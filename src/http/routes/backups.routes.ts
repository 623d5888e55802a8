import type busboy from 'busboy';
import { lazy } from '../../util/lazy';
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { ArchiveTooLargeError, InvalidBackupRequestError, MissingArgumentError, ResourceNotFoundError, UnsupportedMediaTypeError } from '../../errors';
import { parseResources, selectNames } from '../../model/backup/backup-resources';
import type { Services } from '../../services';
import { authorize, canAdminister } from '../../services/auth/authorization';
import { contentTypeIs } from '../negotiate';
import { headerText } from '../request-headers';
import { checkJsonShape, readJsonText } from '../json-body';
import { redirectToNode } from '../redirect';
import { openBody } from '../request-body';
import { sendJson, sendStatus } from '../respond';
import { json, MEDIA, typed, underCacheManager } from '../route-doc';
import type { GridContext, RouteSpec } from '../route-spec';

// multipart bodies are rare (backups, uploads): the parser loads on first use
const loadBusboy = lazy(() => require('busboy') as typeof import('busboy'));

const FAMILIES = ['/rest/v2/container', '/rest/v2/cache-managers/:manager', '/rest/v2/cluster'];

const NO_BACKUP = 'No such backup';
const ELSEWHERE = 'Another grid node of the cluster holds it (the redis engine): ask that node';
const GONE = 'The grid node that holds it is not running';

/** `…/backups` and `…/restores` under /container, /cache-managers/{name} and /cluster (docs/reference/management-plane.md#backups-and-restores). */
export function backupRoutes(): RouteSpec[] {
  const routes: RouteSpec[] = [];
  for (const base of FAMILIES) {
    const backup = `${base}/backups/:backup`;
    const restore = `${base}/restores/:restore`;
    const rows: RouteSpec[] = [
      { method: 'GET', path: `${base}/backups`, permission: 'ADMIN', handle: async (ctx, s) => sendJson(ctx, await s.backups.names('backup')),
        doc: { summary: 'Names of the backups', responses: { 200: json('JSON array of names') } } },
      { method: 'POST', path: backup, permission: 'ADMIN', handle: (ctx, s) => createBackup(ctx, s),
        doc: { summary: 'Start a backup of the whole container or the named resources', body: [MEDIA.json], responses: { 202: 'Started', 400: 'Invalid name, directory or resources', 409: 'A backup of that name exists' } } },
      { method: 'HEAD', path: backup, permission: 'ADMIN', handle: (ctx, s) => getBackup(ctx, s, false),
        doc: { summary: 'Whether a backup is done', responses: { 200: 'Done', 202: 'Still running', 404: NO_BACKUP, 500: 'It failed' } } },
      { method: 'GET', path: backup, permission: 'ADMIN', handle: (ctx, s) => getBackup(ctx, s, true),
        doc: { summary: 'Download a backup', responses: { 200: typed('The archive', MEDIA.zip), 202: 'Still running', 307: ELSEWHERE, 404: NO_BACKUP, 500: 'It failed', 503: GONE } } },
      { method: 'DELETE', path: backup, permission: 'ADMIN', handle: (ctx, s) => remove(ctx, s, 'backup', ctx.params.backup),
        doc: { summary: 'Delete a backup and its archive', responses: { 202: 'Still running: deleted when done', 204: 'Deleted', 307: ELSEWHERE, 404: NO_BACKUP, 503: GONE } } },
      { method: 'GET', path: `${base}/restores`, permission: 'ADMIN', handle: async (ctx, s) => sendJson(ctx, await s.backups.names('restore')),
        doc: { summary: 'Names of the restores', responses: { 200: json('JSON array of names') } } },
      { method: 'POST', path: restore, permission: 'ADMIN', handle: (ctx, s) => createRestore(ctx, s),
        doc: { summary: 'Restore from an archive on the server (JSON {location, resources}) or uploaded (multipart: backup, resources)', body: [MEDIA.json, MEDIA.multipart], responses: { 202: 'Started', 400: 'Invalid request or archive, or an archive too large', 409: 'A restore of that name exists', 415: 'Neither JSON nor multipart' } } },
      { method: 'HEAD', path: restore, permission: 'ADMIN', handle: async (ctx, s) => sendStatus(ctx, await s.backups.restoreStatus(ctx.params.restore) === 'IN_PROGRESS' ? 202 : 201),
        doc: { summary: 'Whether a restore is done', responses: { 201: 'Done', 202: 'Still running', 404: 'No such restore' } } },
      { method: 'DELETE', path: restore, permission: 'ADMIN', handle: (ctx, s) => remove(ctx, s, 'restore', ctx.params.restore),
        doc: { summary: 'Forget a restore', responses: { 202: 'Still running: forgotten when done', 204: 'Forgotten', 307: ELSEWHERE, 404: 'No such restore', 503: GONE } } },
    ];
    if (base === '/rest/v2/cluster') {
      rows.push({ method: 'HEAD', path: `${base}/backups`, permission: 'ADMIN', handle: (ctx) => sendStatus(ctx, 200),
        doc: { summary: 'Whether backups are served', responses: { 200: 'They are' } } });
    }
    const deprecated = base.includes('/cache-managers/');
    routes.push(...rows.map((r) => ({ ...r, doc: deprecated ? underCacheManager(r.doc) : r.doc, handle: (ctx: GridContext, s: Services) => { checkManager(ctx, s); return r.handle(ctx, s); } })));
  }
  return routes;
}

/**
 * `attachment; filename=<file>` as the original writes it, with the archive's own file name: the
 * backup's name percent-encoded (docs/security.md "Names"), so plain ASCII with no separator. A
 * file name beyond printable ASCII — an archive written before names were encoded — goes in
 * RFC 6266's `filename*` with an ASCII stand-in (a header cannot carry it: the original answered 500).
 */
function attachment(fileName: string): string {
  if (/^[\x20-\x7e]*$/.test(fileName) && !/[";\\]/.test(fileName)) return `attachment; filename=${fileName}`;
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\;]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/** The container's own name is its only cache manager name; another name is a 404. */
function checkManager(ctx: GridContext, s: Services): void {
  const name = ctx.params.manager;
  if (name !== undefined && name !== s.container.name) throw new ResourceNotFoundError();
}

/** Body optional: `{"directory": …, "resources": {…}}`. */
async function createBackup(ctx: GridContext, s: Services): Promise<void> {
  const body = parseObject(await readJsonText(ctx, s, invalidRequest));
  const directory = body.directory;
  if (directory !== undefined && directory !== null && typeof directory !== 'string') throw new InvalidBackupRequestError("'directory' must be a string");
  const resources = parseResources(body.resources);
  const userCaches = s.caches.userCacheNames();
  requireCacheAdmin(ctx, s, selectNames(resources.caches, userCaches).names);
  await s.backups.startBackup(ctx.params.backup, { directory: directory ?? undefined, resources });
  sendStatus(ctx, 202);
}

/** 202 while running; 200 with the zip (GET streams it, chunked; another node's: 307 there); 500 when failed. */
async function getBackup(ctx: GridContext, s: Services, download: boolean): Promise<void> {
  if (await s.backups.status('backup', ctx.params.backup) === 'IN_PROGRESS') return sendStatus(ctx, 202);
  const { path, fileName, holder } = await s.backups.archive(ctx.params.backup);
  if (download && holder) return redirectToNode(ctx, holder);
  ctx.status = 200;
  ctx.set('Content-Type', 'application/zip');
  ctx.set('Content-Disposition', attachment(fileName));
  if (download) ctx.body = createReadStream(path);
}

async function remove(ctx: GridContext, s: Services, kind: 'backup' | 'restore', name: string): Promise<void> {
  const outcome = await s.backups.delete(kind, name);
  if (typeof outcome === 'object') return redirectToNode(ctx, outcome);
  sendStatus(ctx, outcome === 'pending' ? 202 : 204);
}

/** JSON `{"location": …, "resources": …}` or multipart `backup` (+ `resources`); anything else 415. */
async function createRestore(ctx: GridContext, s: Services): Promise<void> {
  const name = ctx.params.restore;
  if (contentTypeIs(headerText(ctx, 'content-type'), 'multipart/form-data')) {
    await s.backups.checkNewRestore(name);
    const { path, resources } = await receiveUpload(ctx, s);
    let selection;
    try {
      selection = parseResources(resources);
    } catch (e) {
      await s.backups.discardUpload(path);
      throw e;
    }
    await s.backups.startRestore(name, path, selection, true, mayWriteCache(ctx, s));
    return sendStatus(ctx, 202);
  }
  if (!contentTypeIs(headerText(ctx, 'content-type'), 'application/json')) throw new UnsupportedMediaTypeError();
  const body = parseObject(await readJsonText(ctx, s, invalidRequest));
  if (body.location === undefined || body.location === null) throw new MissingArgumentError('backup-location');
  if (typeof body.location !== 'string') throw new InvalidBackupRequestError("'location' must be a string");
  await s.backups.startRestore(name, body.location, parseResources(body.resources), false, mayWriteCache(ctx, s));
  sendStatus(ctx, 202);
}

/** A backup reads every cache it selects: each needs ADMIN on that cache (its own roles when secured), as a whole-cache read. */
function requireCacheAdmin(ctx: GridContext, s: Services, names: string[]): void {
  for (const name of names) {
    const h = s.caches.find(name);
    if (h) authorize(ctx.state.subject, 'ADMIN', h);
  }
}

/** A restore writes into the existing caches of its archive only where the caller holds ADMIN on them. */
function mayWriteCache(ctx: GridContext, s: Services): (cache: string) => boolean {
  const subject = ctx.state.subject;
  return (name) => {
    const h = s.caches.find(name);
    return !h || canAdminister(subject, h);
  };
}

const invalidRequest = (reason: string) => new InvalidBackupRequestError(reason);

function parseObject(text: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new InvalidBackupRequestError('The request body is not valid JSON');
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new InvalidBackupRequestError('The request body must be a JSON object');
  return json as Record<string, unknown>;
}

/** Streams the `backup` part to a temp file (never into memory), refusing more than the upload limit. */
async function receiveUpload(ctx: GridContext, s: Services): Promise<{ path: string; resources: unknown }> {
  const limit = s.backups.limits.maxUploadBytes;
  // decoded from gzip/deflate when the client compressed it; the parts around the archive are small
  const body = openBody(ctx, limit + 64 * 1024, () => new ArchiveTooLargeError(limit));
  let parser: busboy.Busboy;
  try {
    parser = loadBusboy()({ headers: ctx.req.headers, limits: { fileSize: limit, files: 1, fields: 4, fieldSize: 1024 * 1024 } });
  } catch (e) {
    body.destroy();
    throw new InvalidBackupRequestError(e instanceof Error ? e.message : 'Malformed multipart request');
  }
  let saved: Promise<string> | undefined;
  let truncated = false;
  let resourcesText: string | undefined;
  const finished = new Promise<void>((resolve, reject) => {
    parser.on('file', (field: string, file: Readable & { truncated?: boolean }) => {
      // a form cut short destroys its open part with an error: unheard, it would crash the process
      file.on('error', () => undefined);
      if (field !== 'backup') return void file.resume();
      file.on('limit', () => { truncated = true; });
      saved = s.backups.saveUpload(file);
      saved.catch(() => undefined);
    });
    parser.on('field', (field: string, value: string) => { if (field === 'resources') resourcesText = value; });
    parser.on('close', () => resolve());
    parser.on('error', (e: unknown) => reject(new InvalidBackupRequestError(e instanceof Error ? e.message : 'Malformed multipart request')));
    body.on('error', (e) => {
      parser.destroy(); // ends a half-received archive part, whose temp file is then removed
      reject(e);
    });
  });
  body.pipe(parser);
  try {
    await finished;
  } finally {
    if (!saved) ctx.req.resume();
  }
  if (!saved) throw new MissingArgumentError('backup');
  const path = await saved;
  if (truncated) {
    await s.backups.discardUpload(path);
    throw new ArchiveTooLargeError(limit);
  }
  let resources: unknown;
  try {
    if (resourcesText !== undefined) checkJsonShape(resourcesText, s, invalidRequest);
    resources = resourcesText === undefined || resourcesText.trim() === '' ? undefined : JSON.parse(resourcesText);
  } catch (e) {
    await s.backups.discardUpload(path);
    throw e instanceof InvalidBackupRequestError ? e : new InvalidBackupRequestError("The 'resources' part is not valid JSON");
  }
  return { path, resources };
}

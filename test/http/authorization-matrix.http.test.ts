import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { allRoutes } from '../../src/http/app';
import type { RouteSpec } from '../../src/http/route-spec';
import { DEFAULT_ROLES, PERMISSION_BITS, PERMISSION_MASKS, type PermissionName } from '../../src/model/security/permissions';
import { startTestServer, type TestServer } from '../support/server';

/**
 * The role × endpoint matrix (docs/security.md#roles-and-permissions): every row of the route
 * table that the server runs (`allRoutes`, so rows added later are covered without touching this
 * file) × every kind of caller. The expected answer is derived from the row's `permission` and the
 * permission table (`DEFAULT_ROLES`, docs/reference/http.md#authorization, plus the custom roles defined below) —
 * never written per route:
 *   - anonymous rows: never 401 or 403;
 *   - no or wrong credentials: 401 (a wrong password also 429, once failed logins back off);
 *   - otherwise the caller's permissions — on the cache the row names when it does (a secured
 *     cache grants only what its listed roles grant), else global — must hold the row's
 *     permission: 403 exactly when they do not; a row that only asks for authentication answers
 *     404 for a cache the caller holds no permission on (it is hidden, as a missing one).
 */

/** Custom roles, by permission names as a client would define them. */
const CUSTOM_ROLES: Record<string, PermissionName[]> = {
  auditor: ['ALL_READ', 'LISTEN'],
  keeper: ['READ', 'WRITE', 'BULK_READ', 'ADMIN'],
};

interface CacheTarget { name: string; config: unknown; roles?: string[] }
/** Both back up to a site, so the cross-site rows reach their handlers. */
const BACKUPS = { NYC: { backup: {} } };
const OPEN: CacheTarget = { name: 'open', config: { 'distributed-cache': { backups: BACKUPS } } };
const VAULT: CacheTarget = {
  name: 'vault', roles: ['admin', 'keeper'],
  config: { 'distributed-cache': { backups: BACKUPS, security: { authorization: { enabled: true, roles: ['admin', 'keeper'] } } } },
};
const TARGETS = [OPEN, VAULT];

const KEY = 'k';
const COUNTER = 'matrix-counter';
const SCHEMA = 'matrix.proto';
const TASK = 'matrix-task';
const TASK_SCRIPT = '// mode=local,language=javascript\n"ok"';

interface Caller {
  name: string;
  /** Roles the caller holds, or undefined for a caller that does not authenticate. */
  roles?: string[];
  authorization(method: string, uri: string): string | undefined;
  /** Another refusal this caller may get instead of 401: 429 once failed logins back off (docs/security.md). */
  alsoRefusedWith?: number;
}

function basic(user: string, password: string): string {
  return 'Basic ' + Buffer.from(`${user}:${password}`).toString('base64');
}

/**
 * Every kind of caller: the default roles (users named after them, as the test server creates
 * them), a custom role, a user whose access to the secured cache comes from a per-cache role, no
 * credentials, and a wrong password. The wrong password is sent as Digest: verifying it costs no
 * slow hash, so all rows can be tried; it fails through the same authentication step as Basic.
 */
function callers(nonce: string): Caller[] {
  const user = (name: string, roles: string[], password = `${name}-pw`): Caller => ({ name, roles, authorization: () => basic(name, password) });
  let nc = 0;
  return [
    ...[...DEFAULT_ROLES.keys()].map((role) => user(role, [role])),
    user('custom', ['monitor', 'auditor']),
    user('per-cache', ['monitor', 'keeper']),
    { name: 'anonymous', authorization: () => undefined },
    { name: 'wrong password', authorization: (method, uri) => wrongDigest('admin', nonce, method, uri, ++nc), alsoRefusedWith: 429 },
  ];
}

function wrongDigest(user: string, nonce: string, method: string, uri: string, nc: number): string {
  const h = (s: string) => createHash('sha256').update(s).digest('hex');
  const count = nc.toString(16).padStart(8, '0');
  const response = h(`${h(`${user}:default:not-the-password`)}:${nonce}:${count}:c0ffee:auth:${h(`${method}:${uri}`)}`);
  return `Digest username="${user}", realm="default", nonce="${nonce}", uri="${uri}", algorithm=SHA-256, response="${response}", qop=auth, nc=${count}, cnonce="c0ffee"`;
}

function roleMask(role: string): number {
  const builtIn = DEFAULT_ROLES.get(role);
  if (builtIn) return builtIn.mask;
  return (CUSTOM_ROLES[role] ?? []).reduce((m, p) => m | PERMISSION_MASKS[p], 0);
}

function maskOf(roles: string[], target: CacheTarget | undefined): number {
  const counted = target?.roles ? roles.filter((r) => target.roles!.includes(r)) : roles;
  return counted.reduce((m, r) => m | roleMask(r), 0);
}

type Outcome = 401 | 403 | 404 | 'allowed';

function expectedOutcome(route: RouteSpec, caller: Caller, target: CacheTarget | undefined): Outcome {
  if (route.anonymous) return 'allowed';
  if (!caller.roles) return 401;
  const mask = maskOf(caller.roles, target);
  if (route.permission === 'AUTHENTICATED') return target && mask === 0 ? 404 : 'allowed';
  return (mask & PERMISSION_BITS[route.permission]) !== 0 ? 'allowed' : 403;
}

function matches(status: number, outcome: Outcome): boolean {
  return outcome === 'allowed' ? status !== 401 && status !== 403 : status === outcome;
}

/** Rows that stop the server or the container: only their refusals run on the shared server. */
function isDestructive(route: RouteSpec): boolean {
  return route.permission === 'LIFECYCLE';
}

function cacheParam(route: RouteSpec): string | undefined {
  const p = route.cacheParam ?? 'cache';
  return route.path.split('/').includes(`:${p}`) ? p : undefined;
}

/** A fixture for each path parameter; a new parameter name fails here until it has one. */
function paramValue(route: RouteSpec, param: string, target: CacheTarget | undefined): string {
  if (param === cacheParam(route)) return target!.name;
  switch (param) {
    case 'manager': return 'default';
    case 'key': return KEY;
    case 'counter': return COUNTER;
    case 'task': return TASK;
    case 'backup': return 'matrix-backup';
    case 'restore': return 'matrix-restore';
    case 'site': return 'NYC';
    case 'principal': return 'matrix-principal';
    case 'role': return 'matrix-role';
    case 'logger': return 'org.matrix';
    case 'connector': return 'rest';
    case 'datasource': return 'matrix-datasource';
    case 'sub': return 'vendor';
    case 'node': return 'matrix-node';
    case 'file': return 'index.html';
    case 'name':
      if (route.path.includes('/schemas/')) return SCHEMA;
      if (route.path.includes('/ignored-caches/')) return 'default';
      break;
  }
  throw new Error(`no fixture for :${param} in ${route.method} ${route.path}`);
}

interface Case { route: RouteSpec; target?: CacheTarget; uri: string }

function casesOf(routes: RouteSpec[]): Case[] {
  return routes.flatMap((route) => (cacheParam(route) ? TARGETS : [undefined]).map((target) => {
    const path = route.path.split('/').map((seg) => (seg.startsWith(':') ? encodeURIComponent(paramValue(route, seg.slice(1), target)) : seg)).join('/');
    return { route, target, uri: route.action === undefined ? path : `${path}?action=${encodeURIComponent(route.action)}` };
  }));
}

function describeCase(c: Case): string {
  return `${c.route.method} ${c.uri}${c.target ? ` [${c.target.name}]` : ''}`;
}

/** Status only: the body is dropped at once (event streams never end). */
async function statusOf(url: string, c: Case, caller: Caller): Promise<number> {
  const headers: Record<string, string> = {};
  const auth = caller.authorization(c.route.method, c.uri);
  if (auth) headers.Authorization = auth;
  const res = await fetch(url + c.uri, { method: c.route.method, headers, body: c.route.method === 'POST' || c.route.method === 'PUT' ? '' : undefined });
  await res.body?.cancel();
  return res.status;
}

async function startMatrixServer(): Promise<TestServer> {
  const server = await startTestServer();
  const s = server.running.services;
  for (const [name, permissions] of Object.entries(CUSTOM_ROLES)) await s.roles.createRole(name, permissions, 'matrix');
  // users need a built-in group; the custom role comes from a grant to the user's name
  await s.users.upsert('custom', 'custom-pw', ['monitor']);
  await s.users.upsert('per-cache', 'per-cache-pw', ['monitor']);
  await s.roles.grant('custom', ['auditor']);
  await s.roles.grant('per-cache', ['keeper']);
  await ensureFixtures(server);
  return server;
}

/** Puts back whatever an allowed request removed or changed: caches, their key, counter, schema, task. */
async function ensureFixtures(server: TestServer): Promise<void> {
  const s = server.running.services;
  const admin = server.as('admin');
  for (const t of TARGETS) {
    if (!s.manager.find(t.name)) await admin.createCache(t.name, t.config);
    if (s.container.isIgnored(t.name)) await s.container.setIgnored(t.name, false);
    const h = s.manager.find(t.name)!;
    await s.caches.setAvailability(s.caches.require(t.name), 'AVAILABLE');
    if (!h.cache.peek(Buffer.from(KEY))) expect((await admin.put(`/rest/v2/caches/${t.name}/${KEY}`, 'v')).status).to.equal(204);
  }
  if (!s.counters.names().includes(COUNTER)) {
    expect((await admin.post(`/rest/v2/counters/${COUNTER}`, '{"weak-counter":{"initial-value":1}}', { 'Content-Type': 'application/json' })).status).to.equal(200);
  }
  if (!s.schemas.has(SCHEMA)) expect((await admin.put(`/rest/v2/schemas/${SCHEMA}`, 'message M { optional string a = 1; }')).status).to.equal(200);
  if (!s.tasks.list(true).some((t) => t.name === TASK) || s.tasks.script(TASK) !== TASK_SCRIPT) {
    expect((await admin.put(`/rest/v2/tasks/${TASK}`, TASK_SCRIPT)).status).to.equal(200);
  }
}

/** Tries every case for one caller; answers the mismatches, one line each. */
async function run(server: TestServer, cases: Case[], caller: Caller, skip: (c: Case, outcome: Outcome) => boolean): Promise<string[]> {
  const wrong: string[] = [];
  for (const c of cases) {
    const outcome = expectedOutcome(c.route, caller, c.target);
    if (skip(c, outcome)) continue;
    const status = await statusOf(server.url, c, caller);
    if (!matches(status, outcome) && !(outcome === 401 && status === caller.alsoRefusedWith)) wrong.push(`${describeCase(c)}: ${status}, expected ${outcome === 'allowed' ? 'neither 401 nor 403' : outcome}`);
    if (status < 400 && c.route.method !== 'GET' && c.route.method !== 'HEAD') await ensureFixtures(server);
  }
  return wrong;
}

async function challengeNonce(url: string): Promise<string> {
  const res = await fetch(url + '/rest/v2/caches');
  return /nonce="([^"]+)"/.exec(res.headers.get('www-authenticate') ?? '')![1];
}

describe('the role × endpoint matrix', function () {
  this.timeout(180_000);
  let server: TestServer;
  let routes: RouteSpec[];
  let cases: Case[];
  let nonce: string;

  before(async () => {
    server = await startMatrixServer();
    routes = allRoutes();
    cases = casesOf(routes);
    nonce = await challengeNonce(server.url);
  });
  after(async () => {
    await server.running.services.backups.idle();
    await server.close();
  });

  it('covers every row of the route table, each cache row on an open and on a secured cache', () => {
    expect(routes.length).to.be.above(150);
    expect(cases.length).to.equal(routes.length + routes.filter((r) => cacheParam(r)).length);
  });

  for (const name of [...DEFAULT_ROLES.keys(), 'custom', 'per-cache', 'anonymous', 'wrong password']) {
    it(`${name}: 401/403 on every route exactly as the permission table says`, async () => {
      const caller = callers(nonce).find((c) => c.name === name)!;
      // allowed destructive rows run below, each on a server of its own
      const wrong = await run(server, cases, caller, (c, outcome) => isDestructive(c.route) && outcome === 'allowed');
      expect(wrong, wrong.join('\n')).to.deep.equal([]);
    });
  }

  it('destructive rows (stop, shutdown) run for each caller allowed them, on a fresh server each', async () => {
    const destructive = cases.filter((c) => isDestructive(c.route));
    expect(destructive.length).to.be.above(0);
    for (const c of destructive) {
      for (const name of [...DEFAULT_ROLES.keys(), 'custom', 'per-cache']) {
        const caller = callers(nonce).find((x) => x.name === name)!;
        if (expectedOutcome(c.route, caller, c.target) !== 'allowed') continue;
        const own = await startMatrixServer();
        try {
          const status = await statusOf(own.url, c, caller);
          expect(matches(status, 'allowed'), `${describeCase(c)} as ${name}: ${status}`).to.equal(true);
        } finally {
          await own.close();
        }
      }
    }
  });
});

import { AuthorizationDisabledError, MissingArgumentError, PrincipalExistsError } from '../../errors';
import { PERMISSION_BITS, PERMISSION_MASKS, type PermissionName } from '../../model/security/permissions';
import type { Services, Subject } from '../../services';
import { cacheMask } from '../../services/auth/authorization';
import { readText } from '../request-body';
import { sendJson, sendStatus } from '../respond';
import { queryAll } from '../params';
import { DONE, json, MEDIA, param } from '../route-doc';
import type { GridContext, RouteSpec } from '../route-spec';

const ROLES = param('role', 'A role name (repeatable)', { required: true, repeated: true });
const PERMISSIONS = param('permission', 'A permission name, e.g. READ or ALL_WRITE (repeatable)', { required: true, repeated: true });
const BAD_PERMISSIONS = 'No or an unknown permission';
const NO_ROLE = 'No such role';
const NO_AUTHZ = 'Authorization is off (ISPN012027)';

/** `/rest/v2/security…` and the login configuration (docs/reference/management-plane.md#security-resource). */
export function securityRoutes(): RouteSpec[] {
  const roles = '/rest/v2/security/roles';
  const perms = '/rest/v2/security/permissions/:role';
  return [
    { method: 'GET', path: '/rest/v2/login', action: 'config', permission: 'AUTHENTICATED', anonymous: true, handle: (ctx, s) => sendJson(ctx, loginConfig(s)),
      doc: { summary: 'How clients log in: HTTP authentication and its mechanisms', responses: { 200: json('{mode, ready, and "<MECHANISM>": "true" per mechanism offered}') } } },
    { method: 'GET', path: '/rest/v2/security/user/acl', permission: 'AUTHENTICATED', handle: (ctx, s) => sendJson(ctx, acl(ctx.state.subject, s)),
      doc: { summary: 'The caller\'s principals and permissions, globally and per cache', responses: { 200: json('{subject, global, caches}') } } },
    { method: 'POST', path: '/rest/v2/security/cache', action: 'flush', permission: 'ADMIN', handle: (ctx, s) => { s.auth.forget(); sendStatus(ctx, 204); },
      doc: { summary: 'Forget remembered authentications and role mappings', responses: DONE } },
    { method: 'GET', path: roles, permission: 'ADMIN', handle: (ctx, s) => { requireAuthorization(s); sendJson(ctx, s.roles.roles().filter((r) => r.inheritable).map((r) => r.name)); },
      doc: { summary: 'Names of the inheritable roles', responses: { 200: json('JSON array of names'), 400: NO_AUTHZ } } },
    { method: 'GET', path: roles, action: 'detailed', permission: 'ADMIN', handle: (ctx, s) => { requireAuthorization(s); sendJson(ctx, detailedRoles(s)); },
      doc: { summary: 'Every role with its permissions', responses: { 200: json('Object by role name: {inheritable, permissions, implicit, description}'), 400: NO_AUTHZ } } },
    { method: 'GET', path: `${roles}/:principal`, permission: 'ADMIN', handle: (ctx, s) => sendJson(ctx, s.roles.listRoles(ctx.params.principal)),
      doc: { summary: 'The roles granted to a principal (its own name when none is mapped)', responses: { 200: json('JSON array of role names') } } },
    { method: 'PUT', path: `${roles}/:principal`, action: 'grant', permission: 'ADMIN', handle: (ctx, s) => grant(ctx, s, false),
      doc: { summary: 'Grant roles to a principal', query: [ROLES], responses: { ...DONE, 400: 'No role given' } } },
    { method: 'POST', path: `${roles}/:principal`, action: 'grant', permission: 'ADMIN', handle: (ctx, s) => grant(ctx, s, true),
      doc: { summary: 'Grant roles to a principal that has none yet', query: [ROLES], responses: { ...DONE, 400: 'No role given', 409: 'The principal has roles already' } } },
    { method: 'PUT', path: `${roles}/:principal`, action: 'deny', permission: 'ADMIN', handle: async (ctx, s) => { await s.roles.deny(ctx.params.principal, roleParams(ctx)); sendStatus(ctx, 204); },
      doc: { summary: 'Take roles away from a principal', query: [ROLES], responses: { ...DONE, 400: 'No role given' } } },
    { method: 'DELETE', path: `${roles}/:principal`, action: 'grant', permission: 'ADMIN', handle: async (ctx, s) => { await s.roles.deny(ctx.params.principal, 'all'); sendStatus(ctx, 204); },
      doc: { summary: 'Take every role away from a principal', responses: DONE } },
    { method: 'GET', path: '/rest/v2/security/principals', permission: 'ADMIN', handle: (ctx, s) => sendJson(ctx, Object.keys(s.roles.principals())),
      doc: { summary: 'Names of the principals that have roles', responses: { 200: json('JSON array of names') } } },
    { method: 'GET', path: '/rest/v2/security/principals', action: 'detailed', permission: 'ADMIN', handle: (ctx, s) => sendJson(ctx, s.roles.principals()),
      doc: { summary: 'The principals with their roles', responses: { 200: json('Object by principal: role names') } } },
    { method: 'GET', path: '/rest/v2/security/users', permission: 'ADMIN', handle: (ctx, s) => sendJson(ctx, { default: s.users.list().map((u) => u.name) }),
      doc: { summary: 'The users of the server\'s realm', responses: { 200: json('{default: [user names]}') } } },
    { method: 'POST', path: perms, permission: 'ADMIN', handle: (ctx, s) => saveRole(ctx, s, 'create'),
      doc: { summary: 'Define a role: its permissions, and a description as the body', query: [PERMISSIONS], body: [MEDIA.text], responses: { ...DONE, 400: BAD_PERMISSIONS, 409: 'The role exists' } } },
    { method: 'PUT', path: perms, permission: 'ADMIN', handle: (ctx, s) => saveRole(ctx, s, 'update'),
      doc: { summary: 'Change a role\'s permissions (kept when none is given) and description (kept when the body is empty)', query: [PERMISSIONS], body: [MEDIA.text], responses: { ...DONE, 400: `${BAD_PERMISSIONS}, or a predefined role`, 404: NO_ROLE } } },
    { method: 'GET', path: perms, permission: 'ADMIN', handle: (ctx, s) => sendJson(ctx, describeRole(s, ctx.params.role)),
      doc: { summary: 'A role\'s permissions', responses: { 200: json('{name, inheritable, permissions, implicit, description}'), 404: NO_ROLE } } },
    { method: 'DELETE', path: perms, permission: 'ADMIN', handle: async (ctx, s) => { await s.roles.deleteRole(ctx.params.role); sendStatus(ctx, 204); },
      doc: { summary: 'Remove a role', responses: { ...DONE, 400: 'A predefined role', 404: NO_ROLE } } },
  ];
}

/**
 * How clients log in, in the original's shape (Server.getLoginConfiguration): `mode` HTTP (no
 * OpenID Connect here), one `"<MECHANISM>": "true"` per mechanism offered, and `ready`. Without
 * authentication only `mode` and `ready` are left, which is how the web console tells that it
 * needs no login.
 */
function loginConfig(s: Services): Record<string, string> {
  const mechanisms = s.authEnabled ? s.auth.mechanismNames() : [];
  return { mode: 'HTTP', ...Object.fromEntries(mechanisms.map((m) => [m, 'true'])), ready: 'true' };
}

/** Permission names a mask covers, composites included, in the original's enum order. */
function permissionNames(mask: number): PermissionName[] {
  const names = Object.keys(PERMISSION_BITS) as PermissionName[];
  const composites: PermissionName[] = ['ALL', 'ALL_READ', 'ALL_WRITE'];
  return [...names, ...composites].filter((p) => (mask & PERMISSION_MASKS[p]) === PERMISSION_MASKS[p] && PERMISSION_MASKS[p] !== 0);
}

function acl(subject: Subject, s: Services): Record<string, unknown> {
  if (!s.authEnabled) return { subject: [] };
  return {
    subject: [
      { name: subject.name, type: 'NamePrincipal' },
      ...subject.groups.map((g) => ({ name: g, type: 'GroupPrincipal' })),
      ...subject.roles.map((r) => ({ name: r, type: 'RolePrincipal' })),
    ],
    global: permissionNames(subject.mask),
    // a cache the caller holds no permission on is not named (CVE-2023-3628/3629 class)
    caches: Object.fromEntries(s.container.visibleCaches(subject).map((c) => [c.name, permissionNames(cacheMask(subject, c))])),
  };
}

function requireAuthorization(s: Services): void {
  if (!s.authEnabled) throw new AuthorizationDisabledError();
}

function detailedRoles(s: Services): Record<string, unknown> {
  return Object.fromEntries(s.roles.roles().map((r) => [r.name, { inheritable: r.inheritable, permissions: r.permissions, implicit: r.implicit, description: r.description }]));
}

function describeRole(s: Services, name: string): Record<string, unknown> {
  const r = s.roles.role(name);
  return { name: r.name, inheritable: r.inheritable, permissions: r.permissions, implicit: r.implicit, description: r.description };
}

function roleParams(ctx: GridContext): string[] {
  const roles = queryAll(ctx, 'role');
  if (roles.length === 0) throw new MissingArgumentError('role');
  return roles;
}

/** PUT grants to any principal; POST only to one without a mapping yet (409 otherwise). */
async function grant(ctx: GridContext, s: Services, newPrincipal: boolean): Promise<void> {
  const roles = roleParams(ctx);
  if (newPrincipal && s.roles.hasMapping(ctx.params.principal)) throw new PrincipalExistsError();
  await s.roles.grant(ctx.params.principal, roles);
  sendStatus(ctx, 204);
}

/** POST needs `permission`; PUT without it keeps the role's permissions (and an empty body its description). */
async function saveRole(ctx: GridContext, s: Services, mode: 'create' | 'update'): Promise<void> {
  const permissions = queryAll(ctx, 'permission');
  if (mode === 'create' && permissions.length === 0) throw new MissingArgumentError('permission');
  const description = (await readText(ctx, s.bodyLimit)).trim();
  if (mode === 'create') await s.roles.createRole(ctx.params.role, permissions, description);
  else await s.roles.updateRole(ctx.params.role, permissions.length ? permissions : undefined, description);
  sendStatus(ctx, 204);
}

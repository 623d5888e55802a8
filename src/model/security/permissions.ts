/** Permissions and the default roles of the original server (docs/reference/http.md#authorization). */
export const PERMISSION_BITS = {
  LIFECYCLE: 1, READ: 2, WRITE: 4, EXEC: 8, LISTEN: 16, BULK_READ: 32, BULK_WRITE: 64, ADMIN: 128, CREATE: 256, MONITOR: 512,
} as const;

export type Permission = keyof typeof PERMISSION_BITS;
export type PermissionName = Permission | 'ALL' | 'ALL_READ' | 'ALL_WRITE' | 'NONE';

const ALL = Object.values(PERMISSION_BITS).reduce((a, b) => a | b, 0);

export const PERMISSION_MASKS: Record<PermissionName, number> = {
  ...PERMISSION_BITS,
  ALL,
  ALL_READ: PERMISSION_BITS.READ | PERMISSION_BITS.BULK_READ,
  ALL_WRITE: PERMISSION_BITS.WRITE | PERMISSION_BITS.BULK_WRITE,
  NONE: 0,
};

export interface RoleDefinition {
  name: string;
  permissions: PermissionName[];
  mask: number;
}

function role(name: string, permissions: PermissionName[]): RoleDefinition {
  return { name, permissions, mask: permissions.reduce((m, p) => m | PERMISSION_MASKS[p], 0) };
}

export const DEFAULT_ROLES: ReadonlyMap<string, RoleDefinition> = new Map([
  ['admin', role('admin', ['ALL'])],
  ['application', role('application', ['ALL_READ', 'ALL_WRITE', 'LISTEN', 'EXEC', 'MONITOR'])],
  ['deployer', role('deployer', ['ALL_READ', 'ALL_WRITE', 'LISTEN', 'EXEC', 'CREATE', 'MONITOR'])],
  ['observer', role('observer', ['ALL_READ', 'MONITOR'])],
  ['monitor', role('monitor', ['MONITOR'])],
]);

/** Union of the permission bits of the given roles (unknown roles grant nothing). */
export function maskOfRoles(roles: Iterable<string>): number {
  let mask = 0;
  for (const r of roles) mask |= DEFAULT_ROLES.get(r)?.mask ?? 0;
  return mask;
}

export function hasPermission(mask: number, p: Permission): boolean {
  return (mask & PERMISSION_BITS[p]) !== 0;
}

import { PredefinedRoleError, RoleExistsError, RoleNotFoundError, UnknownPermissionError } from '../../errors';
import { DEFAULT_ROLES, PERMISSION_MASKS, type PermissionName } from '../../model/security/permissions';
import type { RoleRecord, Store } from '../../store/store';

export interface RoleView {
  name: string;
  permissions: PermissionName[];
  inheritable: boolean;
  implicit: boolean;
  description: string;
}

const DESCRIPTIONS: Record<string, string> = {
  admin: 'A user with all permissions',
  deployer: 'A user who can create and destroy resources',
  application: 'A user who can read and write data and run tasks',
  observer: 'A user who can read data and monitor',
  monitor: 'A user who can monitor the server',
};

/**
 * Roles (the five built-in ones plus roles defined at run time) and the role mapper. A principal
 * mapped to roles (`/rest/v2/security/roles/{principal}?action=grant`) gets those. Otherwise a
 * group is the role of the same name (`grid user create … -g deployer`), but a user's own name
 * grants nothing: a user called `admin` in group `observer` is an observer. (The original's default
 * mapper also turns the user name into a role; see docs/compatibility.md.) Changes are persisted
 * before they are acknowledged.
 */
export class RoleRegistry {
  private readonly custom = new Map<string, RoleRecord>();
  private readonly mappings = new Map<string, string[]>();
  /** Called after every change, so remembered verifications are dropped at once. */
  onChange: () => void = () => undefined;

  constructor(private readonly store: Store) {
    this.reload();
  }

  /** Reads roles and mappings from the store: at start, and when another node changed them. */
  reload(): void {
    this.custom.clear();
    this.mappings.clear();
    for (const r of this.store.security.listRoles()) this.custom.set(r.name, r);
    for (const m of this.store.security.listPrincipalRoles()) this.mappings.set(m.principal, m.roles);
    this.onChange();
  }

  /** The roles of a user: its name's mapping, then each group's mapping or, unmapped, the group itself. */
  rolesOf(user: string, groups: string[]): string[] {
    const roles = new Set<string>();
    const granted = [...(this.mappings.get(user) ?? []), ...groups.flatMap((g) => this.mappings.get(g) ?? [g])];
    for (const r of granted) if (this.exists(r)) roles.add(r);
    return [...roles];
  }

  maskOf(role: string): number {
    const builtIn = DEFAULT_ROLES.get(role);
    if (builtIn) return builtIn.mask;
    return (this.custom.get(role)?.permissions ?? []).reduce((m, p) => m | (PERMISSION_MASKS[p as PermissionName] ?? 0), 0);
  }

  exists(role: string): boolean {
    return DEFAULT_ROLES.has(role) || this.custom.has(role);
  }

  roles(): RoleView[] {
    const builtIn = [...DEFAULT_ROLES.values()].map((r) => ({
      name: r.name, permissions: r.permissions, inheritable: true, implicit: true, description: DESCRIPTIONS[r.name] ?? '',
    }));
    const custom = [...this.custom.values()].map((r) => ({
      name: r.name, permissions: r.permissions as PermissionName[], inheritable: true, implicit: false, description: r.description,
    }));
    return [...builtIn, ...custom].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  role(name: string): RoleView {
    const r = this.roles().find((x) => x.name === name);
    if (!r) throw new RoleNotFoundError();
    return r;
  }

  async createRole(name: string, permissions: string[], description: string): Promise<void> {
    if (this.exists(name)) throw new RoleExistsError();
    await this.saveRole({ name, permissions: parsePermissions(permissions), description });
  }

  /** Changes what is given and keeps the rest, as the original: no permissions, or an empty description, keep the current ones. */
  async updateRole(name: string, permissions: string[] | undefined, description: string): Promise<void> {
    if (DEFAULT_ROLES.has(name)) throw new PredefinedRoleError();
    const current = this.custom.get(name);
    if (!current) throw new RoleNotFoundError();
    await this.saveRole({
      name,
      permissions: permissions ? parsePermissions(permissions) : current.permissions,
      description: description === '' ? current.description : description,
    });
  }

  async deleteRole(name: string): Promise<void> {
    if (DEFAULT_ROLES.has(name)) throw new PredefinedRoleError();
    if (!this.custom.delete(name)) throw new RoleNotFoundError();
    await this.store.write({ kind: 'role.delete', name }).promise;
    this.onChange();
  }

  /** The roles mapped to a principal (empty without a mapping). */
  principalRoles(principal: string): string[] {
    return this.mappings.get(principal) ?? [];
  }

  /**
   * What `GET /security/roles/{principal}` answers: the mapped roles or, unmapped, the principal's
   * own name, as the original's role mapper lists it (for a group that is the role it gives; a
   * user's name still grants nothing here, see rolesOf).
   */
  listRoles(principal: string): string[] {
    return this.mappings.get(principal) ?? [principal];
  }

  principals(): Record<string, string[]> {
    return Object.fromEntries([...this.mappings.entries()].sort(([a], [b]) => (a < b ? -1 : 1)));
  }

  hasMapping(principal: string): boolean {
    return this.mappings.has(principal);
  }

  async grant(principal: string, roles: string[]): Promise<void> {
    await this.setMapping(principal, [...new Set([...this.principalRoles(principal), ...roles])]);
  }

  async deny(principal: string, roles: string[] | 'all'): Promise<void> {
    await this.setMapping(principal, roles === 'all' ? [] : this.principalRoles(principal).filter((r) => !roles.includes(r)));
  }

  private async setMapping(principal: string, roles: string[]): Promise<void> {
    if (roles.length) this.mappings.set(principal, roles);
    else this.mappings.delete(principal);
    await this.store.write({ kind: 'principal.setRoles', record: { principal, roles } }).promise;
    this.onChange();
  }

  private async saveRole(r: RoleRecord): Promise<void> {
    this.custom.set(r.name, r);
    await this.store.write({ kind: 'role.upsert', record: r }).promise;
    this.onChange();
  }
}

function parsePermissions(names: string[]): string[] {
  return names.map((n) => {
    const p = n.toUpperCase();
    if (!(p in PERMISSION_MASKS)) throw new UnknownPermissionError(p);
    return p;
  });
}

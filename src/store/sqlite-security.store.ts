import type { Database, Statement } from 'better-sqlite3';
import type { PrincipalRolesRecord, RoleRecord } from './records';

interface RoleRow { name: string; permissions: string; description: string }
interface MappingRow { principal: string; roles: string }

const split = (s: string) => (s ? s.split(',') : []);

/** Custom roles and principal → role mappings. */
export class SqliteSecurityStore {
  private readonly allRoles: Statement;
  private readonly allMappings: Statement;
  private readonly upsertRoleStmt: Statement;
  private readonly deleteRoleStmt: Statement;
  private readonly upsertMappingStmt: Statement;
  private readonly deleteMappingStmt: Statement;

  constructor(db: Database) {
    this.allRoles = db.prepare('SELECT name, permissions, description FROM roles ORDER BY name');
    this.allMappings = db.prepare('SELECT principal, roles FROM principal_roles ORDER BY principal');
    this.upsertRoleStmt = db.prepare('INSERT OR REPLACE INTO roles (name, permissions, description) VALUES (?, ?, ?)');
    this.deleteRoleStmt = db.prepare('DELETE FROM roles WHERE name = ?');
    this.upsertMappingStmt = db.prepare('INSERT OR REPLACE INTO principal_roles (principal, roles) VALUES (?, ?)');
    this.deleteMappingStmt = db.prepare('DELETE FROM principal_roles WHERE principal = ?');
  }

  listRoles(): RoleRecord[] {
    return (this.allRoles.all() as RoleRow[]).map((r) => ({ name: r.name, permissions: split(r.permissions), description: r.description }));
  }

  listPrincipalRoles(): PrincipalRolesRecord[] {
    return (this.allMappings.all() as MappingRow[]).map((r) => ({ principal: r.principal, roles: split(r.roles) }));
  }

  upsertRole(r: RoleRecord): void {
    this.upsertRoleStmt.run(r.name, r.permissions.join(','), r.description);
  }

  deleteRole(name: string): void {
    this.deleteRoleStmt.run(name);
  }

  setPrincipalRoles(r: PrincipalRolesRecord): void {
    if (r.roles.length === 0) this.deleteMappingStmt.run(r.principal);
    else this.upsertMappingStmt.run(r.principal, r.roles.join(','));
  }
}

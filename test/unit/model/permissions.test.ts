import { expect } from 'chai';
import { DEFAULT_ROLES, hasPermission, maskOfRoles, PERMISSION_BITS, PERMISSION_MASKS, type Permission } from '../../../src/model/security/permissions';

// AuthorizationPermission masks (docs/reference/http.md#authorization).
const LIFECYCLE = 1, READ = 2, WRITE = 4, EXEC = 8, LISTEN = 16, BULK_READ = 32, BULK_WRITE = 64, ADMIN = 128, CREATE = 256, MONITOR = 512;
const EVERY: Permission[] = ['LIFECYCLE', 'READ', 'WRITE', 'EXEC', 'LISTEN', 'BULK_READ', 'BULK_WRITE', 'ADMIN', 'CREATE', 'MONITOR'];

function permissionsOf(mask: number): Permission[] {
  return EVERY.filter((p) => hasPermission(mask, p));
}

describe('permissions (docs/reference/http.md#authorization)', () => {
  it('use the masks of AuthorizationPermission', () => {
    expect(PERMISSION_BITS).to.deep.equal({ LIFECYCLE, READ, WRITE, EXEC, LISTEN, BULK_READ, BULK_WRITE, ADMIN, CREATE, MONITOR });
  });

  it('ALL_READ is READ + BULK_READ, ALL_WRITE is WRITE + BULK_WRITE, NONE is 0', () => {
    expect(PERMISSION_MASKS.ALL_READ).to.equal(READ | BULK_READ);
    expect(PERMISSION_MASKS.ALL_WRITE).to.equal(WRITE | BULK_WRITE);
    expect(PERMISSION_MASKS.NONE).to.equal(0);
  });

  it('ALL holds every permission', () => {
    expect(permissionsOf(PERMISSION_MASKS.ALL)).to.deep.equal(EVERY);
  });
});

describe('default roles (docs/reference/http.md#authorization)', () => {
  it('are admin, application, deployer, observer and monitor', () => {
    expect([...DEFAULT_ROLES.keys()].sort()).to.deep.equal(['admin', 'application', 'deployer', 'monitor', 'observer']);
  });

  it('admin: ALL', () => {
    expect(permissionsOf(DEFAULT_ROLES.get('admin')!.mask)).to.deep.equal(EVERY);
  });

  it('application: ALL_READ, ALL_WRITE, LISTEN, EXEC, MONITOR', () => {
    expect(DEFAULT_ROLES.get('application')!.mask).to.equal(READ | BULK_READ | WRITE | BULK_WRITE | LISTEN | EXEC | MONITOR);
  });

  it('deployer: ALL_READ, ALL_WRITE, LISTEN, EXEC, CREATE, MONITOR', () => {
    expect(DEFAULT_ROLES.get('deployer')!.mask).to.equal(READ | BULK_READ | WRITE | BULK_WRITE | LISTEN | EXEC | CREATE | MONITOR);
  });

  it('observer: ALL_READ, MONITOR', () => {
    expect(DEFAULT_ROLES.get('observer')!.mask).to.equal(READ | BULK_READ | MONITOR);
  });

  it('monitor: MONITOR', () => {
    expect(DEFAULT_ROLES.get('monitor')!.mask).to.equal(MONITOR);
  });

  it('only admin has ADMIN and LIFECYCLE', () => {
    for (const [name, role] of DEFAULT_ROLES) {
      expect(hasPermission(role.mask, 'ADMIN'), name).to.equal(name === 'admin');
      expect(hasPermission(role.mask, 'LIFECYCLE'), name).to.equal(name === 'admin');
    }
  });
});

describe('maskOfRoles', () => {
  it('is the union of the roles', () => {
    expect(maskOfRoles(['observer', 'monitor'])).to.equal(READ | BULK_READ | MONITOR);
    expect(maskOfRoles(['monitor', 'deployer'])).to.equal(DEFAULT_ROLES.get('deployer')!.mask);
  });

  it('grants nothing for unknown roles or none', () => {
    expect(maskOfRoles(['wizard'])).to.equal(0);
    expect(maskOfRoles([])).to.equal(0);
  });

  it('is case-sensitive about role names', () => {
    expect(maskOfRoles(['Admin'])).to.equal(0);
  });
});

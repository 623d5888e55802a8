import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, readConfigFile, resolveConfig } from '../../../src/config/server-config';
import { tenantNameProblem } from '../../../src/config/tenants';

describe('server configuration: tenants', () => {
  let dir: string;
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  before(() => { dir = mkdtempSync(join(tmpdir(), 'grid-tenants-config-')); });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the same tenants from YAML, JSON and XML', () => {
    const expected = [{ name: 't1' }, { name: 't2' }];
    expect(readConfigFile(file('a.yaml', 'server:\n  tenants:\n    - name: t1\n    - name: t2\n')).tenants).to.deep.equal(expected);
    expect(readConfigFile(file('a.json', '{"server":{"tenants":[{"name":"t1"},{"name":"t2"}]}}')).tenants).to.deep.equal(expected);
    expect(readConfigFile(file('a.xml', '<server><tenants><tenant name="t1"/><tenant name="t2"/></tenants></server>')).tenants).to.deep.equal(expected);
  });

  it('reads one XML tenant element, an empty list, and no tenants at all', () => {
    expect(readConfigFile(file('one.xml', '<server><tenants><tenant name="only"/></tenants></server>')).tenants).to.deep.equal([{ name: 'only' }]);
    expect(readConfigFile(file('none.xml', '<server><tenants/></server>')).tenants).to.deep.equal([]);
    expect(readConfigFile(file('empty.yaml', 'server:\n  tenants: []\n')).tenants).to.deep.equal([]);
    expect(resolveConfig({}, {}, {}).tenants).to.deep.equal([]);
  });

  const refused: Array<[string, string, RegExp]> = [
    ['a mapping instead of a list', 'server:\n  tenants:\n    name: t1\n', /tenants: expected a list of tenants/],
    ['a tenant without a name', 'server:\n  tenants:\n    - {}\n', /every tenant needs a name/],
    ['a plain string', 'server:\n  tenants:\n    - t1\n', /expected a mapping with a name/],
    ['an unknown key', 'server:\n  tenants:\n    - name: t1\n      users: shared\n', /unknown setting 'users' of a tenant/],
    ['a name with a slash', 'server:\n  tenants:\n    - name: a/b\n', /tenant name 'a\/b' must be 1 to 64 letters/],
    ['a name starting with -', 'server:\n  tenants:\n    - name: -x\n', /must be 1 to 64 letters/],
    ['v2', 'server:\n  tenants:\n    - name: v2\n', /tenant name 'v2' is reserved/],
    ['V3 (reserved without case)', 'server:\n  tenants:\n    - name: V3\n', /tenant name 'V3' is reserved/],
    ['metrics', 'server:\n  tenants:\n    - name: metrics\n', /is reserved/],
    ['default', 'server:\n  tenants:\n    - name: default\n', /is reserved/],
    ['the same name twice, in another case', 'server:\n  tenants:\n    - name: t1\n    - name: T1\n', /tenant 'T1' is declared twice/],
  ];
  for (const [what, yaml, message] of refused) {
    it(`refuses ${what} with a ConfigError naming the file`, () => {
      const path = file('bad.yaml', yaml);
      expect(() => readConfigFile(path)).to.throw(ConfigError, message).with.property('message').that.contains(path);
    });
  }

  it('takes letters, digits, _ and - up to 64 characters', () => {
    for (const ok of ['t1', 'Team_A', 'team-b', '_x', 'a'.repeat(64), 'v2x', 'cache-managers']) expect(tenantNameProblem(ok), ok).to.equal(undefined);
    for (const bad of ['', 'a'.repeat(65), 'a b', 'a.b', 'é', 'v10', 'console', 'health', 'rest']) expect(tenantNameProblem(bad), bad).to.be.a('string');
  });
});

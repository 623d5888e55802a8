import { expect } from 'chai';
import { DeclarationError } from '../../../../src/errors';
import { readDeclarations, type DeclarationText } from '../../../../src/model/declarations/read-declarations';
import { thrown } from '../../../support/thrown';

const NO_FILES = (path: string): string => { throw new DeclarationError(`cannot read ${path}`); };

function read(...sources: Array<[string, string]>) {
  const texts: DeclarationText[] = sources.map(([path, text]) => ({ path, text, format: path.endsWith('.xml') ? 'xml' : path.endsWith('.json') ? 'json' : 'yaml' }));
  return readDeclarations(texts, NO_FILES);
}

describe('readDeclarations', () => {
  it('reads the caches, templates, counters and roles of an infinispan.xml, in document order', () => {
    const d = read(['a.xml', `<infinispan><cache-container>
      <local-cache-configuration name="t"/><local-cache name="c" configuration="t"/>
      <counters><strong-counter name="s" initial-value="2"><upper-bound value="9"/></strong-counter></counters>
      <security><authorization><role name="r" permissions="READ WRITE"/></authorization></security>
    </cache-container></infinispan>`]);
    expect(d.caches.map((c) => [c.name, c.template, c.definition.root.name])).to.deep.equal([['t', true, 'local-cache-configuration'], ['c', false, 'local-cache']]);
    expect(d.counters.map((c) => [c.name, c.config.initialValue, c.config.upperBound])).to.deep.equal([['s', 2n, 9n]]);
    expect(d.roles).to.deep.equal([{ name: 'r', permissions: ['READ', 'WRITE'], source: 'a.xml' }]);
    expect(d.ignored).to.deep.equal([]);
  });

  it('names every part of the original\'s format it leaves aside, with a reason', () => {
    const d = read(['a.yaml', [
      'infinispan:',
      '  jgroups: {}',
      '  cacheContainer:',
      '    name: other',
      '    statistics: true',
      '    transport: {}',
      '    security: { authorization: { identityRoleMapper: null } }',
      '  server:',
      '    endpoints: {}',
      '    security: { securityRealms: {}, credentialStores: {} }',
    ].join('\n')]);
    expect(d.ignored.map((i) => i.element)).to.deep.equal([
      'infinispan.jgroups', 'cache-container.name', 'cache-container.transport', 'cache-container.security.authorization.identity-role-mapper',
      'infinispan.server.endpoints', 'infinispan.server.security.security-realms', 'infinispan.server.security.credential-stores',
    ]);
    expect(d.ignored.every((i) => i.source === 'a.yaml' && i.reason !== '')).to.equal(true);
  });

  it('takes a resource declared again from the later file, in the first one\'s place', () => {
    const d = read(
      ['one.yaml', 'caches:\n  a: { local-cache: { statistics: false } }\n  b: { local-cache: {} }\ncounters:\n  n: { weak-counter: {} }'],
      ['two.json', JSON.stringify({ caches: { a: { 'local-cache': { statistics: true } } }, counters: { n: { 'strong-counter': {} } } })],
    );
    expect(d.caches.map((c) => [c.name, c.source, c.definition.root.attributes.statistics])).to.deep.equal([['a', 'two.json', true], ['b', 'one.yaml', undefined]]);
    expect(d.counters.map((c) => [c.name, c.config.kind])).to.deep.equal([['n', 'strong-counter']]);
  });

  it('reads a cache kind straight under the container, named by its name attribute (one, or a list)', () => {
    const d = read(['a.json', JSON.stringify({ infinispan: { 'cache-container': {
      'distributed-cache-configuration': { name: 'base', owners: 1 },
      'local-cache': [{ name: 'x' }, { name: 'y', statistics: true }],
    } } })]);
    expect(d.caches.map((c) => [c.name, c.template])).to.deep.equal([['base', true], ['x', false], ['y', false]]);
  });

  it('makes the kinds under templates template kinds', () => {
    const d = read(['g.yaml', 'server:\n  templates:\n    t: { distributedCache: { owners: 1 } }']);
    expect(d.caches.map((c) => [c.name, c.template, c.definition.root.name])).to.deep.equal([['t', true, 'distributed-cache-configuration']]);
  });

  describe('refuses, naming the file and the resource', () => {
    const cases: Array<[string, [string, string], RegExp]> = [
      ['an unknown attribute of a cache', ['a.xml', '<infinispan><cache-container><local-cache name="c" colour="red"/></cache-container></infinispan>'], /^a\.xml: cache 'c': Unexpected attribute 'colour' encountered\[1,52\]$/],
      ['a cache without a name', ['a.xml', '<infinispan><cache-container><local-cache/></cache-container></infinispan>'], /^a\.xml: a local-cache without a name$/],
      ['a counter of an unknown attribute', ['a.yaml', 'counters:\n  n: { weak-counter: { colour: red } }'], /^a\.yaml: counter 'n': Unexpected attribute 'colour' in 'weak-counter'$/],
      ['a role without permissions', ['a.json', '{"roles": {"r": []}}'], /^a\.json: role 'r': name its permissions/],
      ['a schema whose file cannot be read', ['a.yaml', 'schemas:\n  p.proto: { file: /nowhere/p.proto }'], /^a\.yaml: schema 'p\.proto': cannot read \/nowhere\/p\.proto$/],
      ['something else than a cache under caches', ['g.xml', '<server><caches><cache name="c"/></caches></server>'], /^g\.xml: 'cache' is not a cache/],
    ];
    for (const [what, source, message] of cases) {
      it(what, () => expect(thrown(() => read(source), DeclarationError).message).to.match(message));
    }
  });
});

import { expect } from 'chai';
import { BUILTIN_TEMPLATES, formatCacheConfig, toCacheSettings } from '../../../../src/model/cache-config';

describe('BUILTIN_TEMPLATES', () => {
  const table: Array<[string, string, string]> = [
    ['org.infinispan.LOCAL', 'local-cache', 'LOCAL'],
    ['org.infinispan.REPL_SYNC', 'replicated-cache', 'REPL_SYNC'],
    ['org.infinispan.REPL_ASYNC', 'replicated-cache', 'REPL_ASYNC'],
    ['org.infinispan.DIST_SYNC', 'distributed-cache', 'DIST_SYNC'],
    ['org.infinispan.DIST_ASYNC', 'distributed-cache', 'DIST_ASYNC'],
    ['org.infinispan.INVALIDATION_SYNC', 'invalidation-cache', 'INVALIDATION_SYNC'],
    ['org.infinispan.INVALIDATION_ASYNC', 'invalidation-cache', 'INVALIDATION_ASYNC'],
  ];

  it('holds exactly the seven built-in names', () => {
    expect(Object.keys(BUILTIN_TEMPLATES)).to.have.members(table.map(([name]) => name));
  });

  for (const [name, kind, mode] of table) {
    it(`${name} is a ${kind} in ${mode} mode with statistics on`, () => {
      const template = BUILTIN_TEMPLATES[name];
      expect(template.root.name).to.equal(kind);
      expect(toCacheSettings(template)).to.include({ kind, cacheMode: mode, statistics: true, template: false });
    });
  }

  it('is frozen, so a cache created from it cannot change it', () => {
    const template = BUILTIN_TEMPLATES['org.infinispan.DIST_SYNC'];
    expect(Object.isFrozen(template.root.attributes)).to.equal(true);
    expect(formatCacheConfig(template, undefined, 'json', false)).to.equal('{"distributed-cache":{"mode":"SYNC","statistics":true}}');
  });
});

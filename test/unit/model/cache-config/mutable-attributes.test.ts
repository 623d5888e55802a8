import { expect } from 'chai';
import {
  findIncompatibleChanges, findMutableAttribute, formatCacheConfig, mutableAttributesOf, mutableValueOf, mutableValueText,
  MutableValueError, parseCacheConfig, toCacheSettings, withAliases, withMutableAttribute, type CacheDefinition,
} from '../../../../src/model/cache-config';

function def(json: unknown): CacheDefinition {
  return parseCacheConfig(JSON.stringify(json), 'json');
}

function set(d: CacheDefinition, name: string, text: string): CacheDefinition {
  const a = findMutableAttribute(d, name);
  if (!a) throw new Error(`${name} is not mutable`);
  return withMutableAttribute(d, a, text);
}

function json(d: CacheDefinition): unknown {
  return JSON.parse(formatCacheConfig(d, undefined, 'json', false));
}

describe('mutable cache attributes (docs/reference/management-plane.md#mutable-attributes)', () => {
  it('lists the names of each cache kind: remote-timeout for every kind, state transfer for distributed and replicated', () => {
    const local = mutableAttributesOf(def({ 'local-cache': {} })).map((a) => a.name);
    const dist = mutableAttributesOf(def({ 'distributed-cache': {} })).map((a) => a.name);
    for (const name of ['aliases', 'expiration.lifespan', 'expiration.max-idle', 'memory.max-count', 'memory.max-size',
      'indexing.indexed-entities', 'security.authorization.roles', 'tracing.enabled', 'tracing.categories']) {
      expect(local, name).to.include(name);
    }
    expect(local).to.include('clustering.remote-timeout').and.not.include('clustering.state-transfer.timeout');
    expect(dist).to.include.members(['clustering.remote-timeout', 'clustering.state-transfer.timeout']);
    expect(mutableAttributesOf(def({ 'invalidation-cache': {} })).map((a) => a.name)).to.not.include('clustering.state-transfer.timeout');
  });

  it('reports written values typed, and the original defaults otherwise', () => {
    const d = def({ 'distributed-cache': { memory: { 'max-count': '20' }, expiration: { lifespan: '30s' }, indexing: { 'indexed-entities': ['a.B'] } } });
    const value = (name: string) => mutableValueOf(d, findMutableAttribute(d, name)!);
    expect(value('memory.max-count')).to.equal(20);
    expect(value('memory.max-size')).to.equal(null);
    expect(value('expiration.lifespan')).to.equal('30s');
    expect(value('expiration.max-idle')).to.equal('-1');
    expect(value('clustering.remote-timeout')).to.equal('15s');
    expect(value('indexing.indexed-entities')).to.deep.equal(['a.B']);
    expect(value('tracing.enabled')).to.equal(true);
    expect(mutableValueText(['a', 'b'])).to.equal('[a, b]');
    expect(mutableValueText([])).to.equal('[]');
    expect(mutableValueText(null)).to.equal('null');
  });

  it('sets a value in schema order, creating the element, and the result is a compatible update', () => {
    const before = def({ 'local-cache': { statistics: true, memory: { 'max-count': '10' } } });
    const after = set(set(before, 'expiration.max-idle', '5m'), 'memory.max-count', '9000');
    expect(json(after)).to.deep.equal({ 'local-cache': { statistics: true, expiration: { 'max-idle': '5m' }, memory: { 'max-count': '9000' } } });
    expect(findIncompatibleChanges(before, after)).to.deep.equal([]);
    expect(toCacheSettings(after)).to.include({ maxIdleMs: 300_000, maxCount: 9000 });
  });

  it('adds indexed entities and roles without turning indexing or authorization on', () => {
    const before = def({ 'local-cache': {} });
    const after = set(set(before, 'indexing.indexed-entities', 'a.B c.D a.B'), 'security.authorization.roles', 'observer admin');
    expect(toCacheSettings(after)).to.include({ indexed: false, secured: false });
    expect(toCacheSettings(after).indexedEntities).to.deep.equal(['a.B', 'c.D']);
    expect(toCacheSettings(after).roles).to.deep.equal(['observer', 'admin']);
    expect(findIncompatibleChanges(before, after)).to.deep.equal([]);
  });

  it('clears a set with an empty value and replaces aliases', () => {
    const d = withAliases(def({ 'local-cache': {} }), ['x', 'y']);
    expect(toCacheSettings(d).aliases).to.deep.equal(['x', 'y']);
    expect(json(set(d, 'aliases', ''))).to.deep.equal({ 'local-cache': {} });
  });

  it('refuses values of the wrong type', () => {
    const d = def({ 'local-cache': { memory: { 'max-count': '10' } } });
    expect(() => set(d, 'expiration.lifespan', 'soon')).to.throw(MutableValueError, /ISPN000686: Attribute 'lifespan' of element 'expiration' has an illegal value 'soon'/);
    expect(() => set(d, 'memory.max-count', '1.5')).to.throw(MutableValueError, /expected an integer/);
    expect(() => set(d, 'tracing.enabled', 'yes')).to.throw(MutableValueError, /expected true or false/);
  });

  it('changes a memory bound but never introduces or switches one', () => {
    expect(() => set(def({ 'local-cache': {} }), 'memory.max-count', '10')).to.throw(MutableValueError, /Cannot change max-count/);
    expect(() => set(def({ 'local-cache': { memory: { 'max-count': '10' } } }), 'memory.max-size', '1MB')).to.throw(MutableValueError, /Cannot change max-size/);
    expect(toCacheSettings(set(def({ 'local-cache': { memory: { 'max-size': '1MB' } } }), 'memory.max-size', '2MB')).maxSizeBytes).to.equal(2_000_000);
  });

  it('knows nothing of immutable attributes', () => {
    const d = def({ 'distributed-cache': {} });
    for (const name of ['mode', 'encoding.media-type', 'clustering.cache-mode', 'memory.storage', 'nope']) expect(findMutableAttribute(d, name), name).to.equal(undefined);
  });
});

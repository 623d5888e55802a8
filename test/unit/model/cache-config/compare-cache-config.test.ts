import { expect } from 'chai';
import { findIncompatibleChanges, parseCacheConfig, type ConfigFormat } from '../../../../src/model/cache-config';

function changes(existing: string, updated: string, format: ConfigFormat = 'json'): string[] {
  return findIncompatibleChanges(parseCacheConfig(existing, format), parseCacheConfig(updated, format));
}

const CREATED = JSON.stringify({
  'distributed-cache': {
    mode: 'SYNC', statistics: true,
    encoding: { key: { 'media-type': 'application/x-protostream' }, value: { 'media-type': 'application/x-protostream' } },
    expiration: { lifespan: '60000' },
    memory: { 'max-count': '1000', 'when-full': 'REMOVE' },
  },
});

describe('findIncompatibleChanges', () => {
  it('allows an identical definition', () => {
    expect(changes(CREATED, CREATED)).to.deep.equal([]);
  });

  it('allows changes to mutable attributes (lifespan, max-count)', () => {
    const altered = CREATED.replace('"60000"', '"30000"').replace('"1000"', '"2000"');
    expect(changes(CREATED, altered)).to.deep.equal([]);
  });

  it('rejects a mode change with ISPN000961', () => {
    expect(changes(CREATED, '{"distributed-cache":{"mode":"ASYNC"}}')).to.deep.equal([
      "ISPN000961: Incompatible attribute 'distributed-cache.clustering.cache-mode' existing value='DIST_SYNC', new value='DIST_ASYNC'",
    ]);
  });

  it('rejects a different kind', () => {
    expect(changes('{"distributed-cache":{}}', '{"replicated-cache":{}}')).to.deep.equal([
      "ISPN000961: Incompatible attribute 'distributed-cache.clustering.cache-mode' existing value='DIST_SYNC', new value='REPL_SYNC'",
    ]);
  });

  it('lists every changed immutable attribute, encoding media types included', () => {
    const one = '{"local-cache":{"statistics":true,"encoding":{"key":{"media-type":"text/plain"},"value":{"media-type":"text/plain"}},"memory":{"max-count":"50"}}}';
    const two = '{"local-cache":{"statistics":true,"encoding":{"key":{"media-type":"application/x-protostream"},"value":{"media-type":"application/x-protostream"}},"memory":{"max-count":"50"}}}';
    expect(changes(one, two)).to.deep.equal([
      "ISPN000961: Incompatible attribute 'local-cache.encoding.key.media-type' existing value='text/plain', new value='application/x-protostream'",
      "ISPN000961: Incompatible attribute 'local-cache.encoding.value.media-type' existing value='text/plain', new value='application/x-protostream'",
    ]);
  });

  it('compares effective values: defaults, durations and formats do not count as changes', () => {
    expect(changes('<distributed-cache name="a" mode="SYNC"><memory storage="HEAP" max-count="20"/></distributed-cache>',
      '<distributed-cache><memory max-count="20"/></distributed-cache>', 'xml')).to.deep.equal([]);
    expect(changes('{"local-cache":{"locking":{"isolation":"REPEATABLE_READ"},"expiration":{"interval":"1m"}}}',
      '{"local-cache":{"expiration":{"interval":60000}}}')).to.deep.equal([]);
    expect(changes('{"local-cache":{"memory":{"max-count":10}}}', '{"local-cache":{"memory":{"max-count":20,"when-full":"REMOVE"}}}')).to.deep.equal([]);
  });

  it('reports an absent attribute by its default or null', () => {
    expect(changes('{"local-cache":{"locking":{"isolation":"READ_COMMITTED"}}}', '{"local-cache":{}}')).to.deep.equal([
      "ISPN000961: Incompatible attribute 'local-cache.locking.isolation' existing value='READ_COMMITTED', new value='REPEATABLE_READ'",
    ]);
    expect(changes('{"local-cache":{"encoding":{"media-type":"text/plain"}}}', '{"local-cache":{}}')).to.deep.equal([
      "ISPN000961: Incompatible attribute 'local-cache.encoding.media-type' existing value='text/plain', new value='null'",
    ]);
  });

  it('allows changing the indexed entities in any order', () => {
    expect(changes('{"local-cache":{"indexing":{"indexed-entities":["A"]}}}', '{"local-cache":{"indexing":{"indexed-entities":["B","A"]}}}')).to.deep.equal([]);
  });

  it('rejects adding a store or a backup site', () => {
    expect(changes('{"local-cache":{}}', '{"local-cache":{"persistence":{"file-store":{}}}}')).to.deep.equal([
      "ISPN000961: Incompatible attribute 'local-cache.persistence.file-store' existing value='null', new value='file-store'",
    ]);
    expect(changes('{"distributed-cache":{"backups":{"NYC":{"backup":{}}}}}',
      '{"distributed-cache":{"backups":{"NYC":{"backup":{"strategy":"SYNC"}},"LON":{"backup":{}}}}}')).to.deep.equal([
      "ISPN000961: Incompatible attribute 'distributed-cache.backups.NYC.strategy' existing value='ASYNC', new value='SYNC'",
      "ISPN000961: Incompatible attribute 'distributed-cache.backups.LON' existing value='null', new value='backup'",
    ]);
  });

  it('rejects turning indexing on', () => {
    expect(changes('{"local-cache":{}}', '{"local-cache":{"indexing":{}}}')).to.deep.equal([
      "ISPN000961: Incompatible attribute 'local-cache.indexing.enabled' existing value='false', new value='true'",
    ]);
  });
});

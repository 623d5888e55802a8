import { expect } from 'chai';
import { parseCacheConfig, toCacheSettings, type CacheSettings } from '../../../../src/model/cache-config';
import { CACHE_FRAGMENT_XML, CACHE_XML, RICH_JSON } from './config-fixtures';

function settingsOf(json: string): CacheSettings {
  return toCacheSettings(parseCacheConfig(json, 'json'));
}

describe('toCacheSettings', () => {
  it('applies the defaults to a bare local cache', () => {
    expect(settingsOf('{"local-cache":{}}')).to.deep.equal({
      kind: 'local-cache', template: false, cacheMode: 'LOCAL', statistics: false, simpleCache: false, aliases: [], tracing: true,
      lifespanMs: -1, maxIdleMs: -1, maxCount: -1, maxSizeBytes: -1, whenFull: 'NONE', bounded: false,
      storageType: 'HEAP', persistent: false, passivation: false, preload: false, indexed: false, indexedEntities: [],
      transactional: false, secured: false, roles: [], hasRemoteBackup: false,
    });
  });

  it('reads the tracing switch, on unless turned off', () => {
    expect(settingsOf('{"local-cache":{"tracing":{"enabled":false}}}').tracing).to.equal(false);
    expect(settingsOf('{"local-cache":{"tracing":{"categories":["container"]}}}').tracing).to.equal(true);
  });

  it('derives the cache mode from the kind and mode (default SYNC)', () => {
    const table: Array<[string, string]> = [
      ['{"distributed-cache":{}}', 'DIST_SYNC'],
      ['{"distributed-cache":{"mode":"ASYNC"}}', 'DIST_ASYNC'],
      ['{"replicated-cache":{"mode":"SYNC"}}', 'REPL_SYNC'],
      ['{"replicated-cache-configuration":{"mode":"ASYNC"}}', 'REPL_ASYNC'],
      ['{"invalidation-cache":{}}', 'INVALIDATION_SYNC'],
      ['{"invalidation-cache":{"mode":"ASYNC"}}', 'INVALIDATION_ASYNC'],
    ];
    for (const [json, mode] of table) expect(settingsOf(json).cacheMode, json).to.equal(mode);
    expect(settingsOf('{"replicated-cache-configuration":{}}')).to.include({ kind: 'replicated-cache', template: true });
  });

  it('converts durations to milliseconds', () => {
    expect(settingsOf('{"local-cache":{"expiration":{"lifespan":"5s","max-idle":"1h"}}}')).to.include({ lifespanMs: 5000, maxIdleMs: 3600000 });
    expect(settingsOf('{"local-cache":{"expiration":{"lifespan":"500ms","max-idle":120000}}}')).to.include({ lifespanMs: 500, maxIdleMs: 120000 });
    expect(settingsOf('{"local-cache":{"expiration":{"lifespan":"1.5m"}}}')).to.include({ lifespanMs: 90000, maxIdleMs: -1 });
  });

  it('converts sizes to bytes, KB as 1000 and KiB as 1024', () => {
    expect(settingsOf('{"local-cache":{"memory":{"max-size":"400MB"}}}')).to.include({ maxSizeBytes: 400_000_000, maxSize: '400MB', bounded: true, whenFull: 'REMOVE' });
    expect(settingsOf('{"local-cache":{"memory":{"max-size":"1GiB"}}}').maxSizeBytes).to.equal(1024 ** 3);
    expect(settingsOf('{"local-cache":{"memory":{"max-size":"10KB"}}}').maxSizeBytes).to.equal(10_000);
    expect(settingsOf('{"local-cache":{"memory":{"max-size":"1.5KiB"}}}').maxSizeBytes).to.equal(1536);
    expect(settingsOf('{"local-cache":{"memory":{"max-size":"2048"}}}').maxSizeBytes).to.equal(2048);
  });

  it('evicts (REMOVE) when bounded without a strategy, else keeps the configured one', () => {
    expect(settingsOf('{"local-cache":{"memory":{"max-count":100}}}')).to.include({ maxCount: 100, bounded: true, whenFull: 'REMOVE' });
    expect(settingsOf('{"local-cache":{"memory":{"max-count":100,"when-full":"EXCEPTION"}}}')).to.include({ whenFull: 'EXCEPTION' });
    expect(settingsOf('{"local-cache":{"memory":{"storage":"OFF_HEAP"}}}')).to.include({ storageType: 'OFF_HEAP', bounded: false, whenFull: 'NONE' });
  });

  it('reads the pre-11 memory form of cache-fragment.xml', () => {
    expect(toCacheSettings(parseCacheConfig(CACHE_FRAGMENT_XML, 'xml'))).to.include({ storageType: 'OBJECT', maxCount: 20, bounded: true });
  });

  it('takes key and value media types from encoding, falling back to its media-type', () => {
    expect(settingsOf('{"local-cache":{"encoding":{"media-type":"text/plain"}}}')).to.include({ keyMediaType: 'text/plain', valueMediaType: 'text/plain' });
    expect(settingsOf('{"local-cache":{"encoding":{"media-type":"text/plain","value":{"media-type":"application/json"}}}}'))
      .to.include({ keyMediaType: 'text/plain', valueMediaType: 'application/json' });
  });

  it('reads the feature flags of cache.xml', () => {
    expect(toCacheSettings(parseCacheConfig(CACHE_XML, 'xml'))).to.include({
      kind: 'distributed-cache', cacheMode: 'DIST_SYNC', transactional: true, storageType: 'OBJECT', maxCount: 20, persistent: false,
    });
  });

  it('reads persistence, indexing, security and backups', () => {
    const settings = settingsOf(RICH_JSON);
    expect(settings).to.deep.include({
      cacheMode: 'REPL_ASYNC', statistics: true, aliases: ['alpha', 'beta'], persistent: true, passivation: false, preload: true,
      indexed: true, indexedEntities: ['org.example.Book', 'org.example.Author'], secured: true, roles: ['admin', 'reader'],
      hasRemoteBackup: true, lifespanMs: 5000, maxIdleMs: 60000,
    });
  });

  it('turns indexing and authorization on by their presence unless disabled', () => {
    expect(settingsOf('{"local-cache":{"indexing":{}}}').indexed).to.equal(true);
    expect(settingsOf('{"local-cache":{"indexing":{"enabled":false,"indexed-entities":["E"]}}}')).to.deep.include({ indexed: false, indexedEntities: ['E'] });
    expect(settingsOf('{"local-cache":{"security":{"authorization":{}}}}').secured).to.equal(true);
    expect(settingsOf('{"local-cache":{"security":{"authorization":{"enabled":false}}}}').secured).to.equal(false);
  });

  it('counts a transaction as such only when its mode is not NONE', () => {
    expect(settingsOf('{"local-cache":{"transaction":{"mode":"NONE"}}}').transactional).to.equal(false);
    expect(settingsOf('{"local-cache":{"transaction":{"mode":"NON_XA"}}}').transactional).to.equal(true);
  });
});

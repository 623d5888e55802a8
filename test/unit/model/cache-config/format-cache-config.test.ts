import { expect } from 'chai';
import {
  formatCacheConfig, formatCacheDocument, parseCacheConfig, type ConfigFormat,
} from '../../../../src/model/cache-config';
import { CACHE_JSON, CACHE_XML, LOCAL_YAML, RICH_JSON } from './config-fixtures';

const FORMATS: ConfigFormat[] = ['json', 'xml', 'yaml'];

describe('formatCacheConfig', () => {
  describe('JSON', () => {
    it('writes every non-boolean value as a string, booleans bare, lists as arrays', () => {
      const def = parseCacheConfig('{"distributed-cache":{"statistics":true,"owners":3,"aliases":["a"],"memory":{"max-count":2000}}}', 'json');
      expect(formatCacheConfig(def, 'c', 'json', false)).to.equal(
        '{"c":{"distributed-cache":{"statistics":true,"aliases":["a"],"owners":"3","memory":{"max-count":"2000"}}}}',
      );
    });

    it('writes an unnamed definition without the name level', () => {
      const def = parseCacheConfig('<local-cache name="ignored"><encoding media-type="text/plain"/></local-cache>', 'xml');
      expect(formatCacheConfig(def, undefined, 'json', false)).to.equal('{"local-cache":{"encoding":{"media-type":"text/plain"}}}');
    });

    it('pretty-prints with two spaces', () => {
      const def = parseCacheConfig('{"local-cache":{"statistics":true}}', 'json');
      expect(formatCacheConfig(def, 'c', 'json', true)).to.equal('{\n  "c": {\n    "local-cache": {\n      "statistics": true\n    }\n  }\n}');
    });

    it('writes backups as a map keyed by site and indexed entities as an array', () => {
      const def = parseCacheConfig(RICH_JSON, 'json');
      const json = JSON.parse(formatCacheConfig(def, 'c', 'json', false)) as Record<string, Record<string, Record<string, unknown>>>;
      const cache = json.c['replicated-cache'];
      expect(cache.backups).to.deep.equal({ NYC: { backup: { strategy: 'SYNC', 'take-offline': { 'after-failures': '3' } } }, LON: { backup: {} } });
      expect(cache.indexing).to.deep.include({ 'indexed-entities': ['org.example.Book', 'org.example.Author'] });
    });

    it('gives the same JSON for cache.xml and cache.json, modulo the name', () => {
      const fromXml = formatCacheConfig(parseCacheConfig(CACHE_XML, 'xml'), 'cache1', 'json', false);
      const fromJson = formatCacheConfig(parseCacheConfig(CACHE_JSON, 'json'), 'cache2', 'json', false);
      expect(fromXml).to.equal(fromJson.replace('cache2', 'cache1'));
      expect(fromXml).to.equal(
        '{"cache1":{"distributed-cache":{"mode":"SYNC","segments":"2","l1-lifespan":"1200000",' +
        '"locking":{"isolation":"READ_COMMITTED","acquire-timeout":"31500","concurrency-level":"3500"},' +
        '"transaction":{"mode":"FULL_XA","locking":"OPTIMISTIC"},"memory":{"storage":"OBJECT","max-count":"20"},' +
        '"state-transfer":{"enabled":true,"timeout":"60500","chunk-size":"10500"}}}}',
      );
    });
  });

  describe('XML', () => {
    it('writes the declaration, then the cache element itself with a name attribute, no <infinispan> wrapper', () => {
      const def = parseCacheConfig('{"distributed-cache":{"mode":"SYNC","memory":{"max-count":20}}}', 'json');
      expect(formatCacheConfig(def, 'x', 'xml', false)).to.equal('<?xml version="1.0"?><distributed-cache name="x" mode="SYNC"><memory max-count="20"/></distributed-cache>');
      expect(formatCacheConfig(def, undefined, 'xml', false)).to.equal('<?xml version="1.0"?><distributed-cache mode="SYNC"><memory max-count="20"/></distributed-cache>');
    });

    it('escapes values, joins lists with spaces and writes indexed entities as elements', () => {
      const def = parseCacheConfig(
        '{"local-cache":{"aliases":["a","b"],"persistence":{"file-store":{"path":"<&>\\"\'"}},"indexing":{"indexed-entities":["E1"]}}}', 'json',
      );
      expect(formatCacheConfig(def, 'a&b', 'xml', false)).to.equal(
        '<?xml version="1.0"?><local-cache name="a&amp;b" aliases="a b"><persistence><file-store path="&lt;&amp;&gt;&quot;&apos;"/></persistence>' +
        '<indexing><indexed-entities><indexed-entity>E1</indexed-entity></indexed-entities></indexing></local-cache>',
      );
    });

    it('pretty-prints with two-space indentation', () => {
      const def = parseCacheConfig('<local-cache><expiration lifespan="1000"/></local-cache>', 'xml');
      expect(formatCacheConfig(def, 'c', 'xml', true)).to.equal('<?xml version="1.0"?>\n<local-cache name="c">\n  <expiration lifespan="1000"/>\n</local-cache>');
    });
  });

  describe('YAML', () => {
    it('writes camelCase names, quoted strings and bare booleans under the cache name', () => {
      const def = parseCacheConfig('<distributed-cache mode="SYNC" statistics="true"><memory max-count="20" when-full="REMOVE"/></distributed-cache>', 'xml');
      expect(formatCacheConfig(def, 'c', 'yaml', false)).to.equal(
        'c:\n  distributedCache:\n    mode: "SYNC"\n    statistics: true\n    memory:\n      maxCount: "20"\n      whenFull: "REMOVE"\n',
      );
    });

    it('writes an unnamed definition from its kind', () => {
      const def = parseCacheConfig(LOCAL_YAML, 'yaml');
      expect(formatCacheConfig(def, undefined, 'yaml', false)).to.match(/^localCache:\n {2}statistics: true\n {2}locking:\n/);
    });
  });

  describe('round trips', () => {
    const sources: Array<[string, string, ConfigFormat]> = [
      ['cache.xml', CACHE_XML, 'xml'],
      ['cache.json', CACHE_JSON, 'json'],
      ['the YAML example', LOCAL_YAML, 'yaml'],
      ['a definition using most of the schema', RICH_JSON, 'json'],
      ['a template', '{"invalidation-cache-configuration":{"mode":"ASYNC","indexing":{"indexed-entities":[]}}}', 'json'],
    ];
    for (const [label, text, sourceFormat] of sources) {
      for (const format of FORMATS) {
        it(`gives back ${label} after writing it as ${format}`, () => {
          const def = parseCacheConfig(text, sourceFormat);
          for (const pretty of [false, true]) {
            expect(parseCacheConfig(formatCacheConfig(def, 'my-cache', format, pretty), format)).to.deep.equal({ root: def.root, name: 'my-cache' });
            expect(parseCacheConfig(formatCacheConfig(def, undefined, format, pretty), format).root).to.deep.equal(def.root);
            expect(parseCacheConfig(formatCacheDocument(def, 'my-cache', format, pretty), format)).to.deep.equal({ root: def.root, name: 'my-cache' });
          }
        });
      }
    }
  });
});

describe('formatCacheDocument', () => {
  const def = parseCacheConfig('{"local-cache":{"encoding":{"media-type":"text/plain"}}}', 'json');

  it('wraps JSON in infinispan → cache-container → caches → name', () => {
    expect(formatCacheDocument(def, 'listen1', 'json', false)).to.equal(
      '{"infinispan":{"cache-container":{"caches":{"listen1":{"local-cache":{"encoding":{"media-type":"text/plain"}}}}}}}',
    );
  });

  it('writes XML as the original: declaration, <infinispan> with the namespace, <cache-container>, <caches>', () => {
    expect(formatCacheDocument(def, 'listen1', 'xml', false)).to.equal(
      '<?xml version="1.0"?><infinispan xmlns="urn:infinispan:config:15.0"><cache-container><caches>' +
      '<local-cache name="listen1"><encoding media-type="text/plain"/></local-cache></caches></cache-container></infinispan>',
    );
    expect(formatCacheDocument(def, 'listen1', 'xml', true)).to.equal([
      '<?xml version="1.0"?>',
      '<infinispan xmlns="urn:infinispan:config:15.0">',
      '  <cache-container>',
      '    <caches>',
      '      <local-cache name="listen1">',
      '        <encoding media-type="text/plain"/>',
      '      </local-cache>',
      '    </caches>',
      '  </cache-container>',
      '</infinispan>',
    ].join('\n'));
  });

  it('writes the YAML equivalent in camelCase', () => {
    expect(formatCacheDocument(def, 'listen1', 'yaml', false)).to.equal(
      'infinispan:\n  cacheContainer:\n    caches:\n      listen1:\n        localCache:\n          encoding:\n            mediaType: "text/plain"\n',
    );
  });
});

import { expect } from 'chai';
import { InvalidConfigurationError } from '../../../../src/errors';
import { findChild, parseCacheConfig, type CacheDefinition, type ConfigFormat } from '../../../../src/model/cache-config';
import {
  BROKEN_JSON, BROKEN_XML, BROKEN_YAML, CACHE_FRAGMENT_XML, CACHE_JSON, CACHE_XML, LOCAL_YAML,
} from './config-fixtures';

function parseError(text: string, format: ConfigFormat): InvalidConfigurationError {
  try {
    parseCacheConfig(text, format);
  } catch (err) {
    expect(err).to.be.instanceOf(InvalidConfigurationError);
    return err as InvalidConfigurationError;
  }
  throw new Error(`expected ${format} to be rejected: ${text}`);
}

const DIST_TREE = {
  name: 'distributed-cache',
  attributes: { mode: 'SYNC', segments: '2', 'l1-lifespan': '1200000' },
  children: [
    { name: 'locking', attributes: { isolation: 'READ_COMMITTED', 'acquire-timeout': '31500', 'concurrency-level': '3500' }, children: [] },
    { name: 'transaction', attributes: { mode: 'FULL_XA', locking: 'OPTIMISTIC' }, children: [] },
    { name: 'memory', attributes: { storage: 'OBJECT', 'max-count': '20' }, children: [] },
    { name: 'state-transfer', attributes: { enabled: true, timeout: '60500', 'chunk-size': '10500' }, children: [] },
  ],
};

describe('parseCacheConfig', () => {
  describe('XML', () => {
    it('reads a full <infinispan><cache-container> document (cache.xml)', () => {
      const def = parseCacheConfig(CACHE_XML, 'xml');
      expect(def).to.deep.equal({ root: DIST_TREE, name: 'dist' });
    });

    it('reads a bare fragment starting at the cache element, legacy memory children included', () => {
      const def = parseCacheConfig(CACHE_FRAGMENT_XML, 'xml');
      expect(def.name).to.equal('dist');
      expect(def.root.name).to.equal('distributed-cache');
      expect(findChild(def.root, 'memory')).to.deep.equal({
        name: 'memory', attributes: {}, children: [{ name: 'object', attributes: { size: '20' }, children: [] }],
      });
    });

    it('ignores namespaces, schema locations and the container attributes', () => {
      const xml = `<?xml version="1.0"?>
<infinispan xmlns="urn:infinispan:config:15.0" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
            xsi:schemaLocation="urn:infinispan:config:15.0 https://infinispan.org/schemas/infinispan-config-15.0.xsd">
  <!-- a comment -->
  <cache-container name="default" statistics="true">
    <transport cluster="c"/>
    <local-cache name="one" xsi:type="x"><expiration lifespan="5s"/></local-cache>
  </cache-container>
</infinispan>`;
      expect(parseCacheConfig(xml, 'xml')).to.deep.equal({
        name: 'one',
        root: { name: 'local-cache', attributes: {}, children: [{ name: 'expiration', attributes: { lifespan: '5s' }, children: [] }] },
      });
    });

    it('reads <indexed-entities> items as the list attribute of <indexing>', () => {
      const xml = `<local-cache><indexing storage="local-heap"><indexed-entities>
        <indexed-entity>org.example.Book</indexed-entity><indexed-entity>org.example.Author</indexed-entity>
      </indexed-entities></indexing></local-cache>`;
      expect(findChild(parseCacheConfig(xml, 'xml').root, 'indexing')?.attributes).to.deep.equal({
        storage: 'local-heap', 'indexed-entities': ['org.example.Book', 'org.example.Author'],
      });
    });

    it('reads space-separated lists and template kinds', () => {
      const def = parseCacheConfig('<replicated-cache-configuration aliases="a b" mode="ASYNC"/>', 'xml');
      expect(def.root).to.deep.equal({ name: 'replicated-cache-configuration', attributes: { mode: 'ASYNC', aliases: ['a', 'b'] }, children: [] });
    });

    it('answers 400 with the parser message for malformed XML', () => {
      const err = parseError('<local-cache><expiration></local-cache>', 'xml');
      expect(err.status).to.equal(400);
      expect(err.message).to.contain('Unexpected close tag');
    });

    it('rejects a DOCTYPE and entity declarations', () => {
      const doctype = '<?xml version="1.0"?><!DOCTYPE local-cache [<!ENTITY x "y">]><local-cache/>';
      expect(parseError(doctype, 'xml').message).to.equal('DOCTYPE is not allowed in a configuration');
      expect(parseError('<!ENTITY x "y"><local-cache/>', 'xml').message).to.equal('DOCTYPE is not allowed in a configuration');
    });

    it('reads the cache elements inside <caches>, as the original writes and reads a document', () => {
      const doc = '<?xml version="1.0"?><infinispan xmlns="urn:infinispan:config:15.0"><cache-container><caches>' +
        '<local-cache name="c1"><encoding media-type="text/plain"/></local-cache></caches></cache-container></infinispan>';
      expect(parseCacheConfig(doc, 'xml')).to.deep.equal({
        name: 'c1',
        root: { name: 'local-cache', attributes: {}, children: [{ name: 'encoding', attributes: { 'media-type': 'text/plain' }, children: [] }] },
      });
      const wrong = '<infinispan><cache-container><caches><transport/></caches></cache-container></infinispan>';
      expect(parseError(wrong, 'xml').message).to.match(/^ISPN000327: Cannot find a parser for element 'transport'/);
    });

    it('wants exactly one cache in a document', () => {
      const two = '<infinispan><cache-container><local-cache name="a"/><local-cache name="b"/></cache-container></infinispan>';
      expect(parseError(two, 'xml').message).to.equal('Expected exactly one cache definition, found 2');
      expect(parseError('<infinispan><cache-container/></infinispan>', 'xml').message).to.equal('Expected exactly one cache definition, found 0');
    });
  });

  describe('JSON', () => {
    it('reads a bare definition (cache.json) into the same tree as cache.xml', () => {
      expect(parseCacheConfig(CACHE_JSON, 'json')).to.deep.equal({ root: DIST_TREE });
    });

    it('reads a named definition and a name inside the kind object', () => {
      expect(parseCacheConfig('{"mycache":{"local-cache":{"statistics":true}}}', 'json')).to.deep.equal({
        name: 'mycache', root: { name: 'local-cache', attributes: { statistics: true }, children: [] },
      });
      expect(parseCacheConfig('{"local-cache":{"name":"inner"}}', 'json').name).to.equal('inner');
    });

    it('reads a full document with one cache', () => {
      const doc = '{"infinispan":{"cache-container":{"name":"default","caches":{"c1":{"local-cache":{"encoding":{"media-type":"text/plain"}}}}}}}';
      expect(parseCacheConfig(doc, 'json')).to.deep.equal({
        name: 'c1',
        root: { name: 'local-cache', attributes: {}, children: [{ name: 'encoding', attributes: { 'media-type': 'text/plain' }, children: [] }] },
      });
    });

    it('reads backups as a map keyed by site and lists as arrays', () => {
      const def = parseCacheConfig('{"distributed-cache":{"aliases":["x"],"backups":{"NYC":{"backup":{"strategy":"SYNC"}}}}}', 'json');
      expect(def.root.attributes).to.deep.equal({ aliases: ['x'] });
      expect(findChild(def.root, 'backups')?.children).to.deep.equal([
        { name: 'backup', attributes: { site: 'NYC', strategy: 'SYNC' }, children: [] },
      ]);
    });

    it('answers 400 with the parser message for malformed JSON', () => {
      expect(parseError('{"local-cache": {', 'json').message).to.match(/JSON/);
    });
  });

  describe('YAML', () => {
    it('reads camelCase names as the kebab-case tree, kebab-case keys as they are', () => {
      expect(parseCacheConfig(LOCAL_YAML, 'yaml')).to.deep.equal({
        root: {
          name: 'local-cache',
          attributes: { statistics: true },
          children: [
            { name: 'locking', attributes: { isolation: 'NONE', striping: true, 'acquire-timeout': '30000', 'concurrency-level': '2000' }, children: [] },
            {
              name: 'encoding', attributes: {}, children: [
                { name: 'key', attributes: { 'media-type': 'application/x-java-object' }, children: [] },
                { name: 'value', attributes: { 'media-type': 'application/x-java-object' }, children: [] },
              ],
            },
          ],
        },
      });
    });

    it('reads template kinds, named definitions and null elements', () => {
      const yaml = "cacheName:\n  distributedCacheConfiguration:\n    mode: 'SYNC'\n    memory:\n      maxCount: 20\n    persistence:\n      fileStore: ~\n";
      const def = parseCacheConfig(yaml, 'yaml');
      expect(def.name).to.equal('cacheName');
      expect(def.root.name).to.equal('distributed-cache-configuration');
      expect(findChild(def.root, 'memory')?.attributes).to.deep.equal({ 'max-count': '20' });
      expect(findChild(findChild(def.root, 'persistence'), 'file-store')).to.deep.equal({ name: 'file-store', attributes: {}, children: [] });
    });

    it('rejects aliases and anchors outright', () => {
      const bomb = 'a: &a ["x","x"]\nb: &b [*a,*a]\nlocalCache:\n  aliases: *b\n';
      expect(parseError(bomb, 'yaml').message).to.match(/YAML (aliases|anchors) are not allowed/);
      expect(parseError('localCache: &x\n  statistics: true\n', 'yaml').message).to.equal('YAML anchors are not allowed in a configuration');
    });

    it('answers 400 with the parser message for malformed YAML', () => {
      expect(parseError('localCache:\n  aliases: [a\n', 'yaml').message).to.match(/Flow sequence|end with/);
    });
  });

  describe('errors', () => {
    it('answers ISPN000327 for an unknown element in every format, with its position', () => {
      const expected = (at: string) =>
        `ISPN000327: Cannot find a parser for element 'error' in namespace '' at ${at}. ` +
        'Check that your configuration is up-to-date for this server and you have the proper dependency in the classpath';
      expect(parseError(BROKEN_XML, 'xml').message).to.equal(expected('[7,4]'));
      expect(parseError(BROKEN_JSON, 'json').message).to.equal(expected('[9,5]'));
      expect(parseError(BROKEN_YAML, 'yaml').message).to.equal(expected('[13,3]'));
    });

    it('answers ISPN000327 for an unknown kind', () => {
      expect(parseError('<scattered-cache/>', 'xml').message).to.match(/^ISPN000327: .*element 'scattered-cache'/);
      expect(parseError('{"counter":{"x":{}}}', 'json').message).to.match(/^ISPN000327: .*element 'counter' .* at \[1,2\]/);
      expect(parseError('weirdCache:\n  mode: SYNC\n', 'yaml').message).to.match(/^ISPN000327: .*element 'weird-cache'/);
    });

    it('answers ISPN000327 for an element another kind has but this one does not', () => {
      expect(parseError('<local-cache><state-transfer/></local-cache>', 'xml').message).to.match(/element 'state-transfer'/);
    });

    it('rejects an unknown attribute', () => {
      expect(parseError('<local-cache>\n  <memory max-count="1" colour="red"/>\n</local-cache>', 'xml').message)
        .to.equal("Unexpected attribute 'colour' encountered[2,25]");
      expect(parseError('{"local-cache":{"owners":2}}', 'json').message).to.equal("Unexpected attribute 'owners' encountered[1,17]");
    });

    it('rejects values that do not fit the attribute', () => {
      const cases: Array<[string, RegExp]> = [
        ['{"distributed-cache":{"owners":"two"}}', /^ISPN000686: Attribute 'owners' of element 'distributed-cache' has an illegal value 'two' at \[1,23\]: expected an integer$/],
        ['{"local-cache":{"statistics":"yes"}}', /Attribute 'statistics' .* illegal value 'yes'.*true or false/],
        ['{"local-cache":{"expiration":{"lifespan":"5 weeks"}}}', /Attribute 'lifespan' of element 'expiration' has an illegal value '5 weeks'/],
        ['{"local-cache":{"memory":{"max-size":"1.5"}}}', /Attribute 'max-size' .*Cannot parse bytes quantity 1.5/],
        ['{"local-cache":{"memory":{"when-full":"EVICT"}}}', /^ISPN000687: Attribute 'when-full' of element 'memory' has an illegal value 'EVICT' at \[1,27\]\. Expecting one of \[NONE, REMOVE, EXCEPTION, MANUAL\]\.$/],
        ['{"local-cache":{"memory":{"max-count":[1,2]}}}', /'max-count'.*not a list/],
      ];
      for (const [json, message] of cases) expect(parseError(json, 'json').message).to.match(message);
    });

    it('accepts enum values in any case and keeps the schema spelling', () => {
      const def: CacheDefinition = parseCacheConfig('<distributed-cache mode="async"><partition-handling when-split="deny_read_writes"/></distributed-cache>', 'xml');
      expect(def.root.attributes.mode).to.equal('ASYNC');
      expect(findChild(def.root, 'partition-handling')?.attributes['when-split']).to.equal('DENY_READ_WRITES');
    });

    it('rejects an element given twice', () => {
      expect(parseError('<local-cache><memory/><memory/></local-cache>', 'xml').message).to.match(/'memory' may appear only once/);
    });

    it('rejects empty text and non-object documents', () => {
      expect(parseError('  \n', 'json').message).to.equal('Configuration is empty');
      expect(parseError('"random text"', 'json').message).to.equal('A cache configuration must be an object');
      expect(parseError('{}', 'json').message).to.equal('Expected exactly one cache definition, found 0');
    });
  });
});

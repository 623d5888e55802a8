import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, readConfigFiles } from '../../src/config/server-config';
import { tempDir, withServer, type ServerUnderTest, type SharedServer } from '../support/server';

/**
 * Runs `use` with a server on `dataDir` started with the given `--config` files (name → text,
 * written in a temp dir, in order); the data dir stays.
 */
function withDeclared<T>(dataDir: string, files: Array<[string, string]>, use: (s: SharedServer) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'grid-decl-'));
  const paths = files.map(([name, text]) => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  });
  return withServer({ ...readConfigFiles(paths), dataDir, keepData: true }, use);
}

/** Starts and stops: the data dir then holds what the files declare. */
async function startAndStop(dataDir: string, files: Array<[string, string]>): Promise<void> {
  await withDeclared(dataDir, files, async () => undefined);
}

/** The start's error: a ConfigError (the CLI prints it and exits 2), its message one line. */
async function startError(dataDir: string, files: Array<[string, string]>): Promise<string> {
  try {
    await startAndStop(dataDir, files);
  } catch (err) {
    expect(err).to.be.instanceOf(ConfigError);
    const message = (err as Error).message;
    expect(message).to.not.include('\n');
    return message;
  }
  return expect.fail('the start succeeded');
}

const INFINISPAN_XML = `<infinispan xmlns="urn:infinispan:config:15.0">
  <cache-container name="default" statistics="true">
    <security>
      <authorization>
        <role name="reader" permissions="ALL_READ MONITOR"/>
      </authorization>
    </security>
    <distributed-cache-configuration name="base">
      <expiration lifespan="60000"/>
      <memory max-count="1000" when-full="REMOVE"/>
    </distributed-cache-configuration>
    <distributed-cache name="orders" configuration="base">
      <memory max-count="5000"/>
    </distributed-cache>
    <local-cache name="sessions"/>
    <counters xmlns="urn:infinispan:config:counters:15.0">
      <strong-counter name="order-ids" initial-value="1000" storage="PERSISTENT"/>
      <weak-counter name="hits"/>
    </counters>
  </cache-container>
</infinispan>`;

function config(s: ServerUnderTest, cache: string): Promise<unknown> {
  return s.as('admin').get(`/rest/v2/caches/${cache}?action=config`).then((r) => r.json());
}

describe('declared resources (--config)', () => {
  let dataDir: string;
  beforeEach(() => { dataDir = tempDir(); });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  describe("the original's infinispan.xml", () => {
    it('creates the caches, templates, counters and roles it declares, a cache with configuration= getting its template\'s values', async () => {
      await withDeclared(dataDir, [['infinispan.xml', INFINISPAN_XML]], async (s) => {
        const admin = s.as('admin');
        expect((await admin.get('/rest/v2/caches')).json()).to.include.members(['orders', 'sessions']);
        expect(await config(s, 'orders')).to.deep.equal({
          orders: { 'distributed-cache': { configuration: 'base', expiration: { lifespan: '60000' }, memory: { 'max-count': '5000', 'when-full': 'REMOVE' } } },
        });
        expect((await admin.get('/rest/v2/cache-configs/templates')).json<Array<{ name: string }>>().map((t) => t.name)).to.include('base');
        expect((await admin.get('/rest/v2/counters/order-ids')).text).to.equal('1000');
        expect((await admin.get('/rest/v2/counters/hits/config')).json()).to.deep.equal({ 'weak-counter': { 'initial-value': '0', storage: 'VOLATILE', 'concurrency-level': '16' } });
        expect((await admin.get('/rest/v2/security/permissions/reader')).json()).to.deep.include({ name: 'reader', permissions: ['ALL_READ', 'MONITOR'] });
      });
    });

    it('a declared role grants what it names: a user of it reads but cannot write', async () => {
      await withDeclared(dataDir, [['infinispan.xml', INFINISPAN_XML]], async (s) => {
        await s.running.services.users.upsert('rita', 'rita-pw', ['reader']);
        await s.as('admin').put('/rest/v2/caches/sessions/k', 'v');
        const rita = s.as('rita');
        expect((await rita.get('/rest/v2/caches/sessions/k')).text).to.equal('v');
        expect((await rita.put('/rest/v2/caches/sessions/k', 'w')).status).to.equal(403);
      });
    });

    it('leaves everything alone at a restart with the same file: entries and counter values stay', async () => {
      await withDeclared(dataDir, [['infinispan.xml', INFINISPAN_XML]], (s) => s.as('admin').post('/rest/v2/counters/order-ids?action=increment'));
      await withDeclared(dataDir, [['infinispan.xml', INFINISPAN_XML]], async (s) => {
        expect((await s.as('admin').get('/rest/v2/counters/order-ids')).text).to.equal('1001');
        expect(await config(s, 'orders')).to.have.nested.property('orders.distributed-cache.memory.max-count', '5000');
      });
    });

    it('stops the start when the data dir holds a declared cache with another value, naming the file, the cache and the attribute', async () => {
      await startAndStop(dataDir, [['infinispan.xml', INFINISPAN_XML]]);
      const changed = INFINISPAN_XML.replace('max-count="5000"', 'max-count="6000"');
      const message = await startError(dataDir, [['infinispan.xml', changed]]);
      expect(message).to.match(/infinispan\.xml: cache 'orders' differs from the data dir: 'distributed-cache\.memory\.max-count' is '5000' there, '6000' in the file; .*update-declared: mutable/);
      // nothing was changed, and the data dir opens again
      await withDeclared(dataDir, [['infinispan.xml', INFINISPAN_XML]], async (s) => {
        expect(await config(s, 'orders')).to.have.nested.property('orders.distributed-cache.memory.max-count', '5000');
      });
    });

    it('a cache changed through the API differs from the file at the next start', async () => {
      await withDeclared(dataDir, [['infinispan.xml', INFINISPAN_XML]], async (s) => {
        expect((await s.as('admin').post('/rest/v2/caches/orders?action=set-mutable-attribute&attribute-name=memory.max-count&attribute-value=7')).status).to.equal(200);
      });
      expect(await startError(dataDir, [['infinispan.xml', INFINISPAN_XML]])).to.include("'distributed-cache.memory.max-count' is '7' there, '5000' in the file");
    });

    it('stops the start for a counter whose definition differs, even with update-declared: mutable', async () => {
      await startAndStop(dataDir, [['infinispan.xml', INFINISPAN_XML]]);
      const changed = INFINISPAN_XML.replace('initial-value="1000"', 'initial-value="1"');
      const message = await startError(dataDir, [['infinispan.xml', changed], ['grid.yaml', 'update-declared: mutable']]);
      expect(message).to.match(/counter 'order-ids' differs from the data dir: 'strong-counter\.initial-value' is '1000' there, '1' in the file/);
    });

    it('a configuration= naming no template is the original\'s ISPN000374', async () => {
      const message = await startError(dataDir, [['infinispan.xml', INFINISPAN_XML.replace('configuration="base"', 'configuration="nope"')]]);
      expect(message).to.include("cache 'orders': ISPN000374: No such template 'nope' when declaring 'orders'");
    });

    it('an unknown element inside a cache fails with the text POST /caches gives for it', async () => {
      const bad = '<local-cache name="odd"><memory max-count="1"/><bogus/></local-cache>';
      const file = `<infinispan><cache-container>\n${bad}\n</cache-container></infinispan>`;
      const message = await startError(dataDir, [['infinispan.xml', file]]);
      await withServer({}, async (s) => {
        const posted = await s.as('admin').post('/rest/v2/caches/odd', bad, { 'Content-Type': 'application/xml' });
        expect(posted.status).to.equal(400);
        const withoutPlace = (text: string) => text.replace(/ at \[\d+,\d+\]/, '');
        expect(message).to.match(/infinispan\.xml: cache 'odd': ISPN000327: Cannot find a parser for element 'bogus' in namespace '' at \[2,\d+\]/);
        expect(withoutPlace(message)).to.include(withoutPlace(posted.text));
      });
    });
  });

  describe('update-declared: mutable', () => {
    it('applies a change of a mutable attribute, as PUT would', async () => {
      await startAndStop(dataDir, [['infinispan.xml', INFINISPAN_XML]]);
      const changed = INFINISPAN_XML.replace('max-count="5000"', 'max-count="6000"');
      await withDeclared(dataDir, [['infinispan.xml', changed], ['grid.yaml', 'update-declared: mutable']], async (s) => {
        expect(await config(s, 'orders')).to.have.nested.property('orders.distributed-cache.memory.max-count', '6000');
      });
    });

    it('still stops the start for an attribute no update can change', async () => {
      await startAndStop(dataDir, [['infinispan.xml', INFINISPAN_XML]]);
      const changed = INFINISPAN_XML.replace('configuration="base">', 'configuration="base" owners="3">');
      const message = await startError(dataDir, [['infinispan.xml', changed], ['grid.yaml', 'update-declared: mutable']]);
      expect(message).to.include("cache 'orders' differs from the data dir: 'distributed-cache.owners' is '2' there, '3' in the file; it cannot change on an existing cache");
    });

    it('replaces a schema\'s text, which without it stops the start', async () => {
      const v1 = 'schemas:\n  shop.proto: "message Item { optional string name = 1; }"\n';
      const v2 = 'schemas:\n  shop.proto: "message Item { optional string name = 1; optional int32 qty = 2; }"\n';
      await startAndStop(dataDir, [['grid.yaml', v1]]);
      expect(await startError(dataDir, [['grid.yaml', v2]])).to.match(/schema 'shop\.proto' differs from the data dir: 'text' is 'line 1: message Item/);
      await withDeclared(dataDir, [['grid.yaml', v2 + 'update-declared: mutable\n']], async (s) => {
        expect((await s.as('admin').get('/rest/v2/schemas/shop.proto')).text).to.include('qty');
      });
    });
  });

  describe("grid's own configuration file", () => {
    it('YAML: caches, templates, counters, roles and schemas (inline and from a file) beside the server settings', async () => {
      const schemaFile = join(dataDir, 'person.proto');
      writeFileSync(schemaFile, 'package people;\nmessage Person { optional string name = 1; }\n');
      const yaml = [
        'expiration-interval: 30000',
        'templates:',
        '  small:',
        '    localCache:',
        '      memory: { maxCount: 10 }',
        'caches:',
        '  people:',
        '    local-cache: { configuration: small, encoding: { media-type: application/x-protostream } }',
        'counters:',
        '  visits: { strong-counter: { initial-value: 5, storage: PERSISTENT } }',
        'roles:',
        '  auditor: [MONITOR, ALL_READ]',
        'schemas:',
        `  person.proto: { file: ${JSON.stringify(schemaFile)} }`,
        '  note.proto: "message Note { optional string text = 1; }"',
      ].join('\n');
      await withDeclared(dataDir, [['grid.yaml', yaml]], async (s) => {
        const admin = s.as('admin');
        expect(await config(s, 'people')).to.deep.equal({
          people: { 'local-cache': { configuration: 'small', memory: { 'max-count': '10' }, encoding: { 'media-type': 'application/x-protostream' } } },
        });
        expect((await admin.get('/rest/v2/counters/visits')).text).to.equal('5');
        expect((await admin.get('/rest/v2/security/permissions/auditor')).json()).to.deep.include({ permissions: ['ALL_READ', 'MONITOR'] });
        expect((await admin.get('/rest/v2/schemas/person.proto')).text).to.include('message Person');
        expect((await admin.get('/rest/v2/schemas')).json<Array<{ name: string }>>().map((x) => x.name)).to.include.members(['note.proto', 'person.proto']);
      });
    });

    it('XML: <caches>, <counters>, <roles> and <schemas> inside <server>', async () => {
      const xml = `<server port="11222">
  <caches><replicated-cache name="catalog"><memory max-count="50"/></replicated-cache></caches>
  <counters><weak-counter name="clicks" concurrency-level="4"/></counters>
  <roles><role name="writer" permissions="WRITE"/></roles>
  <schemas><schema name="tag.proto">message Tag { optional string v = 1; }</schema></schemas>
</server>`;
      await withDeclared(dataDir, [['grid.xml', xml]], async (s) => {
        const admin = s.as('admin');
        expect(await config(s, 'catalog')).to.deep.equal({ catalog: { 'replicated-cache': { memory: { 'max-count': '50' } } } });
        expect((await admin.get('/rest/v2/counters/clicks/config')).json()).to.have.nested.property('weak-counter.concurrency-level', '4');
        expect((await admin.get('/rest/v2/security/permissions/writer')).json()).to.deep.include({ permissions: ['WRITE'] });
        expect((await admin.get('/rest/v2/schemas/tag.proto')).text).to.equal('message Tag { optional string v = 1; }');
      });
    });

    it('a declared schema that does not compile stops the start', async () => {
      const message = await startError(dataDir, [['grid.yaml', 'schemas:\n  broken.proto: "message { nope"\n']]);
      expect(message).to.match(/grid\.yaml: schema 'broken\.proto' does not compile: /);
    });
  });

  describe('several --config files', () => {
    it('merge in order: a later file redeclares a cache and adds others', async () => {
      const first = 'caches:\n  a: { local-cache: { memory: { max-count: 10 } } }\n  b: { local-cache: {} }\n';
      const second = `<infinispan><cache-container><local-cache name="a"><memory max-count="20"/></local-cache><local-cache name="c"/></cache-container></infinispan>`;
      await withDeclared(dataDir, [['one.yaml', first], ['two.xml', second]], async (s) => {
        expect((await s.as('admin').get('/rest/v2/caches')).json()).to.include.members(['a', 'b', 'c']);
        expect(await config(s, 'a')).to.have.nested.property('a.local-cache.memory.max-count', '20');
      });
    });
  });

  describe("the original's YAML and JSON forms", () => {
    it('reads cacheContainer.caches, counters and security.authorization.roles', async () => {
      const yaml = [
        'infinispan:',
        '  cacheContainer:',
        '    name: default',
        '    security:',
        '      authorization:',
        '        roles:',
        '          viewer:',
        '            role:',
        '              permissions: "READ MONITOR"',
        '    caches:',
        '      base:',
        '        replicatedCacheConfiguration:',
        '          expiration: { lifespan: 1000 }',
        '      prices:',
        '        replicatedCache:',
        '          configuration: base',
        '          memory: { maxCount: 3 }',
        '    counters:',
        '      - strongCounter: { name: seq, initialValue: 7 }',
      ].join('\n');
      const json = JSON.stringify({ infinispan: { 'cache-container': { caches: { stock: { 'invalidation-cache': { mode: 'SYNC' } } } } } });
      await withDeclared(dataDir, [['infinispan.yaml', yaml], ['infinispan.json', json]], async (s) => {
        const admin = s.as('admin');
        expect(await config(s, 'prices')).to.deep.equal({
          prices: { 'replicated-cache': { configuration: 'base', expiration: { lifespan: '1000' }, memory: { 'max-count': '3' } } },
        });
        expect((await admin.get('/rest/v2/caches')).json()).to.include('stock');
        expect((await admin.get('/rest/v2/counters/seq')).text).to.equal('7');
        expect((await admin.get('/rest/v2/security/permissions/viewer')).json()).to.deep.include({ permissions: ['MONITOR', 'READ'] });
      });
    });
  });
});

import { expect } from 'chai';
import { collectGarbage } from '../support/gc';
import { useServer, withServer } from '../support/server';

const schema = (name: string) => `/rest/v2/schemas/${name}`;
const PERSON = 'package demo;\nmessage Person {\n  optional string name = 1;\n  optional int32 age = 2;\n}\n';
const BROKEN = 'package demo;\nmessage Broken {\n  messoge int32 x = 1;\n}\n';
const DEPENDENT = 'import "base.proto";\npackage dep;\nmessage Holder {\n  optional base.Base inner = 1;\n}\n';
const BASE = 'package base;\nmessage Base {\n  optional string id = 1;\n}\n';

describe('schemas /rest/v2/schemas', () => {
  const server = useServer();
  const admin = server.as('admin');

  describe('POST /rest/v2/schemas/{name}', () => {
    it('answers 201 with {name, error:null}, appending .proto, then 409', async () => {
      const r = await admin.post(schema('person'), PERSON);
      expect(r.status).to.equal(201);
      expect(r.headers.get('content-type')).to.contain('application/json');
      expect(r.json()).to.deep.equal({ name: 'person.proto', error: null });
      const again = await admin.post(schema('person.proto'), PERSON);
      expect(again.status).to.equal(409);
      expect(again.text).to.equal('Schema exists');
    });

    it('answers 400 when no schema is sent', async () => {
      const r = await admin.post(schema('empty'), '');
      expect(r.status).to.equal(400);
      expect(r.text).to.equal('Schema data not sent in the request');
    });

    it('stores an invalid schema and names file, line and column in its error', async () => {
      const r = await admin.post(schema('broken'), BROKEN);
      expect(r.status).to.equal(201);
      expect(r.json()).to.deep.equal({
        name: 'broken.proto',
        error: { message: 'Schema broken.proto has errors', cause: 'Syntax error in broken.proto at 3:3: unexpected label: messoge' },
      });
      expect((await admin.get(schema('broken'))).text).to.equal(BROKEN);
    });
  });

  describe('GET, PUT, DELETE /rest/v2/schemas/{name}', () => {
    it('reads the content as text by either name, replaces with PUT (200) and deletes (204, then 404)', async () => {
      await admin.post(schema('crud'), PERSON);
      const r = await admin.get(schema('crud.proto'));
      expect(r.status).to.equal(200);
      expect(r.headers.get('content-type')).to.contain('text/plain');
      expect(r.text).to.equal(PERSON);
      const put = await admin.put(schema('crud'), PERSON.replace('Person', 'Human'));
      expect(put.status).to.equal(200);
      expect(put.json()).to.deep.equal({ name: 'crud.proto', error: null });
      expect((await admin.get(schema('crud'))).text).to.contain('Human');
      expect((await admin.delete(schema('crud'))).status).to.equal(204);
      expect((await admin.get(schema('crud'))).status).to.equal(404);
      expect((await admin.delete(schema('crud'))).status).to.equal(404);
    });

    it('answers ?action=detailed with content, caches and error', async () => {
      await admin.put(schema('detail'), PERSON);
      expect((await admin.get(`${schema('detail')}?action=detailed`)).json()).to.deep.equal({
        name: 'detail.proto', content: PERSON, caches: [], error: null,
      });
    });
  });

  describe('GET /rest/v2/schemas', () => {
    it('lists {name, error} sorted by name, and the types with ?action=types', async () => {
      const list = (await admin.get('/rest/v2/schemas')).json<Array<{ name: string }>>();
      const names = list.map((s) => s.name);
      expect(names).to.deep.equal([...names].sort());
      expect(names).to.include.members(['person.proto', 'broken.proto']);
      const types = (await admin.get('/rest/v2/schemas?action=types')).json<string[]>();
      expect(types).to.include('demo.Person');
      expect(types).to.not.include('demo.Broken');
    });
  });

  describe('imports', () => {
    it('reports a missing import, and clears the error once the dependency is registered', async () => {
      const first = (await admin.post(schema('dependent'), DEPENDENT)).json<{ error: { cause: string } | null }>();
      expect(first.error!.cause).to.equal("Import 'base.proto' not found in dependent.proto at 1:9");
      await admin.post(schema('base'), BASE);
      const list = (await admin.get('/rest/v2/schemas')).json<Array<{ name: string; error: unknown }>>();
      expect(list.find((s) => s.name === 'dependent.proto')!.error).to.equal(null);
      expect((await admin.get('/rest/v2/schemas?action=types')).json<string[]>()).to.include('dep.Holder');
    });

    it('stores a file that declares a type another file declares with its error, and registers none of its types', async () => {
      expect((await admin.post(schema('first-a'), 'package clash;\nmessage A { optional string s = 1; }\n')).status).to.equal(201);
      const r = await admin.post(schema('second-a'), 'package clash;\nmessage C { optional D d = 1; }\nmessage A { optional string t = 1; }\nmessage D { optional string u = 1; }\n');
      expect(r.status).to.equal(201);
      expect(r.json<{ error: { cause: string } }>().error.cause).to.equal("second-a.proto: duplicate name 'A' in Namespace .clash");
      const types = (await admin.get('/rest/v2/schemas?action=types')).json<string[]>();
      expect(types.filter((t) => t.startsWith('clash.'))).to.deep.equal(['clash.A']);
    });

    it('reports an unknown type with its location', async () => {
      const r = (await admin.post(schema('unknown-type'), 'package u;\nmessage U {\n  optional Nope n = 1;\n}\n')).json<{ error: { cause: string } }>();
      expect(r.error.cause).to.equal('Failed to resolve type in unknown-type.proto at 3:12: Type not found : Nope');
    });
  });

  describe('the ___protobuf_metadata cache', () => {
    const meta = (key: string) => `/rest/v2/caches/___protobuf_metadata/${key}`;

    it('registers schemas written as entries with text/plain', async () => {
      for (const n of ['m1', 'm2', 'm3']) {
        expect((await admin.put(meta(`${n}.proto`), PERSON.replace('demo', n), { 'Content-Type': 'text/plain' })).status).to.equal(204);
      }
      const names = (await admin.get('/rest/v2/schemas')).json<Array<{ name: string }>>().map((s) => s.name);
      expect(names).to.include.members(['m1.proto', 'm2.proto', 'm3.proto']);
      expect((await admin.get(meta('m1.proto'))).text).to.equal(PERSON.replace('demo', 'm1'));
      expect((await admin.get(meta('broken.proto.errors'))).text).to.contain('Syntax error in broken.proto');
    });

    it('refuses keys not ending with .proto (ISPN028009) and non-string values (ISPN028008) with 400 (the original: 500)', async () => {
      const key = await admin.put(meta('notes.txt'), PERSON, { 'Content-Type': 'text/plain' });
      expect(key.status).to.equal(400);
      expect(key.text).to.equal('ISPN028009: The key must be a String ending with ".proto" : notes.txt');
      const value = await admin.put(meta('bytes.proto'), PERSON, { 'Content-Type': 'application/octet-stream' });
      expect(value.status).to.equal(400);
      expect(value.text).to.equal('ISPN028008: The value must be a String : class [B');
    });
  });

  describe('permissions', () => {
    it('needs CREATE to change schemas; any authenticated user reads them', async () => {
      expect((await server.as('application').post(schema('by-app'), PERSON)).status).to.equal(403);
      expect((await server.as('deployer').post(schema('by-deployer'), PERSON)).status).to.equal(201);
      expect((await server.as('observer').get(schema('by-deployer'))).status).to.equal(200);
      expect((await server.anonymous().get('/rest/v2/schemas')).status).to.equal(401);
    });
  });
});

describe('a deleted schema leaves memory (its types are no longer held)', () => {
  const server = useServer();
  const admin = server.as('admin');
  const INDEXED = '/** @Indexed */\nmessage Held {\n  /** @Basic */\n  optional string name = 1;\n}\n';

  it('after queries compiled against it and an indexed cache checked against it', async () => {
    expect((await admin.put(schema('held'), INDEXED)).status).to.equal(200);
    const media = { encoding: { 'media-type': 'application/x-protostream' } };
    await admin.createCache('held-scan', { 'local-cache': media });
    await admin.createCache('held-indexed', { 'local-cache': { ...media, indexing: { enabled: true, 'indexed-entities': ['Held'] } } });
    for (const cache of ['held-scan', 'held-indexed']) {
      expect((await admin.get(`/rest/v2/caches/${cache}?action=search&query=from%20Held`)).status).to.equal(200);
    }
    const type = new WeakRef(server.running.services.types.find('Held')!);
    expect((await admin.delete(schema('held'))).status).to.equal(204);
    await collectGarbage();
    expect(type.deref(), 'the deleted schema\'s type is still referenced').to.equal(undefined);
  });
});

describe('schemas survive a restart', () => {
  it('keeps content and errors after stop and start on the same data dir', async () => {
    await withServer({}, async (server) => {
      await server.as('admin').post(schema('kept'), PERSON);
      await server.as('admin').post(schema('bad'), BROKEN);
      await server.restart();
      const admin = server.as('admin');
      expect((await admin.get(schema('kept'))).text).to.equal(PERSON);
      const list = (await admin.get('/rest/v2/schemas')).json<Array<{ name: string; error: unknown }>>();
      expect(list.map((s) => s.name)).to.deep.equal(['bad.proto', 'kept.proto']);
      expect(list[0].error).to.not.equal(null);
    });
  });
});

describe('listing and clearing ___protobuf_metadata (its keys are the schema files)', () => {
  const meta = '/rest/v2/caches/___protobuf_metadata';

  it('lists every file, each file\'s .errors and .errors in keys, entries, size and the v1 listing; clear removes every schema', async () => {
    await withServer({}, async (server) => {
      const admin = server.as('admin');
      await admin.post(schema('person'), PERSON);
      await admin.post(schema('broken'), BROKEN);
      const keys = ['.errors', 'broken.proto', 'broken.proto.errors', 'person.proto'];
      expect((await admin.get(`${meta}?action=keys`)).json<string[]>().sort()).to.deep.equal(keys);
      expect((await admin.get(`${meta}?action=size`)).text).to.equal('4');
      const entries = (await admin.get(`${meta}?action=entries`)).json<Array<{ key: string; value: string }>>();
      expect(entries.find((e) => e.key === 'person.proto')?.value).to.equal(PERSON);
      expect(entries.find((e) => e.key === '.errors')?.value).to.equal('broken.proto');
      expect((await admin.get('/rest/___protobuf_metadata', { Accept: 'text/plain' })).text.split('\n').filter(Boolean).sort()).to.deep.equal(keys);
      expect((await server.as('observer').post(`${meta}?action=clear`)).status).to.equal(403);
      expect((await admin.post(`${meta}?action=clear`)).status).to.equal(204);
      expect((await admin.get('/rest/v2/schemas')).json()).to.deep.equal([]);
      expect((await admin.get(`${meta}?action=keys`)).json()).to.deep.equal([]);
      expect((await admin.get(`${meta}?action=size`)).text).to.equal('0');
    });
  });
});

/** A file of one message with `fields` fields: `2 + fields` declarations (package, message, fields). */
function fieldsFile(pkg: string, fields: number, comment = ''): string {
  const lines = [`package ${pkg};`, comment, 'message M {'];
  for (let f = 1; f <= fields; f++) lines.push(`  optional int32 f${f} = ${f};`);
  return `${lines.join('\n')}\n}\n`;
}

const bytesOf = (text: string) => Buffer.byteLength(text, 'utf8');

describe('schema-total-declarations and schema-total-bytes (the schemas of one container)', () => {
  const LIMITS = { schemaTotalDeclarations: 30, schemaTotalBytes: 1500 };
  const meta = (key: string) => `/rest/v2/caches/___protobuf_metadata/${key}`;
  const server = useServer({ limits: LIMITS });
  const admin = server.as('admin');
  beforeEach(async () => {
    for (const s of (await admin.get('/rest/v2/schemas')).json<Array<{ name: string }>>()) await admin.delete(schema(s.name));
  });

  describe('POST /rest/v2/schemas/{name}', () => {
    it('answers 400 when the container would pass schema-total-declarations, and stores nothing', async () => {
      expect((await admin.post(schema('a'), fieldsFile('a', 10))).status).to.equal(201);
      expect((await admin.post(schema('b'), fieldsFile('b', 10))).status).to.equal(201);
      const r = await admin.post(schema('c'), fieldsFile('c', 10));
      expect(r.status).to.equal(400);
      expect(r.text).to.equal('Schema c.proto would bring the schemas of this container to 36 declarations, more than 30 (limit schema-total-declarations)');
      expect((await admin.get(schema('c'))).status).to.equal(404);
      expect((await admin.post(schema('c'), fieldsFile('c', 4))).status, 'what still fits').to.equal(201);
    });

    it('answers 400 when the container would pass schema-total-bytes, and stores nothing', async () => {
      const first = fieldsFile('a', 1, `// ${'x'.repeat(700)}`);
      const second = fieldsFile('b', 1, `// ${'y'.repeat(800)}`);
      expect((await admin.post(schema('a'), first)).status).to.equal(201);
      const r = await admin.post(schema('b'), second);
      expect(r.status).to.equal(400);
      expect(r.text).to.equal(`Schema b.proto would bring the schemas of this container to ${bytesOf(first) + bytesOf(second)} bytes, more than 1500 (limit schema-total-bytes)`);
      expect((await admin.get(schema('b'))).status).to.equal(404);
    });

    it('counts room freed by DELETE', async () => {
      await admin.post(schema('a'), fieldsFile('a', 20));
      expect((await admin.post(schema('b'), fieldsFile('b', 20))).status).to.equal(400);
      expect((await admin.delete(schema('a'))).status).to.equal(204);
      expect((await admin.post(schema('b'), fieldsFile('b', 20))).status).to.equal(201);
    });
  });

  describe('PUT /rest/v2/schemas/{name}', () => {
    it('replaces a file with one as large or smaller, and refuses to grow it past the total (400)', async () => {
      await admin.post(schema('a'), fieldsFile('a', 10));
      await admin.post(schema('b'), fieldsFile('b', 14));
      expect((await admin.put(schema('b'), fieldsFile('bb', 14))).status, 'same size').to.equal(200);
      const grown = await admin.put(schema('b'), fieldsFile('b', 20));
      expect(grown.status).to.equal(400);
      expect(grown.text).to.equal('Schema b.proto would bring the schemas of this container to 34 declarations, more than 30 (limit schema-total-declarations)');
      expect((await admin.get(schema('b'))).text, 'the stored file is untouched').to.equal(fieldsFile('bb', 14));
      expect((await admin.put(schema('b'), fieldsFile('b', 5))).status, 'smaller').to.equal(200);
    });
  });

  describe('PUT /rest/v2/caches/___protobuf_metadata/{name}.proto', () => {
    it('answers 400 past the total, as /schemas does, and stores nothing', async () => {
      const text = { 'Content-Type': 'text/plain' };
      expect((await admin.put(meta('a.proto'), fieldsFile('a', 20), text)).status).to.equal(204);
      const r = await admin.put(meta('b.proto'), fieldsFile('b', 20), text);
      expect(r.status).to.equal(400);
      expect(r.text).to.equal('Schema b.proto would bring the schemas of this container to 44 declarations, more than 30 (limit schema-total-declarations)');
      expect((await admin.get(meta('b.proto'))).status).to.equal(404);
      expect((await admin.put(meta('a.proto'), fieldsFile('a', 3), text)).status, 'shrinking').to.equal(204);
      expect((await admin.put(meta('b.proto'), fieldsFile('b', 20), text)).status, 'now fits').to.equal(204);
    });
  });
});

describe('schema totals lowered below what is stored', () => {
  it('starts with every stored file, lets them shrink or be replaced, refuses anything that grows the total', async () => {
    await withServer({}, async (server) => {
      await server.as('admin').post(schema('a'), fieldsFile('a', 20));
      await server.as('admin').post(schema('b'), fieldsFile('b', 20));
      await server.restart({ limits: { schemaTotalDeclarations: 30 } });
      const admin = server.as('admin');
      expect((await admin.get('/rest/v2/schemas')).json<Array<{ name: string; error: unknown }>>())
        .to.deep.equal([{ name: 'a.proto', error: null }, { name: 'b.proto', error: null }]);
      expect((await admin.put(schema('a'), fieldsFile('a2', 20))).status, 'replaced, same size').to.equal(200);
      expect((await admin.put(schema('a'), fieldsFile('a', 15))).status, 'shrunk, still over').to.equal(200);
      const grown = await admin.put(schema('a'), fieldsFile('a', 16));
      expect(grown.status).to.equal(400);
      expect(grown.text).to.contain('(limit schema-total-declarations)');
      expect((await admin.post(schema('c'), fieldsFile('c', 1))).status, 'a new file').to.equal(400);
    });
  });
});

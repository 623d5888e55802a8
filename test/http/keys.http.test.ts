import Database from 'better-sqlite3';
import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import * as yauzl from 'yauzl';
import { ZipFile } from 'yazl';
import { encodeEntry, frame } from '../../src/model/backup/backup-archive';
import { Client } from '../support/client';
import { spawnServer, waitForExit } from '../support/process';
import { tempDir, useServer, withServer, type ServerUnderTest } from '../support/server';

const path = (cache: string, key: string) => `/rest/v2/caches/${cache}/${encodeURIComponent(key)}`;
const hexOf = (s: string) => Buffer.from(s).toString('hex');

const STORAGES = {
  unconfigured: undefined,
  text: 'text/plain',
  octet: 'application/octet-stream',
  java: 'application/x-java-object',
  json: 'application/json',
  protostream: 'application/x-protostream',
} as const;
type Storage = keyof typeof STORAGES;

/**
 * The exact stored key bytes address an entry through a Key-Content-Type whose conversion to the
 * storage keeps bytes: hex octet-stream for byte-like storage, hex protostream for protostream and
 * Java objects (whose keys are kept as WrappedMessages).
 */
const PROBE: Record<Storage, string> = {
  unconfigured: 'application/octet-stream; encoding=hex', text: 'application/octet-stream; encoding=hex',
  octet: 'application/octet-stream; encoding=hex', json: 'application/octet-stream; encoding=hex',
  java: 'application/x-protostream; encoding=hex', protostream: 'application/x-protostream; encoding=hex',
};

/** A cell: stored key bytes (hex), `?action=keys` item, `?action=entries&content-negotiation=true` key; or the 400 text. */
type Cell = { stored: string; keys: string; entries: unknown } | { error: string };

const javaType = (t: string) => `application/x-java-object;type=${t}`;
const BAD_JSON = (t: string): Cell => ({ error: `Invalid JSON content: ${t}` });
const bytesAsText = (hex: string) => Buffer.from(hex, 'hex').toString('utf8');
/** The same stored bytes seen from storage that lists keys as text (hex for unconfigured storage). */
const raw = (hex: string, storage: Storage): Cell => ({ stored: hex, keys: bytesAsText(hex), entries: storage === 'unconfigured' ? `0x${hex}` : bytesAsText(hex) });

const ROWS: Array<{ what: string; segment: string; keyType?: string; cells: Record<Storage, Cell> }> = [
  {
    what: 'a text key (no Key-Content-Type)', segment: 'k1',
    cells: {
      unconfigured: raw(hexOf('k1'), 'unconfigured'), text: raw(hexOf('k1'), 'text'), octet: raw(hexOf('k1'), 'octet'),
      java: { stored: '4a026b31', keys: 'k1', entries: 'k1' }, json: BAD_JSON('k1'),
      protostream: { stored: '4a026b31', keys: 'k1', entries: { _type: 'string', _value: 'k1' } },
    },
  },
  {
    what: 'an Integer key', segment: '42', keyType: javaType('java.lang.Integer'),
    cells: {
      unconfigured: raw('282a', 'unconfigured'), text: raw(hexOf('42'), 'text'), octet: raw('282a', 'octet'),
      java: { stored: '282a', keys: '42', entries: '42' }, json: raw(hexOf('42'), 'json'),
      protostream: { stored: '282a', keys: '42', entries: { _type: 'int32', _value: 42 } },
    },
  },
  {
    what: 'a Long key', segment: '42', keyType: javaType('java.lang.Long'),
    cells: {
      unconfigured: raw('182a', 'unconfigured'), text: raw(hexOf('42'), 'text'), octet: raw('182a', 'octet'),
      java: { stored: '182a', keys: '42', entries: '42' }, json: raw(hexOf('42'), 'json'),
      protostream: { stored: '182a', keys: '42', entries: { _type: 'int64', _value: 42 } },
    },
  },
  {
    what: 'a Double key', segment: '1.5', keyType: javaType('java.lang.Double'),
    cells: {
      unconfigured: raw('09000000000000f83f', 'unconfigured'), text: raw(hexOf('1.5'), 'text'), octet: raw('09000000000000f83f', 'octet'),
      java: { stored: '09000000000000f83f', keys: '1.5', entries: '1.5' }, json: raw(hexOf('1.5'), 'json'),
      protostream: { stored: '09000000000000f83f', keys: '1.5', entries: { _type: 'double', _value: 1.5 } },
    },
  },
  {
    what: 'a Boolean key', segment: 'true', keyType: javaType('java.lang.Boolean'),
    cells: {
      unconfigured: raw('4001', 'unconfigured'), text: raw(hexOf('true'), 'text'), octet: raw('4001', 'octet'),
      java: { stored: '4001', keys: 'true', entries: 'true' }, json: raw(hexOf('true'), 'json'),
      protostream: { stored: '4001', keys: 'true', entries: { _type: 'bool', _value: true } },
    },
  },
  {
    what: 'a byte[] key in hex', segment: '0x0102', keyType: 'application/octet-stream; encoding=hex',
    cells: {
      unconfigured: raw('0102', 'unconfigured'), text: raw('0102', 'text'), octet: raw('0102', 'octet'),
      java: { stored: '52020102', keys: '\u0001\u0002', entries: '\u0001\u0002' }, json: BAD_JSON('\u0001\u0002'),
      protostream: { stored: '52020102', keys: '\u0001\u0002', entries: { _type: 'bytes', _value: 'AQI=' } },
    },
  },
  {
    what: 'a JSON string key', segment: '"k1"', keyType: 'application/json',
    cells: {
      unconfigured: raw(hexOf('"k1"'), 'unconfigured'), text: raw(hexOf('"k1"'), 'text'), octet: raw(hexOf('"k1"'), 'octet'),
      java: { stored: '4a026b31', keys: 'k1', entries: 'k1' }, json: raw(hexOf('"k1"'), 'json'),
      protostream: { stored: '4a026b31', keys: 'k1', entries: { _type: 'string', _value: 'k1' } },
    },
  },
  {
    what: 'a form-urlencoded key', segment: 'a+b', keyType: 'application/x-www-form-urlencoded',
    cells: {
      unconfigured: raw(hexOf('a b'), 'unconfigured'), text: raw(hexOf('a b'), 'text'), octet: raw(hexOf('a b'), 'octet'),
      java: { stored: '4a03612062', keys: 'a b', entries: 'a b' }, json: BAD_JSON('a b'),
      protostream: { error: "ISPN000492: Cannot find transcoder between 'application/x-www-form-urlencoded' to 'application/x-protostream'" },
    },
  },
];

describe('PUT, GET /rest/v2/caches/{cacheName}/{cacheKey}: keys converted to the key storage type (docs/reference/media-types.md#keys)', () => {
  const server = useServer();
  const admin = server.as('admin');
  let n = 0;
  const cacheFor = async (storage: Storage): Promise<string> => {
    const name = `keys${++n}`;
    const media = STORAGES[storage];
    await admin.createCache(name, { 'local-cache': media ? { encoding: { key: { 'media-type': media }, value: { 'media-type': 'text/plain' } } } : {} });
    return name;
  };

  for (const row of ROWS) {
    for (const storage of Object.keys(STORAGES) as Storage[]) {
      const cell = row.cells[storage];
      const header: Record<string, string> = row.keyType ? { 'Key-Content-Type': row.keyType } : {};
      if ('error' in cell) {
        it(`${row.what} in ${storage} key storage: 400 ${cell.error}, nothing stored`, async () => {
          const c = await cacheFor(storage);
          const r = await admin.put(path(c, row.segment), 'v', { ...header, 'Content-Type': 'text/plain' });
          expect(r.status).to.equal(400);
          expect(r.text).to.equal(cell.error);
          expect((await admin.get(`/rest/v2/caches/${c}?action=size`)).json()).to.equal(0);
        });
        continue;
      }
      const listed = /^[\x20-\x7e]*$/.test(cell.keys) ? JSON.stringify(cell.keys) : 'its raw bytes';
      it(`${row.what} in ${storage} key storage: stored as ${cell.stored}, listed as ${listed}`, async () => {
        const c = await cacheFor(storage);
        expect((await admin.put(path(c, row.segment), 'v', { ...header, 'Content-Type': 'text/plain' })).status).to.equal(204);
        expect((await admin.get(path(c, row.segment), { ...header, Accept: 'text/plain' })).text).to.equal('v');
        const probe = await admin.get(path(c, `0x${cell.stored}`), { 'Key-Content-Type': PROBE[storage], Accept: 'text/plain' });
        expect(probe.status, 'the stored key bytes address the entry').to.equal(200);
        expect((await admin.get(`/rest/v2/caches/${c}?action=keys`)).json()).to.deep.equal([cell.keys]);
        const entries = (await admin.get(`/rest/v2/caches/${c}?action=entries&content-negotiation=true`)).json<Array<{ key: unknown }>>();
        expect(entries.map((e) => e.key)).to.deep.equal([cell.entries]);
      });
    }
  }

  it('lists keys with the content-negotiation media types of the original (CacheResourceV2.getMediaType)', async () => {
    const expected: Record<Storage, string> = {
      unconfigured: 'application/octet-stream; encoding=hex', text: 'text/plain', octet: 'text/plain', java: 'text/plain', json: 'text/plain', protostream: 'application/json',
    };
    for (const storage of Object.keys(STORAGES) as Storage[]) {
      const c = await cacheFor(storage);
      const r = await admin.get(`/rest/v2/caches/${c}?action=entries&content-negotiation=true`);
      expect(r.headers.get('key-content-type'), storage).to.equal(expected[storage]);
      const plain = await admin.get(`/rest/v2/caches/${c}?action=entries`);
      expect(plain.headers.get('key-content-type'), storage).to.equal(storage === 'protostream' ? 'application/json' : 'text/plain');
    }
  });

  it('makes Integer 42 and String "42" two keys in Java object storage, one key in text storage', async () => {
    const java = await cacheFor('java');
    await admin.put(path(java, '42'), 'int', { 'Key-Content-Type': javaType('java.lang.Integer'), 'Content-Type': 'text/plain' });
    await admin.put(path(java, '42'), 'str', { 'Content-Type': 'text/plain' });
    expect((await admin.get(`/rest/v2/caches/${java}?action=size`)).json()).to.equal(2);
    expect((await admin.get(path(java, '42'), { 'Key-Content-Type': 'application/json' })).text).to.equal('int');
    const text = await cacheFor('text');
    await admin.put(path(text, '42'), 'int', { 'Key-Content-Type': javaType('java.lang.Integer'), 'Content-Type': 'text/plain' });
    await admin.put(path(text, '42'), 'str', { 'Content-Type': 'text/plain' });
    expect((await admin.get(`/rest/v2/caches/${text}?action=size`)).json()).to.equal(1);
  });

  it('answers 400 ISPN000492 for a Key-Content-Type the key storage cannot convert from, and 400 for a bad key', async () => {
    const p = await cacheFor('protostream');
    const xml = await admin.get(path(p, '<a/>'), { 'Key-Content-Type': 'application/xml' });
    expect(xml.status).to.equal(400);
    expect(xml.text).to.equal("ISPN000492: Cannot find transcoder between 'application/xml' to 'application/x-protostream'");
    const json = await admin.get(path(p, '{"_type":"future.Thing"}'), { 'Key-Content-Type': 'application/json' });
    expect(json.status).to.equal(400);
    expect(json.text).to.equal('Unknown type name : future.Thing');
    const int = await admin.delete(path(p, 'x'), { 'Key-Content-Type': javaType('java.lang.Integer') });
    expect(int.status).to.equal(400);
    expect(int.text).to.equal('For input string: "x"');
  });

  it('needs the WRITE permission whatever the key type (observer: 403)', async () => {
    const p = await cacheFor('protostream');
    const r = await server.as('observer').put(path(p, '{"_type":"string","_value":"a"}'), 'v', { 'Key-Content-Type': 'application/json' });
    expect(r.status).to.equal(403);
  });
});

describe('the web console on a protostream cache (infinispan-console cacheService requests)', () => {
  const server = useServer();
  const admin = server.as('admin');
  const cache = 'people';
  // CacheRequestResponseMapper.formatContent for a protobuf cache: {_type, _value} with the value as typed text
  const consoleKey = (type: string, value: string) => encodeURIComponent(JSON.stringify({ _type: type, _value: value }));
  const url = (key: string) => `/rest/v2/caches/${cache}/${key}`;

  before(async () => {
    await admin.createCache(cache, { 'distributed-cache': { encoding: { 'media-type': 'application/x-protostream' } } });
  });

  it('creates (POST), finds (GET), lists, updates (PUT) and deletes an entry whose key curl wrote as text', async () => {
    expect((await admin.put(`/rest/v2/caches/${cache}/alice`, 'from curl', { 'Content-Type': 'text/plain' })).status).to.equal(204);
    const json = { 'Key-Content-Type': 'application/json', 'Content-Type': 'application/json' };
    // createOrUpdateEntry(create = true) on the same key: the original answers 409
    const created = await admin.post(url(consoleKey('string', 'alice')), JSON.stringify({ _type: 'string', _value: 'from console' }), json);
    expect(created.status).to.equal(409);
    // getEntry: Accept application/json, Key-Content-Type application/json
    const got = await admin.get(url(consoleKey('string', 'alice')), { Accept: 'application/json', 'Key-Content-Type': 'application/json' });
    expect(got.status).to.equal(200);
    expect(got.json()).to.deep.equal({ _type: 'string', _value: 'from curl' });
    // getEntries
    const list = await admin.get(`/rest/v2/caches/${cache}?action=entries&content-negotiation=true&metadata=true&limit=100`, { Accept: 'application/json' });
    expect(list.headers.get('key-content-type')).to.equal('application/json');
    const entries = list.json<Array<{ key: { _type: string; _value: string }; value: unknown; timeToLiveSeconds: number }>>();
    expect(entries).to.have.length(1);
    expect(entries[0].key).to.deep.equal({ _type: 'string', _value: 'alice' });
    expect(entries[0].value).to.deep.equal({ _type: 'string', _value: 'from curl' });
    expect(entries[0].timeToLiveSeconds).to.equal(-1);
    // createOrUpdateEntry(create = false)
    expect((await admin.put(url(consoleKey('string', 'alice')), JSON.stringify({ _type: 'string', _value: 'edited' }), json)).status).to.equal(204);
    expect((await admin.get(`/rest/v2/caches/${cache}/alice`)).json()).to.deep.equal({ _type: 'string', _value: 'edited' });
    // deleteEntry
    expect((await admin.delete(url(consoleKey('string', 'alice')), { 'Key-Content-Type': 'application/json' })).status).to.equal(204);
    expect((await admin.get(`/rest/v2/caches/${cache}/alice`)).status).to.equal(404);
  });

  it('addresses int32 keys the console sends with a string _value', async () => {
    const json = { 'Key-Content-Type': 'application/json', 'Content-Type': 'application/json' };
    expect((await admin.post(url(consoleKey('int32', '7')), JSON.stringify({ _type: 'string', _value: 'seven' }), json)).status).to.equal(204);
    const typed = await admin.get(`/rest/v2/caches/${cache}/7`, { 'Key-Content-Type': javaType('java.lang.Integer') });
    expect(typed.json()).to.deep.equal({ _type: 'string', _value: 'seven' });
    expect((await admin.get(`/rest/v2/caches/${cache}?action=keys`)).json()).to.include('7');
    expect((await admin.delete(url(consoleKey('int32', '7')), { 'Key-Content-Type': 'application/json' })).status).to.equal(204);
  });

  it('answers 404 for the console looking up a key that is absent', async () => {
    const r = await admin.get(url(consoleKey('string', 'nobody')), { Accept: 'application/json', 'Key-Content-Type': 'application/json' });
    expect(r.status).to.equal(404);
  });
});

describe('PUT, GET /rest/{cacheName}/{cacheKey}: legacy keys are Java Strings (docs/reference/data-plane.md#legacy-v1)', () => {
  const server = useServer();
  const admin = server.as('admin');

  it('converts the legacy key to the key storage type, so v1 and v2 name the same entry', async () => {
    await admin.createCache('legacy', { 'local-cache': { encoding: { 'media-type': 'application/x-protostream' } } });
    expect((await admin.put('/rest/legacy/k', 'v', { 'Content-Type': 'text/plain' })).status).to.equal(204);
    expect((await admin.get('/rest/v2/caches/legacy/k')).json()).to.deep.equal({ _type: 'string', _value: 'v' });
    expect((await admin.get('/rest/legacy/k', { Accept: 'text/plain' })).text).to.equal('v');
    expect((await admin.get('/rest/legacy')).text).to.equal('k');
    expect((await admin.get('/rest/legacy', { Accept: 'application/octet-stream' })).text).to.equal('0x4a016b');
  });

  it('takes another Key-Content-Type when sent, and refuses an unconvertible one with 400', async () => {
    await admin.createCache('legacy2', { 'local-cache': { encoding: { 'media-type': 'application/x-protostream' } } });
    await admin.put('/rest/legacy2/5', 'v', { 'Content-Type': 'text/plain', 'Key-Content-Type': javaType('java.lang.Integer') });
    expect((await admin.get('/rest/v2/caches/legacy2/5', { 'Key-Content-Type': javaType('java.lang.Integer') })).status).to.equal(200);
    expect((await admin.get('/rest/v2/caches/legacy2/5')).status).to.equal(404);
    expect((await admin.get('/rest/legacy2/5', { 'Key-Content-Type': 'application/xml' })).status).to.equal(400);
  });
});

describe('keys of a persistent protostream cache across restarts', function () {
  this.timeout(60_000);
  const json = { 'Key-Content-Type': 'application/json', 'Content-Type': 'application/json' };
  const consoleAlice = encodeURIComponent('{"_type":"string","_value":"alice"}');
  const config = { 'local-cache': { encoding: { 'media-type': 'application/x-protostream' }, persistence: { 'file-store': {} } } };

  it('finds text and console keys after a clean stop and start on the same data dir', async () => {
    await withServer({}, async (server) => {
      await server.as('admin').createCache('p', config);
      expect((await server.as('admin').put(`/rest/v2/caches/p/${consoleAlice}`, JSON.stringify({ _type: 'string', _value: 'a' }), json)).status).to.equal(204);
      await server.as('admin').put('/rest/v2/caches/p/7', 'seven', { 'Key-Content-Type': 'application/x-java-object;type=java.lang.Integer', 'Content-Type': 'text/plain' });
      await server.restart();
      const admin = server.as('admin');
      expect((await admin.get(`/rest/v2/caches/p/${consoleAlice}`, { 'Key-Content-Type': 'application/json' })).json()).to.deep.equal({ _type: 'string', _value: 'a' });
      expect((await admin.get('/rest/v2/caches/p/alice')).status).to.equal(200);
      expect((await admin.get(`/rest/v2/caches/p/${encodeURIComponent('{"_type":"int32","_value":"7"}')}`, { 'Key-Content-Type': 'application/json' })).status).to.equal(200);
      expect((await admin.get('/rest/v2/caches/p?action=keys')).json<string[]>().sort()).to.deep.equal(['7', 'alice']);
    });
  });

  it('keeps every acknowledged key after kill -9 (bin/grid start)', async () => {
    const dataDir = tempDir();
    try {
      let proc = await spawnServer(['--data', dataDir], { APP_USER: 'ops', APP_PASS: 'ops-pw' });
      let client = new Client(proc.url, { user: 'ops', password: 'ops-pw' });
      await client.createCache('p', config);
      for (let i = 0; i < 20; i++) {
        const key = encodeURIComponent(JSON.stringify({ _type: 'string', _value: `k${i}` }));
        expect((await client.put(`/rest/v2/caches/p/${key}`, JSON.stringify({ _type: 'int32', _value: i }), json)).status).to.equal(204);
      }
      proc.child.kill('SIGKILL');
      await waitForExit(proc.child);
      proc = await spawnServer(['--data', dataDir]);
      client = new Client(proc.url, { user: 'ops', password: 'ops-pw' });
      try {
        for (let i = 0; i < 20; i++) expect((await client.get(`/rest/v2/caches/p/k${i}`)).json()).to.deep.equal({ _type: 'int32', _value: i });
        const listed = (await client.get('/rest/v2/caches/p?action=entries&content-negotiation=true')).json<Array<{ key: unknown }>>();
        expect(listed.map((e) => e.key)).to.deep.include({ _type: 'string', _value: 'k3' });
      } finally {
        proc.child.kill('SIGTERM');
        await waitForExit(proc.child);
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('start-up: a data directory written by grid 0.1.0 (keys as the path segment\'s bytes)', function () {
  this.timeout(60_000);
  const wrapped = (text: string) => Buffer.concat([Buffer.from([0x4a, Buffer.byteLength(text)]), Buffer.from(text)]);
  const persistent = (media: string) => ({ 'local-cache': { encoding: { key: { 'media-type': media }, value: { 'media-type': 'text/plain' } }, persistence: { 'file-store': {} } } });

  /** Creates the caches with today's server, then turns the data dir back into 0.1.0's and stores rows as 0.1.0 did. */
  async function oldDataDir(): Promise<string> {
    const dataDir = await withServer({ keepData: true }, async (server) => {
      const admin = server.as('admin');
      await admin.createCache('proto', { 'local-cache': { encoding: { 'media-type': 'application/x-protostream' }, persistence: { 'file-store': {} } } });
      await admin.createCache('java', persistent('application/x-java-object'));
      await admin.createCache('json', persistent('application/json'));
      await admin.createCache('text', persistent('text/plain'));
      return server.dataDir;
    });
    const db = new Database(join(dataDir, 'grid.db'));
    try {
      db.exec('DROP TABLE data_migrations; DELETE FROM schema_migrations WHERE version >= 9');
      const id = (name: string) => db.prepare('SELECT id FROM caches WHERE name = ?').pluck().get(name) as number;
      const insert = db.prepare(`INSERT INTO entries (cache_id, key, value, value_type, created_at, last_used_at, lifespan, max_idle, expires_at)
        VALUES (?, ?, ?, ?, ?, ?, -1, -1, NULL)`);
      const row = (cache: string, key: Buffer | string, value: Buffer | string, created = 1000) =>
        insert.run(id(cache), typeof key === 'string' ? Buffer.from(key) : key, typeof value === 'string' ? Buffer.from(value) : value, 'text/plain', created, created);
      db.transaction(() => {
        row('proto', 'alice', wrapped('from text'));
        row('proto', '{"_type":"string","_value":"bob"}', wrapped('console, newer'), 2000);
        row('proto', 'bob', wrapped('curl, older'), 1000);
        row('proto', Buffer.from('282a', 'hex'), wrapped('typed'));
        for (let i = 0; i < 1200; i++) row('proto', `n${String(i).padStart(4, '0')}`, wrapped(`v${i}`));
        row('java', 'k1', 'java value');
        row('json', 'alice', 'json value');
        row('json', '"ok"', 'already JSON');
        row('text', 'plain', 'text value');
      })();
    } finally {
      db.close();
    }
    return dataDir;
  }

  it('converts the keys once, keeps the newest of two spellings, and leaves other keys alone', async () => {
    const dataDir = await oldDataDir();
    await withServer({ dataDir }, async (server) => {
      const admin = server.as('admin');
      const proto = '/rest/v2/caches/proto';
      expect((await admin.get(`${proto}/alice`)).json()).to.deep.equal({ _type: 'string', _value: 'from text' });
      expect((await admin.get(`${proto}/${encodeURIComponent('{"_type":"string","_value":"alice"}')}`, { 'Key-Content-Type': 'application/json' })).status).to.equal(200);
      expect((await admin.get(`${proto}/bob`)).json()).to.deep.equal({ _type: 'string', _value: 'console, newer' });
      expect((await admin.get(`${proto}/42`, { 'Key-Content-Type': 'application/x-java-object;type=java.lang.Integer' })).json()).to.deep.equal({ _type: 'string', _value: 'typed' });
      expect((await admin.get(`${proto}/n1199`)).json()).to.deep.equal({ _type: 'string', _value: 'v1199' });
      expect((await admin.get(`${proto}?action=size`)).json()).to.equal(1203);
      expect((await admin.get('/rest/v2/caches/java/k1')).text).to.equal('java value');
      expect((await admin.get(`/rest/v2/caches/json/${encodeURIComponent('"alice"')}`)).text).to.equal('json value');
      expect((await admin.get(`/rest/v2/caches/json/${encodeURIComponent('"ok"')}`)).text).to.equal('already JSON');
      expect((await admin.get('/rest/v2/caches/text/plain')).text).to.equal('text value');
      const keys = (await admin.get(`${proto}?action=keys`)).json<string[]>();
      expect(keys).to.include.members(['alice', 'bob', '42', 'n0000']);
      await server.stop();

      // the step is recorded: a key stored the old way after it ran is not converted again
      const db = new Database(join(dataDir, 'grid.db'));
      const protoId = db.prepare("SELECT id FROM caches WHERE name = 'proto'").pluck().get() as number;
      db.prepare("INSERT INTO entries VALUES (?, ?, ?, 'text/plain', 1, 1, -1, -1, NULL)").run(protoId, Buffer.from('late'), wrapped('late'));
      expect(db.prepare('SELECT name FROM data_migrations').pluck().all()).to.deep.equal(['keys-in-key-storage-type']);
      db.close();
      await server.start();
      expect((await server.as('admin').get(`${proto}/late`)).status).to.equal(404);
    });
  });
});

describe('POST /rest/v2/container/restores/{restoreName}: keys of archives', function () {
  this.timeout(60_000);
  const C = '/rest/v2/container';
  const wrapped = (text: string) => Buffer.concat([Buffer.from([0x4a, Buffer.byteLength(text)]), Buffer.from(text)]);
  const stored = (key: string, value: Buffer, created: number): Buffer =>
    frame(encodeEntry({ key: Buffer.from(key), value, valueType: 'application/x-protostream', created, lastUsed: created, lifespan: -1, maxIdle: -1 }));

  async function zipOf(files: Array<[string, Buffer | string]>): Promise<Buffer> {
    const zip = new ZipFile();
    for (const [name, content] of files) zip.addBuffer(Buffer.from(content), name);
    zip.end();
    const chunks: Buffer[] = [];
    for await (const c of zip.outputStream) chunks.push(c as Buffer);
    return Buffer.concat(chunks);
  }

  function manifestOf(zip: Buffer): Promise<string> {
    return new Promise((resolve, reject) => yauzl.fromBuffer(zip, { lazyEntries: true }, (err, file) => {
      if (err || !file) return reject(err);
      file.on('entry', (e: yauzl.Entry) => {
        if (e.fileName !== 'manifest.properties') return file.readEntry();
        file.openReadStream(e, async (err2, stream) => {
          if (err2 || !stream) return reject(err2);
          const chunks: Buffer[] = [];
          for await (const c of stream) chunks.push(c as Buffer);
          file.close();
          resolve(Buffer.concat(chunks).toString('utf8'));
        });
      });
      file.readEntry();
    }));
  }

  async function restore(server: ServerUnderTest, name: string, zip: Buffer): Promise<number> {
    const form = new FormData();
    form.append('backup', new Blob([zip], { type: 'application/zip' }), 'backup.zip');
    const r = await fetch(`${server.url}${C}/restores/${name}`, { method: 'POST', body: form, headers: { Authorization: 'Basic ' + Buffer.from('admin:admin-pw').toString('base64') } });
    expect(r.status).to.equal(202);
    for (let i = 0; i < 400; i++) {
      const head = await server.as('admin').head(`${C}/restores/${name}`);
      if (head.status !== 202) return head.status;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error('restore still running');
  }

  it('converts the keys of an archive written by grid 0.1.0 (no key-format in its manifest)', async () => {
    const zip = await zipOf([
      ['manifest.properties', 'containers=default\nversion=15.0.0\n'],
      ['containers/default/container.properties', 'caches=p\ntemplates=\ncounters=\nproto-schemas=\ntasks=\n'],
      ['containers/default/global.xml', '<infinispan><cache-container name="default"/></infinispan>'],
      ['containers/default/caches/p/p.xml',
        '<infinispan><cache-container><local-cache name="p"><encoding media-type="application/x-protostream"/></local-cache></cache-container></infinispan>'],
      ['containers/default/caches/p/p.dat', Buffer.concat([
        stored('alice', wrapped('a'), 1000), stored('bob', wrapped('older'), 1000), stored('{"_type":"string","_value":"bob"}', wrapped('newer'), 2000),
      ])],
    ]);
    await withServer({}, async (server) => {
      expect(await restore(server, 'old', zip)).to.equal(201);
      const admin = server.as('admin');
      expect((await admin.get('/rest/v2/caches/p/alice')).json()).to.deep.equal({ _type: 'string', _value: 'a' });
      expect((await admin.get('/rest/v2/caches/p/bob')).json()).to.deep.equal({ _type: 'string', _value: 'newer' });
      expect((await admin.get('/rest/v2/caches/p?action=keys')).json<string[]>().sort()).to.deep.equal(['alice', 'bob']);
    });
  });

  it('restores the keys of its own archives as they are (manifest key-format=storage)', async () => {
    const zip = await withServer({}, async (source) => {
      const admin = source.as('admin');
      await admin.createCache('p', { 'local-cache': { encoding: { 'media-type': 'application/x-protostream' }, persistence: { 'file-store': {} } } });
      await admin.put('/rest/v2/caches/p/alice', 'a', { 'Content-Type': 'text/plain' });
      await admin.put('/rest/v2/caches/p/7', 'seven', { 'Key-Content-Type': 'application/x-java-object;type=java.lang.Integer', 'Content-Type': 'text/plain' });
      expect((await admin.post(`${C}/backups/b`)).status).to.equal(202);
      let done = await admin.head(`${C}/backups/b`);
      for (let i = 0; done.status === 202 && i < 400; i++) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        done = await admin.head(`${C}/backups/b`);
      }
      return (await admin.get(`${C}/backups/b`)).bytes;
    });
    expect(await manifestOf(zip)).to.include('key-format=storage');
    await withServer({}, async (target) => {
      expect(await restore(target, 'own', zip)).to.equal(201);
      const t = target.as('admin');
      expect((await t.get('/rest/v2/caches/p/alice')).json()).to.deep.equal({ _type: 'string', _value: 'a' });
      expect((await t.get('/rest/v2/caches/p?action=keys')).json<string[]>().sort()).to.deep.equal(['7', 'alice']);
    });
  });
});

import { expect } from 'chai';
import Database from 'better-sqlite3';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ZipFile } from 'yazl';
import { parseCacheConfig } from '../../src/model/cache-config';
import type { WiredServices } from '../../src/services';
import type { StoredEntry } from '../../src/store/store';
import { Client, type Reply } from '../support/client';
import { until } from '../support/poll';
import { eventually } from '../support/poll';
import { type ServerProcess, spawnServer, waitForExit } from '../support/process';
import { holders, mkdirOnEveryNode } from '../support/node-files';
import { tempDir, useServer, withServer, type ServerUnderTest } from '../support/server';

const C = '/rest/v2/container';
const JSON_TYPE = { 'Content-Type': 'application/json' };
const PERSISTENT = { 'local-cache': { persistence: { 'file-store': {} } } };
const TASK = '// mode=local,language=javascript,parameters=[a]\n"hi " + a';

async function backup(admin: Client, name: string, body?: unknown, base = C): Promise<Reply> {
  const r = await admin.post(`${base}/backups/${name}`, body === undefined ? undefined : JSON.stringify(body), JSON_TYPE);
  expect(r.status, r.text).to.equal(202);
  return until(() => admin.head(`${base}/backups/${name}`));
}

async function download(admin: Client, name: string): Promise<Buffer> {
  const done = await backup(admin, name);
  expect(done.status).to.equal(200);
  const r = await admin.get(`${C}/backups/${name}`);
  expect(r.status).to.equal(200);
  return r.bytes;
}

async function upload(server: ServerUnderTest, name: string, zip: Buffer, resources?: unknown): Promise<Response> {
  const form = new FormData();
  form.append('backup', new Blob([zip], { type: 'application/zip' }), 'backup.zip');
  if (resources !== undefined) form.append('resources', JSON.stringify(resources));
  return fetch(`${server.url}${C}/restores/${name}`, {
    method: 'POST', body: form, headers: { Authorization: 'Basic ' + Buffer.from('admin:admin-pw').toString('base64') },
  });
}

/** Every entry of a cache through the engine seam (either engine: docs/scale-out.md, "Testing on the redis engine"), in key order. */
async function entriesOf(s: WiredServices, cache: string): Promise<Array<Omit<StoredEntry, 'lastUsed'>>> {
  const all: Array<Omit<StoredEntry, 'lastUsed'>> = [];
  for await (const page of s.manager.require(cache).data.entries()) {
    for (const { key, value, valueType, created, lifespan, maxIdle } of page) all.push({ key, value, valueType, created, lifespan, maxIdle });
  }
  return all.sort((a, b) => Buffer.compare(a.key, b.key));
}

function zipOf(files: Array<[string, Buffer | string, { mode?: number }?]>): Promise<Buffer> {
  const zip = new ZipFile();
  for (const [name, content, opts] of files) zip.addBuffer(Buffer.from(content), name, opts ?? {});
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c)).on('end', () => resolve(Buffer.concat(chunks))).on('error', reject);
  });
}

/** Rewrites every occurrence of a same-length name in a zip (local and central headers): yazl refuses hostile names. */
function rename(zip: Buffer, from: string, to: string): Buffer {
  expect(from.length).to.equal(to.length);
  return Buffer.from(zip.toString('latin1').split(from).join(to), 'latin1');
}

const MANIFEST = 'containers=default\nversion=15.0.0\n';
const FIXTURES = join(__dirname, '..', '..', '..', 'test', 'fixtures', 'backups');

describe('backups and restores /rest/v2/{container|cache-managers/{name}|cluster}/{backups|restores}', () => {
  /** The configured `backup-roots` entry of `server`. */
  let root: string;
  before(() => { root = tempDir('grid-backup-root-'); });
  const server = useServer(() => ({ backupRoots: [root] }));
  const admin = server.as('admin');
  let n = 0;
  const fresh = (prefix = 'b') => `${prefix}-${++n}`;

  describe('POST, HEAD, GET, DELETE /backups/{name}', () => {
    it('answers 202, then 200 with the zip and its Content-Disposition; lists the name; 409 on reuse; 204 on delete', async () => {
      await admin.createCache(fresh('c'));
      const name = fresh();
      const done = await backup(admin, name);
      expect(done.status).to.equal(200);
      expect(done.headers.get('content-type')).to.equal('application/zip');
      expect(done.headers.get('content-disposition')).to.equal(`attachment; filename=${name}.zip`);
      const got = await admin.get(`${C}/backups/${name}`);
      expect(got.status).to.equal(200);
      expect(got.bytes.subarray(0, 2).toString()).to.equal('PK');
      expect(holders(server, 'backups', name, `${name}.zip`)).to.have.length(1);
      expect((await admin.get(`${C}/backups`)).json()).to.include(name);
      expect((await admin.post(`${C}/backups/${name}`)).status).to.equal(409);
      expect((await admin.delete(`${C}/backups/${name}`)).status).to.equal(204);
      expect((await admin.head(`${C}/backups/${name}`)).status).to.equal(404);
      expect(holders(server, 'backups', name)).to.deep.equal([]);
    });

    it('writes a name that is not plain percent-encoded: on disk and in Content-Disposition (docs/security.md "Names")', async () => {
      const name = `€ ${fresh()}`;
      expect((await backup(admin, encodeURIComponent(name))).status).to.equal(200);
      const file = `%E2%82%AC%20${name.slice(2)}`;
      expect(holders(server, 'backups', file, `${file}.zip`)).to.have.length(1);
      expect((await admin.head(`${C}/backups/${encodeURIComponent(name)}`)).headers.get('content-disposition')).to.equal(`attachment; filename=${file}.zip`);
      expect((await admin.get(`${C}/backups`)).json()).to.include(name);
    });

    it('never replaces an archive it did not write: 409 when the name\'s file exists in the directory, the file untouched', async () => {
      const name = fresh();
      mkdirOnEveryNode(server, 'backups', name); // the request may go to either node
      const files = server.nodes.map((node) => join(node.services.dataDir, 'backups', name, `${name}.zip`));
      for (const file of files) writeFileSync(file, 'not ours');
      const r = await admin.post(`${C}/backups/${name}`);
      expect([r.status, r.text]).to.deep.equal([409, `The backup archive '${name}/${name}.zip' exists already in that directory`]);
      expect((await admin.head(`${C}/backups/${name}`)).status).to.equal(404);
      for (const file of files) expect(readFileSync(file, 'utf8')).to.equal('not ours');
    });

    it('serves the same resource under /cache-managers/default and /cluster; another manager name is 404', async () => {
      expect((await backup(admin, fresh(), undefined, '/rest/v2/cache-managers/default')).status).to.equal(200);
      expect((await backup(admin, fresh(), undefined, '/rest/v2/cluster')).status).to.equal(200);
      expect((await admin.get('/rest/v2/cache-managers/other/backups')).status).to.equal(404);
      expect((await admin.post(`/rest/v2/cache-managers/other/backups/${fresh()}`)).status).to.equal(404);
    });

    it('writes into `directory`/<name>/ and answers 400 ISPN012038 when it is not a directory', async () => {
      const dir = mkdtempSync(join(root, 'dir-'));
      const name = fresh();
      expect((await backup(admin, name, { directory: dir })).status).to.equal(200);
      expect(existsSync(join(dir, name, `${name}.zip`))).to.equal(true);
      const r = await admin.post(`${C}/backups/${fresh()}`, JSON.stringify({ directory: join(dir, 'nope') }), JSON_TYPE);
      expect(r.status).to.equal(400);
      expect(r.text).to.equal(`ISPN012038: '${join(dir, 'nope')}' must be a directory`);
    });

    it('refuses /proc/self and other special, outside or linked-out directories at once with 400 ISPN012038, existing or not', async () => {
      const outside = tempDir();
      symlinkSync('/proc/self', join(root, 'to-proc'));
      symlinkSync(outside, join(root, 'to-outside'));
      const refused = ['/proc/self', '/proc/self/fd', '/sys', '/dev', '/dev/null', '/dev/shm', tmpdir(), outside, join(outside, 'missing'),
        '/no/such/dir', join(root, '..'), '../..', join(root, 'to-proc'), join(root, 'to-proc', 'cwd'), join(root, 'to-outside'), `${root}/\u0000x`];
      for (const directory of refused) {
        const name = fresh();
        const r = await admin.post(`${C}/backups/${name}`, JSON.stringify({ directory }), JSON_TYPE);
        expect(r.status, directory).to.equal(400);
        expect(r.text, directory).to.equal(`ISPN012038: '${directory}' must be a directory`);
        expect((await admin.head(`${C}/backups/${name}`)).status, directory).to.equal(404);
      }
      expect(readdirSync(outside)).to.deep.equal([]);
      expect((await backup(admin, fresh(), { directory: root })).status).to.equal(200); // nothing holds the lock
    });

    it('resolves a relative directory against the data dir, never the working directory', async () => {
      mkdirOnEveryNode(server, 'relative');
      const name = fresh();
      expect((await backup(admin, name, { directory: 'relative' })).status).to.equal(200);
      expect(holders(server, 'relative', name, `${name}.zip`)).to.have.length(1);
      const r = await admin.post(`${C}/backups/${fresh()}`, JSON.stringify({ directory: 'src' }), JSON_TYPE); // exists in the cwd only
      expect(r.status).to.equal(400);
    });

    it('fails a backup that outlives backup-timeout (500 ISPN012042) and frees the lock', async () => {
      await admin.createCache('slow');
      const cache = server.running.services.manager.require('slow').cache;
      for (let i = 0; i < 20_000; i++) cache.put(Buffer.from(`k${i}`), Buffer.from(`value-${i}`), 'text/plain', { lifespan: -1, maxIdle: -1 });
      const setTimeoutMs = (ms: number) => { for (const node of server.nodes) node.services.backups.timeoutMs = ms; }; // either node may run it
      setTimeoutMs(1);
      const name = fresh();
      try {
        expect((await admin.post(`${C}/backups/${name}`, JSON.stringify({ resources: { caches: ['slow'] } }), JSON_TYPE)).status).to.equal(202);
        expect((await until(() => admin.head(`${C}/backups/${name}`))).status).to.equal(500);
      } finally {
        setTimeoutMs(3_600_000);
      }
      expect((await backup(admin, fresh(), { resources: { caches: ['slow'] } })).status).to.equal(200);
      await admin.delete('/rest/v2/caches/slow');
    });

    it('answers 400 for an unknown selector key and for a name with a control character; keeps a/../b inside backups/', async () => {
      const r = await admin.post(`${C}/backups/${fresh()}`, JSON.stringify({ resources: { widgets: ['*'] } }), JSON_TYPE);
      expect(r.status).to.equal(400);
      expect(r.text).to.equal("Type with name 'widgets' does not exist");
      expect((await admin.post(`${C}/backups/a%0Ab`)).status).to.equal(400);
      const name = `${fresh()}/../b`;
      expect((await backup(admin, encodeURIComponent(name))).status).to.equal(200);
      const file = encodeURIComponent(name).replace(/\./g, '.');
      expect(holders(server, 'backups', file, `${file}.zip`)).to.have.length(1);
      expect(holders(server, 'b')).to.deep.equal([]);
    });

    it('reports 500 ISPN012042 for a backup that failed (a named cache that does not exist)', async () => {
      const name = fresh();
      const r = await admin.post(`${C}/backups/${name}`, JSON.stringify({ resources: { caches: ['missing'] } }), JSON_TYPE);
      expect(r.status).to.equal(202);
      const done = await until(() => admin.head(`${C}/backups/${name}`));
      expect(done.status).to.equal(500);
      const get = await admin.get(`${C}/backups/${name}`);
      expect(get.text).to.equal('ISPN012042: Backup failed');
      expect((await admin.delete(`${C}/backups/${name}`)).status).to.equal(204);
    });

    it('is for ADMIN only', async () => {
      for (const role of ['deployer', 'application', 'observer', 'monitor'] as const) {
        expect((await server.as(role).get(`${C}/backups`)).status, role).to.equal(403);
        expect((await server.as(role).post(`${C}/backups/${fresh()}`)).status, role).to.equal(403);
        expect((await server.as(role).get(`${C}/restores`)).status, role).to.equal(403);
      }
    });
  });

  describe('POST /restores/{name}', () => {
    it('answers 400 ISPN012040 without a location and 415 for other content types', async () => {
      const r = await admin.post(`${C}/restores/${fresh('r')}`, '{}', JSON_TYPE);
      expect(r.status).to.equal(400);
      expect(r.text).to.equal("ISPN012040: Missing required argument 'backup-location'");
      expect((await admin.post(`${C}/restores/${fresh('r')}`, 'x', { 'Content-Type': 'text/plain' })).status).to.equal(415);
    });

    it('does not register a restore whose location inside the roots is missing (HEAD 404), as the original', async () => {
      for (const location of [join(root, 'no', 'such.zip'), 'no-such.zip']) {
        const name = fresh('r');
        expect((await admin.post(`${C}/restores/${name}`, JSON.stringify({ location }), JSON_TYPE)).status).to.equal(202);
        expect((await admin.head(`${C}/restores/${name}`)).status).to.equal(404);
      }
    });

    it('answers one 400 for a location outside the roots, existing or not, and for special or non-regular files', async () => {
      const outside = tempDir();
      const existing = join(outside, 'real.zip');
      writeFileSync(existing, await zipOf([['manifest.properties', MANIFEST]]));
      symlinkSync(existing, join(root, 'link-out.zip'));
      execFileSync('mkfifo', [join(root, 'fifo.zip')]);
      mkdirSync(join(root, 'folder.zip'));
      const refused = [existing, join(outside, 'missing.zip'), '/etc/passwd', '/etc/no-such-file', '/proc/self/environ', '/dev/zero',
        '../outside.zip', join(root, 'link-out.zip'), join(root, 'fifo.zip'), join(root, 'folder.zip')];
      for (const location of refused) {
        const name = fresh('r');
        const r = await admin.post(`${C}/restores/${name}`, JSON.stringify({ location }), JSON_TYPE);
        expect(r.status, location).to.equal(400);
        expect(r.text, location).to.equal(`'${location}' must be a regular file in the data directory or a configured backup root`);
        expect((await admin.head(`${C}/restores/${name}`)).status, location).to.equal(404);
      }
    });

    it('fails (HEAD 500 ISPN012039) when the archive holds another container, and restores nothing', async () => {
      const zip = await zipOf([['manifest.properties', 'containers=other\nversion=15.0.0\n'], ['containers/other/container.properties', 'caches=x\n']]);
      const name = fresh('r');
      expect((await upload(server, name, zip)).status).to.equal(202);
      const r = await until(() => admin.head(`${C}/restores/${name}`));
      expect(r.status).to.equal(500);
      expect((await admin.get('/rest/v2/caches')).json()).not.to.include('x');
    });

    it('fails (HEAD 500) when the archive names a resource the naming rule refuses, before anything is written', async () => {
      const xml = (n: string) => `<infinispan><cache-container><local-cache name="${n}"/></cache-container></infinispan>`;
      const good = fresh('good');
      const zip = await zipOf([
        ['manifest.properties', MANIFEST], ['containers/default/container.properties', `caches=${good},x%0Ay\n`],
        [`containers/default/caches/${good}/${good}.xml`, xml(good)], ['containers/default/caches/x%0Ay/x%0Ay.xml', xml('x')],
      ]);
      const name = fresh('r');
      expect((await upload(server, name, zip)).status).to.equal(202);
      expect((await until(() => admin.head(`${C}/restores/${name}`))).status).to.equal(500);
      expect((await admin.get('/rest/v2/caches')).json()).not.to.include(good);
    });

    it('restores an archive written before names could hold `/` (test/fixtures/backups/names-0.1.zip): each name as it was, `%2F` and `%25` literal', async () => {
      // made by grid at 2e7e98c: caches a-b-c, org.infinispan.cache, a%25bc, áb\ćé+-$ and a%2Fb (each with k → "value of <name>"),
      // template tmpl-áb%, schema org%2Fexample.proto, weak counter c%2Fd (7), task "t %25.js"
      await withServer({}, async (target) => {
        const a = target.as('admin');
        await a.createCache('a/b'); // the name the literal `a%2Fb` must not turn into
        expect((await upload(target, 'old', readFileSync(join(FIXTURES, 'names-0.1.zip')))).status).to.equal(202);
        expect((await until(() => a.head(`${C}/restores/old`))).status).to.equal(201);
        const caches = ['a-b-c', 'org.infinispan.cache', 'a%25bc', 'áb\\ćé+-$', 'a%2Fb'];
        expect((await a.get('/rest/v2/caches')).json<string[]>()).to.include.members([...caches, 'a/b']);
        for (const cache of caches) expect((await a.get(`/rest/v2/caches/${encodeURIComponent(cache)}/k`)).text, cache).to.equal(`value of ${cache}`);
        expect((await a.get('/rest/v2/caches/a%2Fb/k')).status).to.equal(404);
        expect(target.running.services.manager.templateNames()).to.include('tmpl-áb%');
        expect((await a.get(`/rest/v2/schemas/${encodeURIComponent('org%2Fexample.proto')}`)).text).to.contain('message M');
        expect((await a.get(`/rest/v2/counters/${encodeURIComponent('c%2Fd')}`)).text).to.equal('7');
        expect((await a.post(`/rest/v2/tasks/${encodeURIComponent('t %25.js')}?action=exec`)).json()).to.equal('old task');
      });
    });

    describe('refuses hostile archives with 400 and writes nothing', () => {
      const cases: Array<[string, () => Promise<Buffer>]> = [
        ['a `..` path', async () => rename(await zipOf([['manifest.properties', MANIFEST], ['XX/evil', 'x']]), 'XX/evil', '../evil')],
        ['an absolute path', async () => rename(await zipOf([['manifest.properties', MANIFEST], ['Xtmp/evil', 'x']]), 'Xtmp/evil', '/tmp/evil')],
        ['a symbolic link', () => zipOf([['manifest.properties', MANIFEST], ['containers/default/link', '/etc/passwd', { mode: 0o120777 }]])],
        ['duplicate names', () => zipOf([['manifest.properties', MANIFEST], ['manifest.properties', MANIFEST]])],
        ['an absurd compression ratio', () => zipOf([['manifest.properties', MANIFEST], ['containers/default/bomb', Buffer.alloc(20 * 1024 * 1024)]])],
        ['bytes that are not a zip', async () => Buffer.from('not a zip at all')],
      ];
      for (const [what, build] of cases) {
        it(what, async () => {
          const name = fresh('r');
          const r = await upload(server, name, await build());
          expect(r.status, await r.text()).to.equal(400);
          expect((await admin.head(`${C}/restores/${name}`)).status).to.equal(404);
          expect(readdirSync(join(server.dataDir, 'restores'))).to.deep.equal([]);
        });
      }

      it('an upload above the limit', async () => {
        const limits = server.running.services.backups.limits;
        const saved = limits.maxUploadBytes;
        limits.maxUploadBytes = 1000;
        try {
          const r = await upload(server, fresh('r'), Buffer.alloc(5000, 1));
          expect(r.status).to.equal(400);
        } finally {
          limits.maxUploadBytes = saved;
        }
      });
    });
  });

  describe('round trip', () => {
    let zip: Buffer;
    let source: WiredServices;

    before(async () => {
      source = server.running.services;
      await admin.createCache('rt-memory');
      await admin.createCache('rt-persistent', PERSISTENT);
      const put = (cache: string, key: string, value: string, headers: Record<string, string>) =>
        admin.put(`/rest/v2/caches/${cache}/${key}`, value, headers).then((r) => expect(r.status, r.text).to.equal(204));
      for (let i = 0; i < 30; i++) {
        await put('rt-memory', `k${i}`, `v${i}`, { 'Content-Type': 'text/plain' });
        await put('rt-persistent', `p${i}`, JSON.stringify({ i }), { 'Content-Type': 'application/json' });
      }
      await put('rt-memory', 'mortal', 'soon', { 'Content-Type': 'text/plain', timeToLiveSeconds: '3600', maxIdleTimeSeconds: '1800' });
      await put('rt-persistent', 'bytes', '\u0001\u0002', { 'Content-Type': 'application/octet-stream', timeToLiveSeconds: '7200' });
      expect((await admin.post('/rest/v2/schemas/rt.proto', 'message Rt { optional string a = 1; }')).status).to.be.oneOf([200, 201]);
      expect((await admin.post('/rest/v2/counters/rt-weak', JSON.stringify({ 'weak-counter': { 'initial-value': 5, storage: 'PERSISTENT' } }), JSON_TYPE)).status).to.equal(200);
      expect((await admin.post('/rest/v2/counters/rt-strong', JSON.stringify({ 'strong-counter': { 'initial-value': 1, storage: 'VOLATILE' } }), JSON_TYPE)).status).to.equal(200);
      expect((await admin.post('/rest/v2/counters/rt-weak?action=add&delta=37')).status).to.equal(204);
      expect((await admin.post('/rest/v2/counters/rt-strong?action=add&delta=-11')).status).to.equal(200);
      await source.manager.defineTemplate('rt-template', parseCacheConfig('{"local-cache-configuration":{"statistics":true}}', 'json'));
      expect((await admin.put('/rest/v2/tasks/rt-task', TASK)).status).to.equal(200);
      zip = await download(admin, fresh('rt'));
    });

    async function expectRestored(target: ServerUnderTest): Promise<void> {
      const t = target.running.services;
      for (const cache of ['rt-memory', 'rt-persistent']) {
        expect(await entriesOf(t, cache), cache).to.deep.equal(await entriesOf(source, cache));
        expect(t.manager.require(cache).cache.settings.persistent).to.equal(source.manager.require(cache).cache.settings.persistent);
      }
      expect((await entriesOf(t, 'rt-memory')).find((e) => e.key.toString() === 'mortal')?.lifespan).to.equal(3_600_000);
      expect(t.schemas.content('rt.proto')).to.equal(source.schemas.content('rt.proto'));
      expect(await t.counters.value('rt-weak')).to.equal(42n);
      expect(await t.counters.value('rt-strong')).to.equal(-10n);
      expect(t.counters.config('rt-strong', false)).to.equal(source.counters.config('rt-strong', false));
      expect(t.manager.templateDefinitions().map(([name]) => name)).to.include('rt-template');
      expect(t.tasks.script('rt-task')).to.equal(TASK);
      const exec = await target.as('admin').post('/rest/v2/tasks/rt-task?action=exec&param.a=x');
      expect(exec.json()).to.equal('hi x');
    }

    it('restores everything into a fresh server from an upload (HEAD 202 → 201)', async () => {
      await withServer({}, async (target) => {
        const r = await upload(target, 'up', zip);
        expect(r.status).to.equal(202);
        expect((await until(() => target.as('admin').head(`${C}/restores/up`))).status).to.equal(201);
        await expectRestored(target);
        expect((await target.as('admin').get(`${C}/restores`)).json()).to.deep.equal(['up']);
        expect((await target.as('admin').delete(`${C}/restores/up`)).status).to.equal(204);
        expect((await target.as('admin').head(`${C}/restores/up`)).status).to.equal(404);
        expect(await entriesOf(target.running.services, 'rt-memory')).to.have.length(31);
      });
    });

    it('restores from a location on the server, and only the selected resources', async () => {
      const dir = tempDir();
      const file = join(dir, 'rt.zip');
      writeFileSync(file, zip);
      await withServer({ backupRoots: [dir] }, async (target) => {
        const a = target.as('admin');
        expect((await a.post(`${C}/restores/all`, JSON.stringify({ location: file }), JSON_TYPE)).status).to.equal(202);
        expect((await until(() => a.head(`${C}/restores/all`))).status).to.equal(201);
        await expectRestored(target);
      });
      await withServer({}, async (partial) => {
        const a = partial.as('admin');
        for (const node of partial.nodes) writeFileSync(join(node.services.dataDir, 'rt.zip'), zip); // the request may go to either node
        const body = { location: 'rt.zip', resources: { caches: ['rt-persistent'], 'cache-configs': ['*'] } };
        expect((await a.post(`${C}/restores/some`, JSON.stringify(body), JSON_TYPE)).status).to.equal(202);
        expect((await until(() => a.head(`${C}/restores/some`))).status).to.equal(201);
        const s = partial.running.services;
        expect(s.manager.find('rt-memory')).to.equal(undefined);
        expect(await entriesOf(s, 'rt-persistent')).to.deep.equal(await entriesOf(source, 'rt-persistent'));
        expect(s.manager.templateDefinitions().map(([name]) => name)).to.include('rt-template');
        expect(s.counters.names()).not.to.include('rt-weak');
      });
    });

    it('writes the original layout (manifest, container.properties, <cache>.xml and .dat)', async () => {
      const text = zip.toString('latin1');
      for (const entry of ['manifest.properties', 'containers/default/container.properties', 'containers/default/caches/rt-memory/rt-memory.xml',
        'containers/default/caches/rt-persistent/rt-persistent.dat', 'containers/default/templates/rt-template.xml',
        'containers/default/counters/counters.dat', 'containers/default/proto-schemas/rt.proto', 'containers/default/tasks/rt-task']) {
        expect(text, entry).to.include(entry);
      }
    });
  });

  it('takes a consistent snapshot while writes continue (memory and persistent caches written in the same turn)', async () => {
    const s = server.running.services;
    await admin.createCache('pit-memory');
    await admin.createCache('pit-persistent', PERSISTENT);
    const mem = s.manager.require('pit-memory').cache;
    const per = s.manager.require('pit-persistent').cache;
    let stop = false;
    let i = 0;
    const writer = (async () => {
      while (!stop) {
        for (let j = 0; j < 20; j++, i++) {
          const key = Buffer.from(`k${i}`);
          mem.put(key, Buffer.from('v'), 'text/plain', { lifespan: -1, maxIdle: -1 });
          per.put(key, Buffer.from('v'), 'text/plain', { lifespan: -1, maxIdle: -1 });
        }
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const name = fresh('pit');
    const r = await admin.post(`${C}/backups/${name}`, JSON.stringify({ resources: { caches: ['pit-memory', 'pit-persistent'] } }), JSON_TYPE);
    expect(r.status).to.equal(202);
    expect((await until(() => admin.head(`${C}/backups/${name}`))).status).to.equal(200);
    stop = true;
    await writer;
    const zip = (await admin.get(`${C}/backups/${name}`)).bytes;
    await withServer({}, async (target) => {
      expect((await upload(target, 'pit', zip)).status).to.equal(202);
      expect((await until(() => target.as('admin').head(`${C}/restores/pit`))).status).to.equal(201);
      const keys = async (c: string) => (await entriesOf(target.running.services, c)).map((e) => e.key.toString());
      const inMemory = await keys('pit-memory');
      expect(inMemory.length).to.be.greaterThan(0);
      expect(inMemory.length).to.be.lessThan(i);
      expect(await keys('pit-persistent')).to.deep.equal(inMemory);
    });
  });

  describe('tenants: each container keeps to its own data dir', () => {
    it('a tenant gets neither backup-roots nor another data dir; the default container cannot reach tenants/', async () => {
      const shared = tempDir('grid-backup-shared-');
      await withServer({ tenants: [{ name: 't1' }], backupRoots: [shared] }, async (t) => {
        const a = t.as('admin');
        const T1 = '/rest/t1/v2/container';
        const defaultZip = join(t.dataDir, 'backups', 'd1', 'd1.zip');
        expect((await backup(a, 'd1')).status).to.equal(200);
        expect((await backup(a, 'tb', undefined, T1)).status).to.equal(200);
        const tenantZip = join(t.dataDir, 'tenants', 't1', 'backups', 'tb', 'tb.zip');
        expect(holders(t, 'tenants', 't1', 'backups', 'tb', 'tb.zip')).to.have.length(1);
        const refusedDirectory = async (base: string, directory: string) => {
          const r = await a.post(`${base}/backups/${fresh()}`, JSON.stringify({ directory }), JSON_TYPE);
          expect(r.status, `${base} ${directory}`).to.equal(400);
          expect(r.text).to.equal(`ISPN012038: '${directory}' must be a directory`);
        };
        const refusedLocation = async (base: string, location: string) => {
          const r = await a.post(`${base}/restores/${fresh('r')}`, JSON.stringify({ location }), JSON_TYPE);
          expect(r.status, `${base} ${location}`).to.equal(400);
          expect(r.text).to.equal(`'${location}' must be a regular file in the data directory or a configured backup root`);
        };
        await refusedDirectory(T1, shared);
        await refusedDirectory(T1, t.dataDir);
        await refusedDirectory(C, join(t.dataDir, 'tenants', 't1'));
        await refusedDirectory(C, 'tenants');
        await refusedLocation(T1, defaultZip);
        await refusedLocation(T1, '../../backups/d1/d1.zip');
        await refusedLocation(C, tenantZip);
        await refusedLocation(C, 'tenants/t1/backups/tb/tb.zip');
        expect((await backup(a, fresh(), { directory: shared })).status).to.equal(200); // the default container may use it
        mkdirOnEveryNode(t, 'tenants', 't1', 'exports');
        expect((await backup(a, fresh(), { directory: 'exports' }, T1)).status).to.equal(200); // relative to the tenant's dir
      });
    });
  });

  describe('shutdown (bin/grid start)', function () {
    this.timeout(120_000);

    it('a backup whose DELETE was acknowledged (202) while it ran is gone after kill -9; an interrupted one leaves no partial archive', async () => {
      const dataDir = tempDir();
      await withServer({ dataDir, keepData: true }, async (seed) => {
        await seed.as('admin').createCache('big', PERSISTENT);
        const cache = seed.running.services.manager.require('big').cache;
        for (let i = 0; i < 30_000; i++) cache.put(Buffer.from(`key-${i}`), randomBytes(64), 'application/octet-stream', { lifespan: -1, maxIdle: -1 });
        await cache.settled();
      });
      const env = { APP_USER: 'ops', APP_PASS: 'ops-pw' };
      const start = async () => {
        const proc = await spawnServer(['--data', dataDir], env);
        return { proc, client: new Client(proc.url, { user: 'ops', password: 'ops-pw' }) };
      };
      try {
        let { proc, client } = await start();
        expect((await client.post(`${C}/backups/gone`)).status).to.equal(202);
        expect((await client.post(`${C}/backups/cut`)).status).to.equal(202);
        expect((await client.delete(`${C}/backups/gone`)).status).to.equal(202);
        proc.child.kill('SIGKILL');
        await waitForExit(proc.child);

        ({ proc, client } = await start());
        try {
          expect((await client.head(`${C}/backups/gone`)).status).to.equal(404);
          expect((await client.get(`${C}/backups`)).json<string[]>()).to.not.include('gone');
          expect((await client.head(`${C}/backups/cut`)).status).to.equal(500);
          const partial = () => (readdirSync(join(dataDir, 'backups'), { recursive: true }) as string[]).filter((f) => f.endsWith('.tmp'));
          await eventually(() => partial().length === 0, 5000, `no partial archive left (${partial().join(', ')})`);
        } finally {
          proc.child.kill('SIGTERM');
          await waitForExit(proc.child);
        }
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    });

    it('SIGTERM stops the server promptly during a long restore and a long backup; both are FAILED after the restart', async () => {
      const ENTRIES = 30_000;
      const zip = await withServer({}, async (source) => {
        await source.as('admin').createCache('big', PERSISTENT);
        const cache = source.running.services.manager.require('big').cache;
        for (let i = 0; i < ENTRIES; i++) cache.put(Buffer.from(`key-${i}`), randomBytes(64), 'application/octet-stream', { lifespan: -1, maxIdle: -1 });
        return download(source.as('admin'), 'big');
      });
      const dataDir = tempDir();
      writeFileSync(join(dataDir, 'big.zip'), zip);
      const env = { APP_USER: 'ops', APP_PASS: 'ops-pw' };
      const start = async () => {
        const proc = await spawnServer(['--data', dataDir], env);
        return { proc, client: new Client(proc.url, { user: 'ops', password: 'ops-pw' }) };
      };
      /** SIGTERM and a clean exit; a stop that waited for the operation to finish would be seen after the restart. */
      const stop = async (proc: ServerProcess) => {
        const signalled = Date.now();
        proc.child.kill('SIGTERM');
        expect(await waitForExit(proc.child), proc.output()).to.equal(0);
        expect(Date.now() - signalled, 'ms from SIGTERM to exit').to.be.below(15_000);
      };
      try {
        let { proc, client } = await start();
        expect((await client.post(`${C}/restores/cut`, JSON.stringify({ location: 'big.zip' }), JSON_TYPE)).status).to.equal(202);
        await stop(proc);

        ({ proc, client } = await start());
        expect((await client.head(`${C}/restores/cut`)).status).to.equal(500);
        expect(Number((await client.get('/rest/v2/caches/big?action=size')).text) || 0).to.be.below(ENTRIES);
        expect((await client.post(`${C}/restores/whole`, JSON.stringify({ location: 'big.zip' }), JSON_TYPE)).status).to.equal(202);
        expect((await until(() => client.head(`${C}/restores/whole`))).status).to.equal(201);
        expect((await client.post(`${C}/backups/cut`)).status).to.equal(202);
        await stop(proc);

        ({ proc, client } = await start());
        try {
          expect((await client.head(`${C}/backups/cut`)).status).to.equal(500);
          expect(Number((await client.get('/rest/v2/caches/big?action=size')).text)).to.equal(ENTRIES);
        } finally {
          await stop(proc);
        }
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    });
  });

  describe('restart', () => {
    it('keeps records; a backup in progress at a crash is FAILED afterwards', async () => {
      await withServer({}, async (s) => {
        const a = s.as('admin');
        expect((await backup(a, 'kept')).status).to.equal(200);
        await s.stop();
        const db = new Database(join(s.dataDir, 'grid.db'));
        db.prepare("INSERT INTO operations (kind, name, status, path, detail, created_at, updated_at) VALUES ('backup', 'crashed', 'IN_PROGRESS', NULL, '{}', 0, 0)").run();
        db.close();
        await s.start();
        expect((await a.get(`${C}/backups`)).json()).to.deep.equal(['crashed', 'kept']);
        expect((await a.head(`${C}/backups/kept`)).status).to.equal(200);
        expect((await a.get(`${C}/backups/kept`)).bytes.length).to.equal(readFileSync(join(s.dataDir, 'backups', 'kept', 'kept.zip')).length);
        expect((await a.head(`${C}/backups/crashed`)).status).to.equal(500);
      });
    });
  });
});

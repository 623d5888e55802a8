import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { Client, type Reply } from '../support/client';
import { spawnServer, waitForExit } from '../support/process';
import { eventually } from '../support/poll';
import { STALL_BOUND_MS, startHealthProbe } from '../support/stall-probe';
import { gridProcesses, PROCESS_ADMIN, startTwoNodes, throwawayCluster } from '../support/redis-cluster';
import { startTestServer, type TestServer } from '../support/server';
import { NO_FLAGS } from '../../src/model/flags';
import { ArchiveReader } from '../../src/services/backup/archive-reader';
import { DEFAULT_BACKUP_LIMITS } from '../../src/services/backup.service';
import type { WiredServices } from '../../src/services';
import { tempDir } from '../support/server';
import { join } from 'node:path';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';

// Backups and restores on two grid nodes over one real 3+3 Redis Cluster (docs/scale-out.md,
// "Backups and restores"): one archive written by the node asked, restorable through any node
// and into the SQLite engine, and back; the operations' status the same on every node.

const C = '/rest/v2/container';
const JSON_TYPE = { 'Content-Type': 'application/json' };
/** How many entries the big backup holds (docs/scale-out.md gives the figures of 100,000). */
const ENTRIES = Number(process.env.GRID_TEST_BACKUP_ENTRIES ?? 5_000);
/** Bound for an operation of ENTRIES entries on a busy 2-core machine: generous, not a timing assertion. */
const OPERATION_MS = 30_000 + ENTRIES * 3;
const TASK = '// mode=local,language=javascript,parameters=[a]\n"hi " + a';

type Compared = { value: string; valueType: string | null; created: number; lifespan: number; maxIdle: number };

/** Every entry of a cache, through the engine seam (either engine), by key. */
async function entriesOf(s: WiredServices, cache: string): Promise<Map<string, Compared>> {
  const all = new Map<string, Compared>();
  for await (const page of s.manager.require(cache).data.entries()) {
    for (const e of page) all.set(e.key.toString('hex'), { value: e.value.toString('hex'), valueType: e.valueType, created: e.created, lifespan: e.lifespan, maxIdle: e.maxIdle });
  }
  return all;
}

async function finished(client: Client, path: string): Promise<Reply> {
  let r!: Reply;
  await eventually(async () => (r = await client.head(path)).status !== 202, OPERATION_MS, `${path} to finish`);
  return r;
}

function upload(url: string, name: string, zip: Buffer): Promise<Response> {
  const form = new FormData();
  form.append('backup', new Blob([zip], { type: 'application/zip' }), 'backup.zip');
  return fetch(`${url}${C}/restores/${name}`, { method: 'POST', body: form, headers: { Authorization: 'Basic ' + Buffer.from('admin:admin-pw').toString('base64') } });
}

async function manifestOf(zip: Buffer): Promise<string> {
  const file = join(tempDir(), 'a.zip');
  writeFileSync(file, zip);
  const reader = await ArchiveReader.open(file, DEFAULT_BACKUP_LIMITS);
  try {
    return await reader.text('manifest.properties', 1024);
  } finally {
    reader.close();
  }
}

describe('backups and restores on two grid nodes over one Redis Cluster', function () {
  this.timeout(OPERATION_MS * 4 + 60_000);
  const nodes = gridProcesses(() => redis);
  const redis = throwawayCluster();
  let a: TestServer;
  let b: TestServer;
  let adminA: Client;
  let adminB: Client;
  let archive: Buffer;
  let expected: Map<string, Compared>;
  let aClosed = false;

  before(async () => ({ a, b, adminA, adminB } = await startTwoNodes(redis)));
  after(async () => {
    if (!aClosed) await a?.close();
    await b?.close();
  });

  it(`backs up ${ENTRIES} entries through node A into one per-page archive; its status is the same on node B`, async () => {
    expect((await adminA.post('/rest/v2/caches/big', '{"distributed-cache":{"encoding":{"media-type":"application/octet-stream"}}}', JSON_TYPE)).status).to.equal(200);
    const big = a.running.services.manager.require('big').data;
    // filled through the seam, 256 writes in flight: the HTTP path is not what this test is about
    for (let i = 0; i < ENTRIES; i += 256) {
      await Promise.all(Array.from({ length: Math.min(256, ENTRIES - i) }, (_, j) => {
        const n = i + j;
        const expiry = n % 10 === 0 ? { lifespan: 3_600_000, maxIdle: 1_800_000 } : { lifespan: -1, maxIdle: -1 };
        return Promise.resolve(big.put(Buffer.from(`k${n}`), randomBytes(16 + (n % 64)), n % 7 === 0 ? 'text/plain' : null, expiry, NO_FLAGS));
      }));
    }
    expect((await adminB.post('/rest/v2/counters/hits', JSON.stringify({ 'weak-counter': { 'initial-value': 5, storage: 'PERSISTENT' } }), JSON_TYPE)).status).to.equal(200);
    expect((await adminA.post('/rest/v2/counters/hits?action=add&delta=37')).status).to.equal(204);
    expect((await adminB.post('/rest/v2/schemas/rt.proto', 'message Rt { optional string a = 1; }')).status).to.be.oneOf([200, 201]);
    expect((await adminB.put('/rest/v2/tasks/rt-task', TASK)).status).to.equal(200);
    expected = await entriesOf(a.running.services, 'big');
    expect(expected.size).to.equal(ENTRIES);

    const probe = startHealthProbe(a.url);
    expect((await adminA.post('/rest/v2/cluster/backups/full', '{}', JSON_TYPE)).status).to.equal(202);
    // node B sees the operation node A runs, and its end
    expect((await adminB.get('/rest/v2/cluster/backups')).json()).to.deep.equal(['full']);
    expect((await finished(adminB, '/rest/v2/cluster/backups/full')).status).to.equal(200);
    const stalls = await probe.stop();
    // the walk pages with other requests served between pages: no stall of node A's event loop
    expect(stalls.worstMs).to.be.below(STALL_BOUND_MS);
    expect((await adminA.head('/rest/v2/cluster/backups/full')).status).to.equal(200);
    const got = await adminA.get('/rest/v2/cluster/backups/full');
    expect(got.status).to.equal(200);
    archive = got.bytes;
    const manifest = await manifestOf(archive);
    expect(manifest).to.include('consistency=per-page');
    expect(manifest).to.include('key-format=storage');
  });

  it('sends a download and a delete through node B to node A, which holds the archive (307)', async () => {
    const auth = { Authorization: 'Basic ' + Buffer.from('admin:admin-pw').toString('base64') };
    const viaB = await fetch(`${b.url}/rest/v2/cluster/backups/full`, { headers: auth, redirect: 'manual' });
    expect(viaB.status).to.equal(307);
    expect(viaB.headers.get('location')).to.equal(`${a.url}/rest/v2/cluster/backups/full`);
    const followed = await fetch(viaB.headers.get('location')!, { headers: auth });
    expect(Buffer.from(await followed.arrayBuffer()).equals(archive)).to.equal(true);
    // a second backup, deleted through B: B answers with A, A deletes it, and every node forgets it
    expect((await adminB.post(`${C}/backups/gone`, JSON.stringify({ resources: { caches: [] } }), JSON_TYPE)).status).to.equal(202);
    expect((await finished(adminA, `${C}/backups/gone`)).status).to.equal(200);
    const deleteViaA = await fetch(`${a.url}${C}/backups/gone`, { method: 'DELETE', headers: auth, redirect: 'manual' });
    expect([deleteViaA.status, deleteViaA.headers.get('location')]).to.deep.equal([307, `${b.url}${C}/backups/gone`]);
    expect((await adminB.delete(`${C}/backups/gone`)).status).to.equal(204);
    expect((await adminA.head(`${C}/backups/gone`)).status).to.equal(404);
    // ADMIN only, on every node
    expect((await b.as('observer').head('/rest/v2/cluster/backups/full')).status).to.equal(403);
    expect((await a.as('observer').post(`${C}/backups/nope`, '{}', JSON_TYPE)).status).to.equal(403);
  });

  it('restores the archive through node B after the cache and counter are removed: node A sees every entry', async () => {
    expect((await adminB.delete('/rest/v2/caches/big')).status).to.equal(200);
    expect((await adminA.delete('/rest/v2/counters/hits')).status).to.equal(204);
    await eventually(async () => (await adminA.get('/rest/v2/caches/big?action=size')).status === 404, 5_000, 'node A to lose the cache');
    const probe = startHealthProbe(b.url);
    expect((await upload(b.url, 'back', archive)).status).to.equal(202);
    // the restore's status is the cluster's: node A answers for node B's operation
    expect((await finished(adminA, `${C}/restores/back`)).status).to.equal(201);
    const stalls = await probe.stop();
    expect(stalls.worstMs).to.be.below(STALL_BOUND_MS);
    expect((await adminA.get(`${C}/restores`)).json()).to.deep.equal(['back']);
    await a.running.services.manager.catchUp();
    expect(await entriesOf(a.running.services, 'big')).to.deep.equal(expected);
    expect((await adminA.get('/rest/v2/counters/hits')).text).to.equal('42');
    expect((await adminA.get('/rest/v2/schemas/rt.proto')).text).to.contain('message Rt');
    expect((await adminA.post('/rest/v2/tasks/rt-task?action=exec&param.a=x')).json()).to.equal('hi x');
  });

  it('restores the same archive into a fresh SQLite grid: every entry', async () => {
    const sqlite = await startTestServer();
    try {
      expect((await upload(sqlite.url, 'from-redis', archive)).status).to.equal(202);
      expect((await finished(sqlite.as('admin'), `${C}/restores/from-redis`)).status).to.equal(201);
      expect(await entriesOf(sqlite.running.services, 'big')).to.deep.equal(expected);
      expect((await sqlite.as('admin').get('/rest/v2/counters/hits')).text).to.equal('42');
    } finally {
      await sqlite.close();
    }
  });

  it('restores a point-in-time SQLite archive into the redis grid: every entry, seen by both nodes', async () => {
    const sqlite = await startTestServer();
    let zip: Buffer;
    let fromSqlite: Map<string, Compared>;
    try {
      const admin = sqlite.as('admin');
      expect((await admin.post('/rest/v2/caches/lite', '{"local-cache":{"persistence":{"file-store":{}}}}', JSON_TYPE)).status).to.equal(200);
      for (let i = 0; i < 300; i++) {
        const headers = { 'Content-Type': 'text/plain', ...(i % 5 === 0 ? { timeToLiveSeconds: '3600' } : {}) };
        expect((await admin.put(`/rest/v2/caches/lite/k${i}`, `v${i}`, headers)).status).to.equal(204);
      }
      expect((await admin.post(`${C}/backups/lite`, '{}', JSON_TYPE)).status).to.equal(202);
      expect((await finished(admin, `${C}/backups/lite`)).status).to.equal(200);
      zip = (await admin.get(`${C}/backups/lite`)).bytes;
      fromSqlite = await entriesOf(sqlite.running.services, 'lite');
    } finally {
      await sqlite.close();
    }
    expect(await manifestOf(zip)).to.include('consistency=point-in-time');
    expect((await upload(a.url, 'lite', zip)).status).to.equal(202);
    expect((await finished(adminB, `${C}/restores/lite`)).status).to.equal(201);
    await b.running.services.manager.catchUp();
    expect(fromSqlite.size).to.equal(300);
    expect(await entriesOf(b.running.services, 'lite')).to.deep.equal(fromSqlite);
    expect((await adminB.get('/rest/v2/caches/lite/k7')).text).to.equal('v7');
  });

  it('ends what a node killed during a backup left once a process of its name starts: the unfinished archive goes, the backup is FAILED', async () => {
    const dir = nodes.dataDir();
    const start = () => spawnServer(['--data', dir, ...nodes.engineArgs(), '--node-name', 'node-x'], { APP_USER: PROCESS_ADMIN.user, APP_PASS: PROCESS_ADMIN.password });
    const partial = () => existsSync(join(dir, 'backups')) ? (readdirSync(join(dir, 'backups'), { recursive: true }) as string[]).filter((f) => f.endsWith('.tmp')) : [];
    let x = await start();
    try {
      expect((await new Client(x.url, PROCESS_ADMIN).post(`${C}/backups/cut`)).status).to.equal(202);
      await eventually(() => partial().length === 1, 10_000, 'the archive to be begun');
      x.child.kill('SIGKILL');
      await waitForExit(x.child);
      expect(partial()).to.have.length(1);
      x = await start(); // it takes the name once the killed process's deadline passes
      await eventually(() => partial().length === 0, 10_000, `no partial archive left (${partial().join(', ')})`);
      for (const c of [adminB, new Client(x.url, PROCESS_ADMIN)]) expect((await c.head(`${C}/backups/cut`)).status).to.equal(500);
    } finally {
      x.child.kill('SIGKILL');
      await waitForExit(x.child);
    }
  });

  it('answers 503 for the archive of a node that is not running, and the status it had everywhere', async () => {
    await a.close();
    aClosed = true;
    await eventually(async () => (await adminB.get('/rest/v2/cluster/backups/full')).status === 503, 10_000, 'node A to leave the members');
    const r = await adminB.get('/rest/v2/cluster/backups/full');
    expect(r.headers.get('retry-after')).to.equal('5');
    expect(r.text).to.match(/^The node .+ \(127\.0\.0\.1:\d+\) holds it and is not running: retry once it runs again$/);
    expect((await adminB.head('/rest/v2/cluster/backups/full')).status).to.equal(200);
  });
});

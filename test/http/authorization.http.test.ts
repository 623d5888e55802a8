import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { grid } from '../support/cli';
import { Client } from '../support/client';
import { eventually, until } from '../support/poll';
import { spawnServer, waitForExit } from '../support/process';
import { useServer, withServer } from '../support/server';
import { SseReader } from '../support/sse';

const JSON_TYPE = { 'Content-Type': 'application/json' };
/** Secured: only the `admin` and `keeper` roles act on it. */
const VAULT = { 'local-cache': { security: { authorization: { enabled: true, roles: ['admin', 'keeper'] } } } };

/**
 * Per-cache authorization (docs/security.md#per-cache-roles). Users: the five default roles, `ops` (group monitor)
 * granted the role `operator`, which holds ALL globally but is not one of the secured cache's
 * roles, and `keeper` (group monitor) granted the role `keeper`, which is.
 */
describe('authorization of secured caches', () => {
  const server = useServer({ users: { ops: ['monitor'], keeper: ['monitor'] } });
  const admin = server.as('admin');
  const ops = server.as('ops');
  const keeper = server.as('keeper');
  let n = 0;
  const fresh = () => `vault-${++n}`;
  const vault = async () => {
    const name = fresh();
    await admin.createCache(name, VAULT);
    expect((await admin.put(`/rest/v2/caches/${name}/k`, 'secret')).status).to.equal(204);
    return name;
  };
  const config = async (name: string) => (await admin.get(`/rest/v2/caches/${name}?action=config`)).text;

  before(async () => {
    const s = server.running.services;
    await s.roles.createRole('operator', ['ALL'], 'global admin without a role on the vault');
    await s.roles.createRole('keeper', ['ALL_READ', 'ALL_WRITE', 'CREATE', 'ADMIN', 'MONITOR'], 'listed by the vault');
    await s.roles.grant('ops', ['operator']);
    await s.roles.grant('keeper', ['keeper']);
  });

  describe('DELETE /rest/v2/caches/{cacheName}', () => {
    it('answers 403 to a deployer and to a global admin without a role on the secured cache, which stays', async () => {
      const name = await vault();
      for (const client of [server.as('deployer'), ops]) {
        const r = await client.delete(`/rest/v2/caches/${name}`);
        expect(r.status).to.equal(403);
      }
      expect((await admin.head(`/rest/v2/caches/${name}`)).status).to.equal(204);
      expect((await admin.get(`/rest/v2/caches/${name}/k`)).text).to.equal('secret');
    });

    it('so the name cannot be recreated unsecured', async () => {
      const name = await vault();
      const deployer = server.as('deployer');
      expect((await deployer.delete(`/rest/v2/caches/${name}`)).status).to.equal(403);
      const recreate = await deployer.post(`/rest/v2/caches/${name}`, '{"local-cache":{}}', JSON_TYPE);
      expect(recreate.status).to.equal(403);
      expect((await server.as('observer').get(`/rest/v2/caches/${name}/k`)).status).to.equal(403);
    });

    it("names neither the cache's roles nor more than the subject and the permission in the 403", async () => {
      const name = await vault();
      const r = await server.as('deployer').delete(`/rest/v2/caches/${name}`);
      expect(r.text).to.equal("ISPN000287: Unauthorized access: subject 'Subject with principal(s): [deployer]' lacks 'CREATE' permission");
      expect(r.text).to.not.contain('keeper');
    });

    it('lets a role the cache lists delete it (200)', async () => {
      const name = await vault();
      expect((await keeper.delete(`/rest/v2/caches/${name}`)).status).to.equal(200);
      expect((await admin.head(`/rest/v2/caches/${name}`)).status).to.equal(404);
    });
  });

  describe('PUT /rest/v2/caches/{cacheName}', () => {
    const bigger = { 'local-cache': { ...VAULT['local-cache'], memory: { 'max-count': 5 }, expiration: { lifespan: 1000 } } };

    it('answers 403 to a deployer without a role on the secured cache and changes nothing', async () => {
      const name = await vault();
      const before = await config(name);
      for (const client of [server.as('deployer'), ops]) {
        expect((await client.put(`/rest/v2/caches/${name}`, JSON.stringify(bigger), JSON_TYPE)).status).to.equal(403);
      }
      expect(await config(name)).to.equal(before);
    });

    it('applies the change for a role the cache lists', async () => {
      const name = await vault();
      expect((await keeper.put(`/rest/v2/caches/${name}`, JSON.stringify(bigger), JSON_TYPE)).status).to.equal(200);
      expect(await config(name)).to.contain('max-count');
    });
  });

  describe('other operations naming a secured cache', () => {
    it('refuses its configuration, the ignore list and x-site to a global admin without a role on it', async () => {
      const name = await vault();
      expect((await ops.get(`/rest/v2/caches/${name}?action=config`)).status).to.equal(403);
      expect((await ops.post(`/rest/v2/server/ignored-caches/${name}`)).status).to.equal(403);
      expect((await ops.post(`/rest/v2/server/ignored-caches/default/${name}`)).status).to.equal(403);
      expect((await ops.get(`/rest/v2/caches/${name}/x-site/backups`)).status).to.equal(403);
      expect((await keeper.get(`/rest/v2/caches/${name}?action=config`)).status).to.equal(200);
    });

    it('leaves a cache ignored by an admin out of the ignore list of those who cannot see it', async () => {
      const name = await vault();
      expect((await admin.post(`/rest/v2/server/ignored-caches/${name}`)).status).to.equal(204);
      try {
        expect((await admin.get('/rest/v2/server/ignored-caches')).json()).to.include(name);
        expect((await ops.get('/rest/v2/server/ignored-caches')).json()).to.not.include(name);
      } finally {
        await admin.delete(`/rest/v2/server/ignored-caches/${name}`);
      }
    });

    it('refuses a backup that would read it, by name or as part of everything', async () => {
      const name = await vault();
      const named = await ops.post('/rest/v2/container/backups/ops-named', JSON.stringify({ resources: { caches: [name] } }), JSON_TYPE);
      expect(named.status).to.equal(403);
      expect((await ops.post('/rest/v2/container/backups/ops-all', '', JSON_TYPE)).status).to.equal(403);
      expect((await ops.head('/rest/v2/container/backups/ops-all')).status).to.equal(404);
      const open = fresh();
      await admin.createCache(open);
      const mine = await ops.post('/rest/v2/container/backups/ops-open', JSON.stringify({ resources: { caches: [open] } }), JSON_TYPE);
      expect(mine.status).to.equal(202);
      expect((await until(() => ops.head('/rest/v2/container/backups/ops-open'))).status).to.equal(200);
    });

    it('refuses a restore that would write into it, and writes nothing', async () => {
      const name = await vault();
      const done = await admin.post('/rest/v2/container/backups/with-vault', JSON.stringify({ resources: { caches: [name] } }), JSON_TYPE);
      expect(done.status).to.equal(202);
      expect((await until(() => admin.head('/rest/v2/container/backups/with-vault'))).status).to.equal(200);
      const zip = (await admin.get('/rest/v2/container/backups/with-vault')).bytes;
      expect((await admin.put(`/rest/v2/caches/${name}/k`, 'changed')).status).to.equal(204);
      const form = new FormData();
      form.append('backup', new Blob([zip]), 'with-vault.zip');
      const auth = 'Basic ' + Buffer.from('ops:ops-pw').toString('base64');
      const r = await fetch(`${server.url}/rest/v2/container/restores/ops-restore`, { method: 'POST', body: form, headers: { Authorization: auth } });
      expect(r.status).to.equal(202);
      expect((await until(() => ops.head('/rest/v2/container/restores/ops-restore'))).status).to.equal(500);
      expect((await admin.get(`/rest/v2/caches/${name}/k`)).text).to.equal('changed');
    });

    it('keeps admin tasks to the same rules: @@cache@remove refused, @@cache@names without it', async () => {
      const name = await vault();
      const remove = await ops.post(`/rest/v2/tasks/@@cache@remove?action=exec&param.name=${name}`);
      expect(remove.status).to.equal(403);
      expect((await admin.head(`/rest/v2/caches/${name}`)).status).to.equal(204);
      expect((await ops.post('/rest/v2/tasks/@@cache@names?action=exec')).json()).to.not.include(name);
      expect((await admin.post('/rest/v2/tasks/@@cache@names?action=exec')).json()).to.include(name);
    });

    it('sends its configuration events only to listeners with ADMIN on it', async () => {
      const name = await vault();
      const open = fresh();
      await admin.createCache(open);
      const headers = (user: string) => ({ Authorization: 'Basic ' + Buffer.from(`${user}:${user}-pw`).toString('base64'), Accept: 'application/json' });
      const url = `${server.url}/rest/v2/container/config?action=listen&includeCurrentState=true`;
      const opsStream = await SseReader.open(url, headers('ops'));
      const adminStream = await SseReader.open(url, headers('admin'));
      try {
        const { manager } = server.running.services;
        const count = manager.handles().length + manager.templateDefinitions().length;
        const secured = manager.handles().filter((h) => h.cache.settings.secured).length;
        const seenByAdmin = (await adminStream.next(count)).map((e) => e.data);
        expect(seenByAdmin.some((d) => d.includes(`"${name}"`))).to.equal(true);
        const seenByOps = (await opsStream.next(count - secured)).map((e) => e.data);
        expect(seenByOps.some((d) => d.includes(`"${open}"`))).to.equal(true);
        expect(seenByOps.some((d) => d.includes(`"${name}"`))).to.equal(false);
        // a change to the vault is not sent to ops; the next one it may see is
        expect((await admin.delete(`/rest/v2/caches/${name}`)).status).to.equal(200);
        const marker = fresh();
        await admin.createCache(marker);
        const next = await opsStream.next(1);
        expect(next[0].event).to.equal('create-cache');
        expect(next[0].data).to.contain(marker);
      } finally {
        opsStream.close();
        adminStream.close();
      }
    });
  });

  describe('PUT|POST|DELETE /rest/v2/caches/___protobuf_metadata/{name}.proto', () => {
    const schema = (name: string) => `/rest/v2/caches/___protobuf_metadata/${name}`;
    const proto = 'message Person { optional string name = 1; }';

    it('needs CREATE, as /rest/v2/schemas does: the application role is refused every write', async () => {
      const app = server.as('application');
      expect((await app.put(schema('app.proto'), proto)).status).to.equal(403);
      expect((await app.post(schema('app.proto'), proto)).status).to.equal(403);
      expect((await server.as('admin').get('/rest/v2/schemas')).json<Array<{ name: string }>>().map((x) => x.name)).to.not.include('app.proto');
      expect((await app.put('/rest/v2/schemas/app.proto', proto)).status).to.equal(403);
    });

    it('lets the deployer write and the application read; only CREATE deletes', async () => {
      const deployer = server.as('deployer');
      const app = server.as('application');
      expect((await deployer.put(schema('dep.proto'), proto)).status).to.equal(204);
      expect((await app.get(schema('dep.proto'))).text).to.equal(proto);
      expect((await app.put(schema('dep.proto'), 'message Evil {}')).status).to.equal(403);
      expect((await app.delete(schema('dep.proto'))).status).to.equal(403);
      expect((await app.get('/rest/v2/schemas/dep.proto')).text).to.equal(proto);
      expect((await deployer.delete(schema('dep.proto'))).status).to.equal(204);
      expect((await app.get('/rest/v2/schemas/dep.proto')).status).to.equal(404);
    });
  });

  describe('names of secured caches (CVE-2023-3628/3629 class)', () => {
    let name: string;
    let open: string;
    before(async () => {
      name = await vault();
      open = fresh();
      await admin.createCache(open);
    });

    it('GET /rest/v2/security/user/acl lists only caches the caller holds a permission on', async () => {
      const acl = (await server.as('observer').get('/rest/v2/security/user/acl')).json<{ caches: Record<string, string[]> }>();
      expect(acl.caches).to.have.property(open);
      expect(acl.caches).to.not.have.property(name);
      expect((await keeper.get('/rest/v2/security/user/acl')).json<{ caches: Record<string, string[]> }>().caches[name]).to.include('READ');
    });

    it('GET /rest/v2/container neither lists nor counts it', async () => {
      const seen = (await server.as('observer').get('/rest/v2/container')).json<{ defined_caches: Array<{ name: string }>; created_cache_count: number; cache_configuration_names: string[] }>();
      const all = (await admin.get('/rest/v2/container')).json<{ defined_caches: Array<{ name: string }>; created_cache_count: number }>();
      expect(seen.defined_caches.map((c) => c.name)).to.include(open).and.not.include(name);
      expect(seen.cache_configuration_names).to.not.include(name);
      expect(all.defined_caches.map((c) => c.name)).to.include(name);
      expect(seen.created_cache_count).to.be.below(all.created_cache_count);
    });

    it('GET /rest/v2/container/health leaves it out of cache_health', async () => {
      const health = (await server.as('monitor').get('/rest/v2/container/health')).json<{ cache_health: Array<{ cache_name: string }> }>();
      expect(health.cache_health.map((c) => c.cache_name)).to.include(open).and.not.include(name);
      const full = (await admin.get('/rest/v2/container/health')).json<{ cache_health: Array<{ cache_name: string }> }>();
      expect(full.cache_health.map((c) => c.cache_name)).to.include(name);
    });

    it('HEAD /rest/v2/caches/{cacheName} answers 404 to a caller who cannot see it, as for a missing cache', async () => {
      expect((await server.as('observer').head(`/rest/v2/caches/${name}`)).status).to.equal(404);
      expect((await server.as('observer').head('/rest/v2/caches/never-created')).status).to.equal(404);
      expect((await server.as('observer').head(`/rest/v2/caches/${open}`)).status).to.equal(204);
      expect((await keeper.head(`/rest/v2/caches/${name}`)).status).to.equal(204);
    });

    it('GET /metrics (anonymous) never names it', async () => {
      expect((await admin.get(`/rest/v2/caches/${name}/k`)).status).to.equal(200);
      const metrics = (await server.anonymous().get('/metrics')).text;
      expect(metrics).to.contain(`cache="${open}"`);
      expect(metrics).to.not.contain(name);
    });

    it("scripts' cacheManager.getCacheNames() and getCache() only see the caller's caches", async () => {
      const script = '// mode=local,language=javascript\ncacheManager.getCacheNames()';
      expect((await admin.put('/rest/v2/tasks/names', script)).status).to.equal(200);
      expect((await server.as('application').post('/rest/v2/tasks/names?action=exec')).json()).to.include(open).and.not.include(name);
      expect((await admin.post('/rest/v2/tasks/names?action=exec')).json()).to.include(name);
      const get = `// mode=local,language=javascript\ncacheManager.getCache("${name}").get("k")`;
      expect((await admin.put('/rest/v2/tasks/peek', get)).status).to.equal(200);
      const peek = await server.as('application').post('/rest/v2/tasks/peek?action=exec');
      expect(peek.text).to.not.contain('secret');
      expect(peek.text).to.not.contain('287');
      expect((await admin.post('/rest/v2/tasks/peek?action=exec')).json()).to.equal('secret');
      expect((await server.as('application').post(`/rest/v2/tasks/names?action=exec&cache=${name}`)).status).to.equal(404);
    });
  });
});

describe('principal names are not roles', () => {
  it('a user created by the CLI as `deployer` in group monitor gets monitor rights only', async () => {
    await withServer({}, async (server) => {
      // in a process of its own, as an operator runs it beside the server (which goes on serving meanwhile)
      const made = await grid(['user', 'create', 'deployer', '-p', 'other-pw', '-g', 'monitor', '--data', server.dataDir]);
      expect(made.code, made.stderr).to.equal(0);
      const user = new Client(server.url, { user: 'deployer', password: 'other-pw' });
      // the server looks for changes by other processes every 200 ms
      await eventually(async () => (await user.get('/rest/v2/container/stats')).status === 200, 10_000, 'the user made by the CLI to be seen');
      expect((await user.get('/rest/v2/container/stats')).status).to.equal(200);
      expect((await user.post('/rest/v2/caches/made-by-deployer')).status).to.equal(403);
      const acl = (await user.get('/rest/v2/security/user/acl')).json<{ subject: Array<{ name: string; type: string }>; global: string[] }>();
      expect(acl.subject.filter((p) => p.type === 'RolePrincipal').map((p) => p.name)).to.deep.equal(['monitor']);
      expect(acl.global).to.deep.equal(['MONITOR']);
      // an explicit grant to the user's name still maps it
      expect((await server.as('admin').put('/rest/v2/security/roles/deployer?action=grant&role=deployer')).status).to.equal(204);
      expect((await user.post('/rest/v2/caches/made-by-deployer')).status).to.equal(200);
    });
  });

  it('APP_USER=admin APP_ROLE=observer starts a server whose admin user is an observer', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'grid-authz-'));
    const proc = await spawnServer(['--data', dataDir], { APP_USER: 'admin', APP_PASS: 'pw-for-admin', APP_ROLE: 'observer' });
    try {
      const user = new Client(proc.url, { user: 'admin', password: 'pw-for-admin' });
      expect((await user.get('/rest/v2/caches')).status).to.equal(200);
      expect((await user.post('/rest/v2/caches/by-name-admin')).status).to.equal(403);
      expect((await user.get('/rest/v2/security/roles')).status).to.equal(403);
      expect((await user.get('/rest/v2/security/user/acl')).json<{ global: string[] }>().global).to.not.include('ALL');
    } finally {
      proc.child.kill('SIGTERM');
      await waitForExit(proc.child);
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

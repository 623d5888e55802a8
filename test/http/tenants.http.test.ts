import { expect } from 'chai';
import { chmodSync, existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '../support/client';
import { until } from '../support/poll';
import { useServer, withServer } from '../support/server';
import { SseReader } from '../support/sse';

const JSON_TYPE = { 'Content-Type': 'application/json' };
const TENANTS = [{ name: 't1' }, { name: 't2' }];
const PERSISTENT = { 'local-cache': { persistence: { 'file-store': {} } } };

const basic = (user: string, password = `${user}-pw`) => ({ Authorization: 'Basic ' + Buffer.from(`${user}:${password}`).toString('base64') });

/** Creates a cache under a prefix (`/rest` for the default container, `/rest/t1` for tenant t1). */
async function createCache(client: Client, prefix: string, name: string, config: unknown = { 'local-cache': {} }): Promise<void> {
  const r = await client.post(`${prefix}/v2/caches/${name}`, JSON.stringify(config), JSON_TYPE);
  expect(r.status, `${prefix} ${name}: ${r.text}`).to.equal(200);
}

describe('tenants: /rest/<tenant>/… reaches the tenant\'s container', () => {
  const server = useServer({ tenants: TENANTS });
  const admin = server.as('admin');

  before(async () => {
    for (const prefix of ['/rest', '/rest/t1', '/rest/t2']) await createCache(admin, prefix, 'shared');
  });

  describe('PUT|GET /rest/<tenant>/v2/caches/{cache}/{key} and /rest/<tenant>/{cache}/{key}', () => {
    it('the same cache name holds different data in each tenant and in the default container', async () => {
      for (const [prefix, value] of [['/rest', 'default-value'], ['/rest/t1', 't1-value'], ['/rest/t2', 't2-value']]) {
        expect((await admin.put(`${prefix}/v2/caches/shared/k`, value)).status).to.equal(204);
      }
      expect((await admin.get('/rest/v2/caches/shared/k')).text).to.equal('default-value');
      expect((await admin.get('/rest/t1/v2/caches/shared/k')).text).to.equal('t1-value');
      expect((await admin.get('/rest/t2/v2/caches/shared/k')).text).to.equal('t2-value');
      // the v1 rules beneath the prefix: /rest/<tenant>/<cache>/<key>
      expect((await admin.get('/rest/t1/shared/k')).text).to.equal('t1-value');
      expect((await admin.get('/rest/shared/k')).text).to.equal('default-value');
    });

    it('a v1 write in one tenant is seen by that tenant only', async () => {
      expect((await admin.put('/rest/t2/shared/v1-key', 'from-v1')).status).to.equal(204);
      expect((await admin.get('/rest/t2/v2/caches/shared/v1-key')).text).to.equal('from-v1');
      expect((await admin.get('/rest/t1/v2/caches/shared/v1-key')).status).to.equal(404);
      expect((await admin.get('/rest/v2/caches/shared/v1-key')).status).to.equal(404);
    });

    it('a cache of one tenant is unknown to the others (404 ISPN012010)', async () => {
      await createCache(admin, '/rest/t1', 'only-t1');
      expect((await admin.put('/rest/t1/v2/caches/only-t1/k', 'v')).status).to.equal(204);
      const r = await admin.get('/rest/t2/v2/caches/only-t1/k');
      expect(r.status).to.equal(404);
      expect(r.text).to.equal("ISPN012010: Cache with name 'only-t1' not found amongst the configured caches");
      expect((await admin.get('/rest/only-t1/k')).status).to.equal(404);
    });
  });

  describe('GET /rest/<tenant>/v2/caches', () => {
    it('lists the tenant\'s caches only', async () => {
      await createCache(admin, '/rest/t2', 'only-t2');
      const t2 = (await admin.get('/rest/t2/v2/caches')).json<string[]>();
      expect(t2).to.include.members(['shared', 'only-t2']);
      expect(t2).to.not.include('only-t1');
      const byDefault = (await admin.get('/rest/v2/caches')).json<string[]>();
      expect(byDefault).to.include('shared');
      expect(byDefault).to.not.include.members(['only-t1']);
      expect(byDefault).to.not.include('only-t2');
    });
  });

  describe('/rest/<tenant>/v2/schemas/{name}', () => {
    it('a schema of one tenant is not in another, and the same name holds each tenant\'s text', async () => {
      expect((await admin.post('/rest/t1/v2/schemas/person.proto', 'message Person { string name = 1; }')).status).to.equal(201);
      expect((await admin.post('/rest/t2/v2/schemas/person.proto', 'message Person { int32 id = 1; }')).status).to.equal(201);
      expect((await admin.get('/rest/t1/v2/schemas/person.proto')).text).to.contain('string name');
      expect((await admin.get('/rest/t2/v2/schemas/person.proto')).text).to.contain('int32 id');
      expect((await admin.get('/rest/v2/schemas/person.proto')).status).to.equal(404);
      expect((await admin.get('/rest/v2/schemas')).json()).to.deep.equal([]);
    });
  });

  describe('/rest/<tenant>/v2/counters/{name}', () => {
    it('counters of the same name count apart in each tenant', async () => {
      for (const prefix of ['/rest/t1', '/rest/t2']) {
        expect((await admin.post(`${prefix}/v2/counters/hits`, '{"strong-counter":{"initial-value":0}}', JSON_TYPE)).status).to.equal(200);
      }
      for (let i = 0; i < 3; i++) await admin.post('/rest/t1/v2/counters/hits?action=increment');
      expect((await admin.get('/rest/t1/v2/counters/hits')).text).to.equal('3');
      expect((await admin.get('/rest/t2/v2/counters/hits')).text).to.equal('0');
      expect((await admin.get('/rest/v2/counters/hits')).status).to.equal(404);
      expect((await admin.get('/rest/v2/counters')).json()).to.not.include('hits');
    });
  });

  describe('/rest/<tenant>/v2/tasks/{name}', () => {
    it('a task is the tenant\'s own and sees the tenant\'s caches', async () => {
      const script = '// mode=local,language=javascript\ncacheManager.getCache("shared").get("k")';
      expect((await admin.put('/rest/t1/v2/tasks/peek', script)).status).to.equal(200);
      expect((await admin.post('/rest/t1/v2/tasks/peek?action=exec')).json()).to.equal('t1-value');
      const unknown = await admin.post('/rest/t2/v2/tasks/peek?action=exec');
      expect(unknown.status).to.equal(400);
      expect(unknown.text).to.equal("ISPN027002: Unknown task 'peek'");
      const names = (await admin.get('/rest/t2/v2/tasks')).json<Array<{ name: string }>>().map((t) => t.name);
      expect(names).to.not.include('peek');
    });
  });

  describe('GET /rest/<tenant>/v2/container?action=listen', () => {
    it('tells a tenant\'s listener of its own configuration changes only', async () => {
      const sse = await SseReader.open(`${server.url}/rest/t1/v2/container/config?action=listen`, { ...basic('admin'), Accept: 'application/json' });
      try {
        await createCache(admin, '/rest/t2', 'event-t2');
        await createCache(admin, '/rest', 'event-default');
        await createCache(admin, '/rest/t1', 'event-t1');
        const [event] = await sse.next(1);
        expect(event.event).to.equal('create-cache');
        expect(event.data).to.contain('event-t1');
      } finally {
        sse.close();
      }
    });

    it('tells an entry listener of a tenant\'s cache of that cache\'s writes only', async () => {
      const sse = await SseReader.open(`${server.url}/rest/t2/v2/caches/shared?action=listen`, basic('admin'));
      try {
        await admin.put('/rest/t1/v2/caches/shared/heard-nowhere', 'x');
        await admin.put('/rest/v2/caches/shared/heard-nowhere', 'x');
        await admin.put('/rest/t2/v2/caches/shared/heard', 'x');
        expect(await sse.next(1)).to.deep.equal([{ event: 'cache-entry-created', data: 'heard' }]);
      } finally {
        sse.close();
      }
    });
  });

  describe('POST /rest/<tenant>/v2/container?action=shutdown', () => {
    it('ends that tenant\'s event streams only; the other containers\' streams keep delivering', async () => {
      await withServer({ tenants: TENANTS }, async (own) => {
        const a = own.as('admin');
        for (const prefix of ['/rest', '/rest/t1', '/rest/t2']) await createCache(a, prefix, 'watched');
        const t1Entries = await SseReader.open(`${own.url}/rest/t1/v2/caches/watched?action=listen`, basic('admin'));
        const t1Config = await SseReader.open(`${own.url}/rest/t1/v2/container/config?action=listen`, basic('admin'));
        const t2Entries = await SseReader.open(`${own.url}/rest/t2/v2/caches/watched?action=listen`, basic('admin'));
        const defaultEntries = await SseReader.open(`${own.url}/rest/v2/caches/watched?action=listen`, basic('admin'));
        expect((await a.post('/rest/t1/v2/container?action=shutdown')).status).to.equal(204);
        expect(await t1Entries.ending()).to.equal('end');
        expect(await t1Config.ending()).to.equal('end');
        await a.put('/rest/t2/v2/caches/watched/after', 'x');
        await a.put('/rest/v2/caches/watched/after', 'x');
        expect(await t2Entries.next(1)).to.deep.equal([{ event: 'cache-entry-created', data: 'after' }]);
        expect(await defaultEntries.next(1)).to.deep.equal([{ event: 'cache-entry-created', data: 'after' }]);
        t2Entries.close();
        defaultEntries.close();
      });
    });
  });

  describe('GET /rest/<tenant>/v2/container, /stats, /cache-managers/{name}', () => {
    it('names the container after the tenant and counts its caches only', async () => {
      const t1 = (await admin.get('/rest/t1/v2/container')).json<{ name: string; defined_caches: Array<{ name: string }> }>();
      expect(t1.name).to.equal('t1');
      expect(t1.defined_caches.map((c) => c.name)).to.include('only-t1').and.not.include('only-t2');
      expect((await admin.get('/rest/v2/container')).json<{ name: string }>().name).to.equal('default');
    });

    it('answers the deprecated cache-managers form for the tenant\'s own name only', async () => {
      expect((await admin.get('/rest/t1/v2/cache-managers/t1')).status).to.equal(200);
      expect((await admin.get('/rest/t1/v2/cache-managers/default')).status).to.equal(404);
      expect((await admin.get('/rest/t1/v2/cache-managers/t2')).status).to.equal(404);
      expect((await admin.get('/rest/v2/cache-managers/t1')).status).to.equal(404);
    });

    it('keeps statistics apart: reads in one tenant do not count in another', async () => {
      await admin.post('/rest/t2/v2/container/stats?action=reset');
      const before = (await admin.get('/rest/t2/v2/container/stats')).json<{ retrievals: number }>();
      for (let i = 0; i < 5; i++) await admin.get('/rest/t1/v2/caches/shared/k');
      const after = (await admin.get('/rest/t2/v2/container/stats')).json<{ retrievals: number }>();
      expect(after.retrievals).to.equal(before.retrievals);
      const t1 = (await admin.get('/rest/t1/v2/container/stats')).json<{ retrievals: number }>();
      expect(t1.retrievals).to.be.at.least(5);
    });
  });

  describe('GET /metrics', () => {
    it('names the default container\'s caches and no tenant\'s', async () => {
      const text = (await server.anonymous().get('/metrics')).text;
      expect(text).to.contain('cache="shared"');
      expect(text).to.not.contain('only-t1');
      expect(text).to.not.contain('only-t2');
    });
  });

  describe('the process\'s own resources under a tenant prefix', () => {
    for (const path of ['/v2/server', '/v2/server/config', '/v2/logging/loggers', '/v2/cluster/members', '/v2/server/report']) {
      it(`GET /rest/t1${path} is 404 (server, logging and cluster belong to the process)`, async () => {
        const r = await admin.get(`/rest/t1${path}`);
        expect(r.status).to.equal(404);
        expect(r.text).to.equal('Resource not found');
        expect((await admin.head(`/rest${path}`)).status).to.not.equal(404);
      });
    }

    it('POST /rest/t1/v2/server?action=stop is 404 and the server keeps serving', async () => {
      expect((await admin.post('/rest/t1/v2/server?action=stop')).status).to.equal(404);
      expect((await admin.get('/rest/t1/v2/caches/shared/k')).status).to.equal(200);
    });

    it('the ignore list is the tenant\'s: ignoring t1\'s cache leaves the others served', async () => {
      expect((await admin.post('/rest/t1/v2/server/ignored-caches/shared')).status).to.equal(204);
      try {
        expect((await admin.get('/rest/t1/v2/caches/shared/k')).status).to.equal(503);
        expect((await admin.get('/rest/t1/v2/server/ignored-caches')).json()).to.deep.equal(['shared']);
        expect((await admin.get('/rest/v2/server/ignored-caches')).json()).to.deep.equal([]);
        expect((await admin.get('/rest/t2/v2/caches/shared/k')).status).to.equal(200);
      } finally {
        await admin.delete('/rest/t1/v2/server/ignored-caches/shared');
      }
    });
  });

  describe('a segment after /rest/ that names no tenant', () => {
    it('is read by the v1 rules: /rest/<cache>/<key> of the default container (404 for an unknown cache)', async () => {
      const r = await admin.get('/rest/t9/k');
      expect(r.status).to.equal(404);
      expect(r.text).to.equal("ISPN012010: Cache with name 't9' not found amongst the configured caches");
      expect((await admin.get('/rest/t9/v2/caches')).status).to.equal(404);
    });

    it('is compared with its case: /rest/T1/… is not tenant t1', async () => {
      const r = await admin.get('/rest/T1/shared');
      expect(r.status).to.equal(404);
      expect(r.text).to.contain("'T1'");
    });

    it('a tenant path without anything after it is no resource (404)', async () => {
      expect((await admin.get('/rest/t1')).status).to.equal(404);
      expect((await admin.get('/rest/t1/')).status).to.equal(404);
    });

    describe('tells a caller without credentials nothing about which names are tenants', () => {
      const PATHS = [
        '', '/', '/v2', '/v2/caches', '/v2/caches/shared', '/v2/caches/shared/k', '/v2/container', '/v2/container/health/status',
        '/v2/login?action=config', '/v2/server', '/v2/counters', '/shared', '/shared/k', '/v2/nothing/at/all', '/v2/caches/shared?action=frob',
      ];
      const answer = async (path: string, method: string, headers: Record<string, string>) => {
        const r = await fetch(`${server.url}${path}`, { method, headers });
        return { status: r.status, body: await r.text(), challenged: r.headers.has('www-authenticate'), allow: r.headers.get('allow') };
      };

      for (const method of ['GET', 'PUT', 'DELETE']) {
        it(`${method}: /rest/t1/… (a tenant) and /rest/t9/… (none) get the same answers, with no or wrong credentials`, async () => {
          for (const headers of [{}, basic('admin', 'wrong'), basic('nobody', 'x')]) {
            for (const rest of PATHS) {
              const known = await answer(`/rest/t1${rest}`, method, headers);
              const unknown = await answer(`/rest/t9${rest}`, method, headers);
              expect(unknown, `${method} ${rest} ${JSON.stringify(headers)}`).to.deep.equal(known);
            }
          }
        });
      }

      it("answers 404 under a name that is no tenant once the caller has the default container's credentials", async () => {
        expect((await admin.get('/rest/t9/v2/caches')).status).to.equal(404);
        expect((await server.anonymous().get('/rest/t9/v2/caches')).status).to.equal(401);
      });
    });
  });

  describe('POST /rest/v2/caches/{name} named like a tenant', () => {
    it('is refused with 400 in the default container, as is such an alias; nothing is created', async () => {
      const r = await admin.post('/rest/v2/caches/t1', '{"local-cache":{}}', JSON_TYPE);
      expect(r.status).to.equal(400);
      expect(r.text).to.equal("Cache name 't1' is reserved: it is the name of a tenant of this server, so /rest/t1/… reaches that tenant's container, not a cache");
      expect((await admin.get('/rest/v2/caches')).json()).to.not.include('t1');
      const aliased = await admin.post('/rest/v2/caches/aliased', '{"local-cache":{"aliases":["t2"]}}', JSON_TYPE);
      expect(aliased.status).to.equal(400);
      expect((await admin.head('/rest/v2/caches/aliased')).status).to.equal(404);
      expect((await admin.post('/rest/v2/caches/shared?action=assign-alias&alias=t2')).status).to.equal(400);
    });

    it('is allowed inside a tenant, whose v1 paths take one prefix: /rest/t1/t2/k is cache t2 of t1', async () => {
      await createCache(admin, '/rest/t1', 't2');
      expect((await admin.put('/rest/t1/t2/k', 'inner')).status).to.equal(204);
      expect((await admin.get('/rest/t1/v2/caches/t2/k')).text).to.equal('inner');
    });
  });

  describe('authentication and authorization per tenant', () => {
    before(async () => {
      await server.running.tenants.get('t1')!.users.upsert('alice', 'alice-pw', ['admin']);
    });

    it('a user of one tenant is unknown to the other tenants and to the default container (401)', async () => {
      const alice = new Client(server.url, { user: 'alice', password: 'alice-pw' });
      expect((await alice.get('/rest/t1/v2/caches/shared/k')).status).to.equal(200);
      expect((await alice.get('/rest/t2/v2/caches/shared/k')).status).to.equal(401);
      expect((await alice.get('/rest/v2/caches/shared/k')).status).to.equal(401);
      expect((await alice.get('/rest/v2/server')).status).to.equal(401);
    });

    it('lists a tenant\'s users only (GET /rest/<tenant>/v2/security/users)', async () => {
      expect((await admin.get('/rest/t1/v2/security/users')).json<{ default: string[] }>().default).to.include('alice');
      expect((await admin.get('/rest/t2/v2/security/users')).json<{ default: string[] }>().default).to.not.include('alice');
    });

    it('roles and principal mappings are the tenant\'s own', async () => {
      expect((await admin.post('/rest/t1/v2/security/permissions/reader-t1?permission=ALL_READ')).status).to.equal(204);
      expect((await admin.get('/rest/t1/v2/security/permissions/reader-t1')).status).to.equal(200);
      expect((await admin.get('/rest/t2/v2/security/permissions/reader-t1')).status).to.equal(404);
      expect((await admin.get('/rest/v2/security/permissions/reader-t1')).status).to.equal(404);
    });

    it('a role holds in its own tenant: observer of t2 reads there and cannot write', async () => {
      const observer = server.as('observer');
      expect((await observer.get('/rest/t2/v2/caches/shared/k')).status).to.equal(200);
      expect((await observer.put('/rest/t2/v2/caches/shared/k', 'no')).status).to.equal(403);
    });

    it('the ACL names the tenant\'s caches only', async () => {
      const acl = (await admin.get('/rest/t2/v2/security/user/acl')).json<{ caches: Record<string, unknown> }>();
      expect(Object.keys(acl.caches)).to.include('only-t2').and.not.include('only-t1');
    });

    it("every row of a tenant asks for credentials, the health probe and the login configuration too; the tenant's users get them", async () => {
      const anonymous = server.anonymous();
      for (const path of ['/rest/t1/v2/container/health/status', '/rest/t1/v2/login?action=config', '/rest/t1/v2/caches']) {
        expect((await anonymous.get(path)).status, path).to.equal(401);
      }
      expect((await server.as('monitor').get('/rest/t1/v2/container/health/status')).text).to.equal('HEALTHY');
      expect((await server.as('observer').get('/rest/t1/v2/login?action=config')).status).to.equal(200);
      // the process-wide probes stay anonymous
      expect((await anonymous.get('/rest/v2/container/health/status')).text).to.equal('HEALTHY');
    });
  });

  describe('POST /rest/<tenant>/v2/container/restores/{name}', () => {
    let archive: Buffer;

    before(async () => {
      await createCache(admin, '/rest/t1', 'to-restore');
      await admin.put('/rest/t1/v2/caches/to-restore/a', 'from-t1');
      expect((await admin.post('/rest/t1/v2/container/backups/b1', '{}', JSON_TYPE)).status).to.equal(202);
      expect((await until(() => admin.head('/rest/t1/v2/container/backups/b1'))).status).to.equal(200);
      const r = await admin.get('/rest/t1/v2/container/backups/b1');
      expect(r.status).to.equal(200);
      archive = r.bytes;
    });

    const upload = (prefix: string, name: string) => {
      const form = new FormData();
      form.append('backup', new Blob([archive], { type: 'application/zip' }), 'b1.zip');
      return fetch(`${server.url}${prefix}/v2/container/restores/${name}`, { method: 'POST', body: form, headers: basic('admin') });
    };

    it('keeps a tenant\'s backups in its own directory and lists them in that tenant only', async () => {
      expect(existsSync(join(server.dataDir, 'tenants', 't1', 'backups', 'b1', 'b1.zip'))).to.equal(true);
      expect((await admin.get('/rest/t1/v2/container/backups')).json()).to.deep.equal(['b1']);
      expect((await admin.get('/rest/t2/v2/container/backups')).json()).to.deep.equal([]);
      expect((await admin.head('/rest/t2/v2/container/backups/b1')).status).to.equal(404);
    });

    it('refuses a backup of t1 in t2 and in the default container (the archive\'s container is t1): FAILED, nothing restored', async () => {
      for (const prefix of ['/rest/t2', '/rest']) {
        expect((await upload(prefix, 'from-t1')).status).to.equal(202);
        const r = await until(() => admin.head(`${prefix}/v2/container/restores/from-t1`));
        expect(r.status, prefix).to.equal(500);
        expect((await admin.head(`${prefix}/v2/caches/to-restore`)).status, prefix).to.equal(404);
      }
    });

    it('restores it into t1 itself', async () => {
      expect((await admin.delete('/rest/t1/v2/caches/to-restore')).status).to.equal(200);
      expect((await upload('/rest/t1', 'back')).status).to.equal(202);
      expect((await until(() => admin.head('/rest/t1/v2/container/restores/back'))).status).to.equal(201);
      expect((await admin.get('/rest/t1/v2/caches/to-restore/a')).text).to.equal('from-t1');
    });
  });
});

describe('POST /rest/<tenant>/v2/container?action=shutdown', () => {
  it('stops that tenant\'s container only: its resources answer 503, the others keep serving', async () => {
    await withServer({ tenants: TENANTS }, async (server) => {
      const admin = server.as('admin');
      for (const prefix of ['/rest', '/rest/t1', '/rest/t2']) await createCache(admin, prefix, 'c');
      expect((await admin.post('/rest/t1/v2/container?action=shutdown')).status).to.equal(204);
      const stopped = await admin.get('/rest/t1/v2/caches/c/k');
      expect(stopped.status).to.equal(503);
      expect(stopped.text).to.equal('Unable to process REST request when Server is STOPPING');
      expect((await admin.put('/rest/t2/v2/caches/c/k', 'v')).status).to.equal(204);
      expect((await admin.put('/rest/v2/caches/c/k', 'v')).status).to.equal(204);
      expect((await server.anonymous().get('/health/ready')).status).to.equal(200);
    });
  });
});

describe('POST /rest/v2/container/restores/{name} of a cache named like a tenant', () => {
  it('fails in the default container (the name is reserved) and restores nothing of it', async () => {
    const archive = await withServer({}, async (source) => {
      const admin = source.as('admin');
      await createCache(admin, '/rest', 'tx');
      expect((await admin.post('/rest/v2/container/backups/with-tx', '{}', JSON_TYPE)).status).to.equal(202);
      expect((await until(() => admin.head('/rest/v2/container/backups/with-tx'))).status).to.equal(200);
      return (await admin.get('/rest/v2/container/backups/with-tx')).bytes;
    });
    await withServer({ tenants: [{ name: 'tx' }] }, async (target) => {
      const form = new FormData();
      form.append('backup', new Blob([archive], { type: 'application/zip' }), 'with-tx.zip');
      const r = await fetch(`${target.url}/rest/v2/container/restores/r`, { method: 'POST', body: form, headers: basic('admin') });
      expect(r.status).to.equal(202);
      expect((await until(() => target.as('admin').head('/rest/v2/container/restores/r'))).status).to.equal(500);
      expect((await target.as('admin').get('/rest/v2/caches')).json()).to.not.include('tx');
    });
  });
});

describe('tenants across a restart', function () {
  this.timeout(60_000);

  it('keeps each tenant\'s caches, entries, schemas, counters, tasks and users', async () => {
    await withServer({ tenants: TENANTS }, async (server) => {
      const admin = server.as('admin');
      for (const [prefix, value] of [['/rest', 'd'], ['/rest/t1', 'one'], ['/rest/t2', 'two']]) {
        await createCache(admin, prefix, 'durable', PERSISTENT);
        expect((await admin.put(`${prefix}/v2/caches/durable/k`, value)).status).to.equal(204);
      }
      expect((await admin.post('/rest/t1/v2/schemas/kept.proto', 'message Kept { string a = 1; }')).status).to.equal(201);
      expect((await admin.post('/rest/t2/v2/counters/kept', '{"strong-counter":{"initial-value":7,"storage":"PERSISTENT"}}', JSON_TYPE)).status).to.equal(200);
      expect((await admin.put('/rest/t2/v2/tasks/kept', '// mode=local,language=javascript\n"kept"')).status).to.equal(200);
      await server.running.tenants.get('t2')!.users.upsert('bob', 'bob-pw', ['admin']);
      await server.restart();

      const again = server.as('admin');
      expect((await again.get('/rest/v2/caches/durable/k')).text).to.equal('d');
      expect((await again.get('/rest/t1/v2/caches/durable/k')).text).to.equal('one');
      expect((await again.get('/rest/t2/durable/k')).text).to.equal('two');
      expect((await again.get('/rest/t1/v2/schemas/kept.proto')).text).to.contain('message Kept');
      expect((await again.get('/rest/t2/v2/schemas/kept.proto')).status).to.equal(404);
      expect((await again.get('/rest/t2/v2/counters/kept')).text).to.equal('7');
      expect((await again.post('/rest/t2/v2/tasks/kept?action=exec')).json()).to.equal('kept');
      const bob = server.as('bob');
      expect((await bob.get('/rest/t2/v2/caches/durable/k')).text).to.equal('two');
      expect((await bob.get('/rest/t1/v2/caches/durable/k')).status).to.equal(401);
    });
  });
});

describe('files of a tenant', () => {
  const modeOf = (path: string): number => statSync(path).mode & 0o777;
  const under = (root: string): string[] => readdirSync(root, { recursive: true, encoding: 'utf8' }).map((p) => join(root, p));

  it('are readable by grid\'s user only, also with a permissive umask, and are narrowed again at start', async () => {
    const previous = process.umask(0);
    try {
      await withServer({ tenants: TENANTS }, async (server) => {
        const { dataDir } = server;
        const admin = server.as('admin');
        await createCache(admin, '/rest/t1', 'c', PERSISTENT);
        expect((await admin.put('/rest/t1/v2/caches/c/k', 'v')).status).to.equal(204);
        expect((await admin.post('/rest/t1/v2/container/backups/b', '{}', JSON_TYPE)).status).to.equal(202);
        expect((await until(() => admin.head('/rest/t1/v2/container/backups/b'))).status).to.equal(200);
        const t1 = join(dataDir, 'tenants', 't1');
        expect(existsSync(join(t1, 'credentials.key'))).to.equal(true);
        for (const path of [join(dataDir, 'tenants'), t1, ...under(t1)]) {
          expect(modeOf(path) & 0o077, `${path} ${modeOf(path).toString(8)}`).to.equal(0);
        }
        await server.stop();

        chmodSync(join(t1, 'grid.db'), 0o644);
        chmodSync(t1, 0o755);
        await server.start();
        expect(modeOf(join(t1, 'grid.db'))).to.equal(0o600);
        expect(modeOf(t1)).to.equal(0o700);
        expect((await server.as('admin').get('/rest/t1/v2/caches/c/k')).text).to.equal('v');
      });
    } finally {
      process.umask(previous);
    }
  });
});

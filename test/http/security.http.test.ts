import { expect } from 'chai';
import { Client } from '../support/client';
import { useServer, withServer } from '../support/server';

describe('security /rest/v2/security and /rest/v2/login', () => {
  const server = useServer();
  const admin = server.as('admin');

  before(async () => {
    await admin.createCache('open');
    await admin.createCache('locked', { 'local-cache': { security: { authorization: { roles: ['admin'] } } } });
  });

  it('GET /login?action=config answers anonymously', async () => {
    const r = await server.anonymous().get('/rest/v2/login?action=config');
    expect(r.status).to.equal(200);
    // the original's shape: one "<MECHANISM>": "true" per mechanism; the web console reads DIGEST
    expect(r.json()).to.deep.equal({ mode: 'HTTP', DIGEST: 'true', 'DIGEST-SHA-256': 'true', BASIC: 'true', ready: 'true' });
  });

  it('GET /login?action=config without authentication has only mode and ready (the console then skips its login)', async () => {
    await withServer({ authEnabled: false }, async (open) => {
      expect((await open.anonymous().get('/rest/v2/login?action=config')).json()).to.deep.equal({ mode: 'HTTP', ready: 'true' });
    });
  });

  it('GET /security/user/acl lists the subject, global and per-cache permissions of the caller', async () => {
    const acl = (await server.as('observer').get('/rest/v2/security/user/acl')).json<{ subject: unknown[]; global: string[]; caches: Record<string, string[]> }>();
    expect(acl.subject).to.deep.include({ name: 'observer', type: 'NamePrincipal' });
    expect(acl.global).to.include.members(['READ', 'BULK_READ', 'MONITOR', 'ALL_READ']);
    expect(acl.global).to.not.include('WRITE');
    expect(acl.caches.open).to.include('READ');
    expect(acl.caches).to.not.have.property('locked'); // no permission on it: not even named
    expect((await admin.get('/rest/v2/security/user/acl')).json<{ global: string[] }>().global).to.include('ALL');
  });

  it('POST /security/cache?action=flush answers 204 (ADMIN)', async () => {
    expect((await admin.post('/rest/v2/security/cache?action=flush')).status).to.equal(204);
    expect((await server.as('deployer').post('/rest/v2/security/cache?action=flush')).status).to.equal(403);
  });

  it('lists and describes roles (ADMIN)', async () => {
    expect((await admin.get('/rest/v2/security/roles')).json()).to.include.members(['admin', 'application', 'deployer', 'monitor', 'observer']);
    const detailed = (await admin.get('/rest/v2/security/roles?action=detailed')).json<Record<string, { permissions: string[]; implicit: boolean }>>();
    expect(detailed.observer).to.include({ implicit: true });
    expect(detailed.observer.permissions).to.deep.equal(['ALL_READ', 'MONITOR']);
    expect((await server.as('monitor').get('/rest/v2/security/roles')).status).to.equal(403);
  });

  it('creates, describes, updates and deletes a role, used by authorization at once', async () => {
    const create = await admin.post('/rest/v2/security/permissions/reader?permission=READ&permission=BULK_READ', 'reads only');
    expect(create.status).to.equal(204);
    expect((await admin.post('/rest/v2/security/permissions/reader?permission=READ')).status).to.equal(409);
    expect((await admin.post('/rest/v2/security/permissions/nothing')).status).to.equal(400);
    expect((await admin.post('/rest/v2/security/permissions/bad?permission=FLY')).status).to.equal(400);
    expect((await admin.get('/rest/v2/security/permissions/reader')).json()).to.deep.equal({
      name: 'reader', inheritable: true, permissions: ['READ', 'BULK_READ'], implicit: false, description: 'reads only',
    });
    expect((await admin.put('/rest/v2/security/permissions/admin?permission=READ')).status).to.equal(400);
    expect((await admin.put('/rest/v2/security/permissions/ghost?permission=READ')).status).to.equal(404);

    // a user of group "team" gets the role through a grant, at once
    await server.running.services.users.upsert('dora', 'dora-pw', ['monitor']);
    const dora = new Client(server.url, { user: 'dora', password: 'dora-pw' });
    await admin.put('/rest/v2/caches/open/k', 'v');
    expect((await dora.get('/rest/v2/caches/open/k')).status).to.equal(403);
    expect((await admin.put('/rest/v2/security/roles/dora?action=grant&role=reader')).status).to.equal(204);
    expect((await admin.get('/rest/v2/security/roles/dora')).json()).to.deep.equal(['reader']);
    expect((await dora.get('/rest/v2/caches/open/k')).status).to.equal(200);
    expect((await dora.put('/rest/v2/caches/open/k', 'x')).status).to.equal(403);
    expect((await admin.put('/rest/v2/security/roles/dora?action=deny&role=reader')).status).to.equal(204);
    expect((await dora.get('/rest/v2/caches/open/k')).status).to.equal(403);

    expect((await admin.put('/rest/v2/security/permissions/reader?permission=ALL_READ&permission=WRITE')).status).to.equal(204);
    expect((await admin.delete('/rest/v2/security/permissions/reader')).status).to.equal(204);
    expect((await admin.get('/rest/v2/security/permissions/reader')).status).to.equal(404);
  });

  it('updates only what PUT names: without permission the permissions stay, with an empty body the description stays', async () => {
    expect((await admin.post('/rest/v2/security/permissions/keeper?permission=READ&permission=MONITOR', 'keeps things')).status).to.equal(204);
    const describe = async () => (await admin.get('/rest/v2/security/permissions/keeper')).json<{ permissions: string[]; description: string }>();
    expect((await admin.put('/rest/v2/security/permissions/keeper', 'keeps more things')).status).to.equal(204);
    expect(await describe()).to.include({ description: 'keeps more things' }).and.deep.include({ permissions: ['READ', 'MONITOR'] });
    expect((await admin.put('/rest/v2/security/permissions/keeper?permission=WRITE')).status).to.equal(204);
    expect(await describe()).to.include({ description: 'keeps more things' }).and.deep.include({ permissions: ['WRITE'] });
    expect((await admin.put('/rest/v2/security/permissions/keeper?permission=FLY')).status).to.equal(400);
    expect((await admin.put('/rest/v2/security/permissions/ghost')).status).to.equal(404);
    expect((await server.as('deployer').put('/rest/v2/security/permissions/keeper', 'mine')).status).to.equal(403);
    expect(await describe()).to.include({ description: 'keeps more things' }).and.deep.include({ permissions: ['WRITE'] });
  });

  it('gives a user of a group named like a custom role that role, and a group with a grant the granted role', async () => {
    expect((await admin.post('/rest/v2/security/permissions/writer?permission=WRITE')).status).to.equal(204);
    await server.running.services.users.upsert('wendy', 'wendy-pw', ['writer']);
    await server.running.services.users.upsert('gus', 'gus-pw', ['crew']);
    const wendy = new Client(server.url, { user: 'wendy', password: 'wendy-pw' });
    const gus = new Client(server.url, { user: 'gus', password: 'gus-pw' });
    expect((await wendy.put('/rest/v2/caches/open/w', 'v')).status).to.equal(204);
    expect((await wendy.get('/rest/v2/caches/open/w')).status).to.equal(403);
    expect((await gus.get('/rest/v2/caches/open/w')).status).to.equal(403);
    expect((await admin.put('/rest/v2/security/roles/crew?action=grant&role=observer')).status).to.equal(204);
    expect((await gus.get('/rest/v2/caches/open/w')).status).to.equal(200);
  });

  it('grants with POST only to a principal without a mapping, lists principals, and revokes everything with DELETE', async () => {
    expect((await admin.post('/rest/v2/security/roles/team?action=grant&role=observer')).status).to.equal(204);
    expect((await admin.post('/rest/v2/security/roles/team?action=grant&role=monitor')).status).to.equal(409);
    expect((await admin.put('/rest/v2/security/roles/team?action=grant')).status).to.equal(400);
    expect((await admin.get('/rest/v2/security/principals')).json()).to.include('team');
    expect((await admin.get('/rest/v2/security/principals?action=detailed')).json()).to.deep.include({ team: ['observer'] });
    expect((await admin.delete('/rest/v2/security/roles/team?action=grant')).status).to.equal(204);
    // an unmapped principal: the role mapper's answer is the principal's own name, as in the original
    expect((await admin.get('/rest/v2/security/roles/team')).json()).to.deep.equal(['team']);
    expect((await admin.get('/rest/v2/security/roles/nobody-mapped')).json()).to.deep.equal(['nobody-mapped']);
    expect((await admin.get('/rest/v2/security/users')).json<{ default: string[] }>().default).to.include('admin');
  });
});

describe('security settings across a restart', () => {
  it('keeps roles and grants', async () => {
    await withServer({}, async (server) => {
      await server.as('admin').post('/rest/v2/security/permissions/auditor?permission=MONITOR', 'audits');
      await server.as('admin').put('/rest/v2/security/roles/ops-team?action=grant&role=auditor');
      await server.restart();
      expect((await server.as('admin').get('/rest/v2/security/permissions/auditor')).json()).to.include({ description: 'audits' });
      expect((await server.as('admin').get('/rest/v2/security/roles/ops-team')).json()).to.deep.equal(['auditor']);
    });
  });
});

import { expect } from 'chai';
import { useServer } from '../support/server';

const WITH_BACKUPS = {
  'distributed-cache': { backups: { NYC: { backup: { strategy: 'ASYNC', 'take-offline': { 'after-failures': '3', 'min-wait': '100' } } }, LON: { backup: {} } } },
};

describe('cross-site /x-site', () => {
  const server = useServer();
  const admin = server.as('admin');

  before(async () => {
    await admin.createCache('plain');
  });

  describe('without backup sites (the standalone original)', () => {
    it('answers 404 text for cache-level calls and {} at container level', async () => {
      const r = await admin.get('/rest/v2/caches/plain/x-site/backups');
      expect([r.status, r.text]).to.deep.equal([404, "Cache 'plain' does not have backup sites."]);
      expect((await admin.get('/rest/v2/caches/plain/x-site/backups/NYC/state-transfer-mode')).status).to.equal(404);
      expect((await admin.get('/rest/v2/caches/missing/x-site/backups')).text).to.contain('ISPN012010');
      expect((await admin.get('/rest/v2/container/x-site/backups')).json()).to.deep.equal({});
      expect((await admin.get('/rest/v2/cache-managers/default/x-site/backups/NYC')).status).to.equal(404);
      expect((await admin.post('/rest/v2/container/x-site/backups/NYC?action=take-offline')).json()).to.deep.equal({});
    });
  });

  describe('with declared backups', () => {
    before(() => admin.createCache('dist', WITH_BACKUPS));

    it('reports sites, takes one offline and brings it back; the container shows mixed', async () => {
      expect((await admin.get('/rest/v2/caches/dist/x-site/backups')).json()).to.deep.equal({ NYC: { status: 'online' }, LON: { status: 'online' } });
      expect((await admin.post('/rest/v2/caches/dist/x-site/backups/NYC?action=take-offline')).status).to.equal(200);
      // the site's status on each node of the cluster, by node name: offline on every one
      expect(new Set(Object.values((await admin.get('/rest/v2/caches/dist/x-site/backups/NYC')).json<Record<string, string>>()))).to.deep.equal(new Set(['offline']));
      expect((await admin.get('/rest/v2/container/x-site/backups')).json()).to.deep.equal({ NYC: { status: 'offline' }, LON: { status: 'online' } });
      expect((await admin.post('/rest/v2/container/x-site/backups/NYC?action=bring-online')).json()).to.deep.equal({ dist: 'ok' });
      expect((await admin.get('/rest/v2/caches/dist/x-site/backups')).json<Record<string, { status: string }>>().NYC.status).to.equal('online');
      const unknown = await admin.get('/rest/v2/caches/dist/x-site/backups/SFO');
      expect([unknown.status, unknown.text]).to.deep.equal([404, "Cache 'dist' does not backup to site 'SFO'"]);
    });

    it('reads and sets the state-transfer mode (200, then 304; 400 without or with a bad mode)', async () => {
      expect((await admin.get('/rest/v2/caches/dist/x-site/backups/NYC/state-transfer-mode')).json()).to.equal('MANUAL');
      expect((await admin.post('/rest/v2/caches/dist/x-site/backups/NYC/state-transfer-mode?action=set&mode=AUTO')).status).to.equal(200);
      expect((await admin.post('/rest/v2/caches/dist/x-site/backups/NYC/state-transfer-mode?action=set&mode=AUTO')).status).to.equal(304);
      const missing = await admin.post('/rest/v2/caches/dist/x-site/backups/NYC/state-transfer-mode?action=set');
      expect([missing.status, missing.text]).to.deep.equal([400, "ISPN012040: Missing required argument 'mode'"]);
      expect((await admin.post('/rest/v2/caches/dist/x-site/backups/NYC/state-transfer-mode?action=set&mode=SOMETIMES')).status).to.equal(400);
    });

    it('reads and sets take-offline-config (204, 304, 400s)', async () => {
      const url = '/rest/v2/caches/dist/x-site/backups/NYC/take-offline-config';
      expect((await admin.get(url)).json()).to.deep.equal({ after_failures: 3, min_wait: 100 });
      expect((await admin.put(url, '{"after_failures":5,"min_wait":1000}')).status).to.equal(204);
      expect((await admin.put(url, '{"after_failures":5,"min_wait":1000}')).status).to.equal(304);
      expect((await admin.put(url, '{"after_failures":5}')).status).to.equal(400);
      expect((await admin.put(url, 'nope')).status).to.equal(400);
      expect((await admin.put(url, '')).status).to.equal(400);
    });

    it('fails pushing state with ISPN012047: remote replication is not there yet', async () => {
      const r = await admin.post('/rest/v2/caches/dist/x-site/backups/NYC?action=start-push-state');
      expect(r.status).to.equal(500);
      expect(r.text).to.match(/^ISPN012047: Site operation on 'NYC' failed: /);
      expect((await admin.get('/rest/v2/caches/dist/x-site/backups?action=push-state-status')).json()).to.deep.equal({ NYC: 'IDLE', LON: 'IDLE' });
    });

    it('is ADMIN only and keeps its state across a restart', async () => {
      expect((await server.as('deployer').get('/rest/v2/caches/dist/x-site/backups')).status).to.equal(403);
      await admin.post('/rest/v2/caches/dist/x-site/backups/LON?action=take-offline');
      await server.restart();
      expect((await admin.get('/rest/v2/caches/dist/x-site/backups')).json<Record<string, { status: string }>>().LON.status).to.equal('offline');
      expect((await admin.get('/rest/v2/caches/dist/x-site/backups/NYC/state-transfer-mode')).json()).to.equal('AUTO');
    });
  });
});

import { expect } from 'chai';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { list as tarList } from 'tar';
import { Client } from '../support/client';
import { tempDir, useServer } from '../support/server';

describe('GET /rest/v2/server/report/{node} (docs/reference/management-plane.md#server-runtime)', () => {
  const server = useServer();
  // one node asked throughout: a test server may be two nodes (docs/scale-out.md, "Testing on the redis engine"), each giving its own report
  const admin = new Client(() => server.url, { user: 'admin', password: 'admin-pw' });
  let nodeName: string;

  before(async () => {
    // the console names the node as the cluster members list does
    const { members } = (await admin.get('/rest/v2/cluster/members')).json<{ members: Array<{ node_address: string }> }>();
    nodeName = (await admin.get('/rest/v2/container')).json<{ node_address: string }>().node_address;
    expect(members.map((m) => m.node_address)).to.include(nodeName);
  });

  it('answers this node\'s report for its own name', async () => {
    const r = await admin.get(`/rest/v2/server/report/${encodeURIComponent(nodeName)}`);
    expect(r.status).to.equal(200);
    expect(r.headers.get('content-type')).to.equal('application/gzip');
    expect(r.headers.get('content-disposition')).to.match(/^attachment; filename="grid-.+-\d{14}-report\.tar\.gz"$/);
    const dir = tempDir('grid-node-report-test-');
    try {
      writeFileSync(join(dir, 'r.tar.gz'), r.bytes);
      const names: string[] = [];
      await tarList({ file: join(dir, 'r.tar.gz'), onReadEntry: (e) => { names.push(e.path); } });
      expect(names).to.include.members(['server-config.json', 'memory.json', 'threads.txt']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('answers 404 with a short reason for a node that is not a member (the original: no body)', async () => {
    const r = await admin.get(`/rest/v2/server/report/${encodeURIComponent(`${nodeName}-elsewhere`)}`);
    expect([r.status, r.text]).to.deep.equal([404, 'Node not found']);
  });

  it('is ADMIN only', async () => {
    expect((await server.as('observer').get(`/rest/v2/server/report/${encodeURIComponent(nodeName)}`)).status).to.equal(403);
    expect((await server.anonymous().get(`/rest/v2/server/report/${encodeURIComponent(nodeName)}`)).status).to.equal(401);
  });
});

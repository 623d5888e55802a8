import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { Client } from '../support/client';
import { spawnServer, waitForExit } from '../support/process';
import { tempDir } from '../support/server';

describe('restart after kill -9 (bin/grid start)', function () {
  this.timeout(60_000);

  for (const durability of ['power', 'process']) {
    it(`keeps every acknowledged write with --durability ${durability}`, async () => {
      const dataDir = tempDir();
      try {
        let proc = await spawnServer(['--data', dataDir, '--durability', durability], { APP_USER: 'ops', APP_PASS: 'ops-pw' });
        let client = new Client(proc.url, { user: 'ops', password: 'ops-pw' });
        await client.createCache('durable', { 'distributed-cache': { persistence: { 'file-store': {} } } });
        await client.createCache('memory');
        await client.put('/rest/v2/caches/memory/k', 'gone');
        const acknowledged: string[] = [];
        const writers = Array.from({ length: 8 }, async (_, w) => {
          for (let i = 0; i < 50; i++) {
            const key = `w${w}-${i}`;
            const r = await client.put(`/rest/v2/caches/durable/${key}`, `value-${key}`);
            if (r.status === 204) acknowledged.push(key);
          }
        });
        await Promise.all(writers);
        expect((await client.delete('/rest/v2/caches/durable/w0-0')).status).to.equal(204);
        acknowledged.splice(acknowledged.indexOf('w0-0'), 1);
        proc.child.kill('SIGKILL');
        await waitForExit(proc.child);

        proc = await spawnServer(['--data', dataDir, '--durability', durability]);
        client = new Client(proc.url, { user: 'ops', password: 'ops-pw' });
        try {
          expect(proc.output()).to.not.contain('password:');
          expect((await client.get('/rest/v2/caches')).json()).to.include.members(['durable', 'memory']);
          expect(acknowledged).to.have.length(399);
          expect((await client.get('/rest/v2/caches/durable?action=size')).json()).to.equal(acknowledged.length);
          for (const key of acknowledged) {
            expect((await client.get(`/rest/v2/caches/durable/${key}`)).text, key).to.equal(`value-${key}`);
          }
          expect((await client.get('/rest/v2/caches/durable/w0-0')).status).to.equal(404);
          expect((await client.get('/rest/v2/caches/memory/k')).status).to.equal(404);
        } finally {
          proc.child.kill('SIGTERM');
          expect(await waitForExit(proc.child)).to.equal(0);
        }
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    });
  }

  it('prints a generated admin password once on first start, and shuts down cleanly on SIGTERM', async () => {
    const dataDir = tempDir();
    try {
      const proc = await spawnServer(['--data', dataDir]);
      const m = /user: admin\s+password: (\S+)/.exec(proc.output());
      expect(m, proc.output()).to.not.equal(null);
      expect(proc.output()).to.match(/grid \d+\.\d+\.\d+ listening on http:\/\/127\.0\.0\.1:\d+ \(data: .+\)/);
      const client = new Client(proc.url, { user: 'admin', password: m![1] });
      expect((await client.get('/rest/v2/caches')).status).to.equal(200);
      proc.child.kill('SIGTERM');
      expect(await waitForExit(proc.child)).to.equal(0);
      const again = await spawnServer(['--data', dataDir]);
      expect(again.output()).to.not.contain('password:');
      again.child.kill('SIGINT');
      expect(await waitForExit(again.child)).to.equal(0);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

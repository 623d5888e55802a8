import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '../support/client';
import { GRID_BIN, spawnServer, waitForExit } from '../support/process';
import { tempDir } from '../support/server';

const run = promisify(execFile);

describe('grid backup create / restore (CLI against running servers)', function () {
  this.timeout(60_000);

  it('backs up one server to a zip and restores it into another', async () => {
    const dirs = [tempDir(), tempDir(), tempDir()];
    const env = { APP_USER: 'ops', APP_PASS: 'ops-pw' };
    const source = await spawnServer(['--data', dirs[0]], env);
    const target = await spawnServer(['--data', dirs[1]], env);
    try {
      const src = new Client(source.url, { user: 'ops', password: 'ops-pw' });
      await src.createCache('orders', { 'local-cache': { persistence: { 'file-store': {} } } });
      await src.put('/rest/v2/caches/orders/o1', 'first order');
      const zip = join(dirs[2], 'nightly.zip');
      const created = await run(process.execPath, [GRID_BIN, 'backup', 'create', 'nightly', '--server', source.url, '-u', 'ops', '-p', 'ops-pw', '-o', zip]);
      expect(created.stdout).to.contain(`saved ${zip}`);
      expect(readFileSync(zip).subarray(0, 2).toString()).to.equal('PK');

      const restored = await run(process.execPath, [GRID_BIN, 'backup', 'restore', zip, '--server', target.url, '--name', 'r1'], { env: { ...process.env, GRID_USER: 'ops', GRID_PASSWORD: 'ops-pw' } });
      expect(restored.stdout).to.contain("restored");
      const dst = new Client(target.url, { user: 'ops', password: 'ops-pw' });
      expect((await dst.get('/rest/v2/caches/orders/o1')).text).to.equal('first order');

      // without -o, the archive's own file name in the working directory: a/b is one file, a%2Fb.zip
      const named = await run(process.execPath, [GRID_BIN, 'backup', 'create', 'a/b', '--server', source.url, '-u', 'ops', '-p', 'ops-pw'], { cwd: dirs[2] });
      expect(named.stdout).to.contain('saved a%2Fb.zip');
      expect(readFileSync(join(dirs[2], 'a%2Fb.zip')).subarray(0, 2).toString()).to.equal('PK');
    } finally {
      for (const p of [source, target]) {
        p.child.kill('SIGTERM');
        await waitForExit(p.child);
      }
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
    }
  });

  it('exits 1 with a message when the server refuses (wrong credentials), and 2 for bad usage', async () => {
    const dir = tempDir();
    const server = await spawnServer(['--data', dir], { APP_USER: 'ops', APP_PASS: 'ops-pw' });
    try {
      const err = await run(process.execPath, [GRID_BIN, 'backup', 'create', 'b', '--server', server.url, '-u', 'ops', '-p', 'wrong'])
        .then(() => undefined, (e: { code: number; stderr: string }) => e);
      expect(err?.code).to.equal(1);
      expect(err?.stderr).to.contain('refused');
      const usage = await run(process.execPath, [GRID_BIN, 'backup', 'create']).then(() => undefined, (e: { code: number }) => e);
      expect(usage?.code).to.equal(2);
    } finally {
      server.child.kill('SIGTERM');
      await waitForExit(server.child);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

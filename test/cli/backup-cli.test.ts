import { expect } from 'chai';
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '../support/client';
import { grid, gridOnTerminal } from '../support/cli';
import { spawnServer, waitForExit } from '../support/process';
import { tempDir, useServer } from '../support/server';

describe('grid backup ls|create|download|rm and grid restore (CLI against running servers)', function () {
  this.timeout(60_000);

  it('backs up one server (separate processes) to a zip and restores it into another', async () => {
    const dirs = [tempDir(), tempDir(), tempDir()];
    const env = { APP_USER: 'ops', APP_PASS: 'ops-pw' };
    const source = await spawnServer(['--data', dirs[0]], env);
    const target = await spawnServer(['--data', dirs[1]], env);
    try {
      const src = new Client(source.url, { user: 'ops', password: 'ops-pw' });
      await src.createCache('orders', { 'local-cache': { persistence: { 'file-store': {} } } });
      await src.put('/rest/v2/caches/orders/o1', 'first order');
      const zip = join(dirs[2], 'nightly.zip');
      const created = await grid(['backup', 'create', 'nightly', '--server', source.url, '-u', 'ops', '-p', 'ops-pw', '-o', zip]);
      expect(created.stdout).to.contain(`saved ${zip}`);
      expect(readFileSync(zip).subarray(0, 2).toString()).to.equal('PK');
      expect(statSync(zip).mode & 0o077, 'the archive holds every entry: owner only').to.equal(0);

      const restored = await grid(['restore', zip, '--server', target.url, '--name', 'r1'], { env: { GRID_USER: 'ops', GRID_PASSWORD: 'ops-pw' } });
      expect(restored).to.deep.include({ code: 0, stdout: `restore r1: restored ${zip}: 1 entry in 1 cache\n` });
      const dst = new Client(target.url, { user: 'ops', password: 'ops-pw' });
      expect((await dst.get('/rest/v2/caches/orders/o1')).text).to.equal('first order');

      // downloaded without -o: the archive's own file name in the working directory, a/b is one file, a%2Fb.zip
      const opts = { cwd: dirs[2], env: { GRID_USER: 'ops', GRID_PASSWORD: 'ops-pw' } };
      expect((await grid(['backup', 'create', 'a/b', '--server', source.url], opts)).code).to.equal(0);
      const named = await grid(['backup', 'download', 'a/b', '--server', source.url], opts);
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

  describe('against one server', () => {
    const server = useServer();
    let dir: string;
    const as = (user: string) => ['--server', server.url, '-u', user, '-p', `${user}-pw`];

    before(async () => {
      dir = tempDir();
      for (const name of ['a', 'b']) {
        await server.as('admin').createCache(name);
        for (let i = 0; i < 3; i++) await server.as('admin').put(`/rest/v2/caches/${name}/k${i}`, `v${i}`);
      }
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    it('create (selected caches) waits and leaves the archive on the server; ls, download, rm', async () => {
      const created = await grid(['backup', 'create', 'only-a', '--caches', 'a', ...as('admin')]);
      expect(created).to.deep.equal({ code: 0, stdout: 'backup only-a: created on the server (`grid backup download only-a` saves it here)\n', stderr: '' });
      expect((await grid(['backup', 'ls', ...as('admin')])).stdout).to.equal('only-a\n');
      const zip = join(dir, 'only-a.zip');
      const saved = await grid(['backup', 'download', 'only-a', '-o', zip, ...as('admin')]);
      expect(saved.stdout).to.match(/^backup only-a: saved .*only-a\.zip \([\d,]+ bytes\)\n$/);
      expect(existsSync(`${zip}.part`)).to.equal(false);
      expect(await grid(['backup', 'rm', 'only-a', ...as('admin')])).to.deep.include({ code: 0, stdout: "backup 'only-a' removed\n" });
      expect((await grid(['backup', 'ls', ...as('admin')])).stdout).to.equal('');

      // what --caches a selected is all the archive holds: restored, cache b is untouched
      await server.as('admin').post('/rest/v2/caches/a?action=clear');
      await server.as('admin').post('/rest/v2/caches/b?action=clear');
      expect((await grid(['restore', zip, '--name', 'back', ...as('admin')])).stdout).to.equal(`restore back: restored ${zip}: 3 entries in 1 cache\n`);
      expect((await server.as('admin').get('/rest/v2/caches/a?action=size')).text).to.equal('3');
      expect((await server.as('admin').get('/rest/v2/caches/b?action=size')).text).to.equal('0');
    });

    it('a name taken (409): one sentence saying what to do, exit 1', async () => {
      expect((await grid(['backup', 'create', 'twice', ...as('admin')])).code).to.equal(0);
      expect(await grid(['backup', 'create', 'twice', ...as('admin')])).to.deep.equal({
        code: 1, stdout: '', stderr: 'grid: a backup named twice exists: choose another name or `grid backup rm twice`\n',
      });
      expect(await grid(['backup', 'download', 'never', ...as('admin')])).to.deep.equal({
        code: 1, stdout: '', stderr: "grid: there is no backup named 'never' (see `grid backup ls`)\n",
      });
    });

    it('restore of a missing file, of a file that is no zip: one sentence, nothing sent', async () => {
      expect(await grid(['restore', join(dir, 'missing.zip'), ...as('admin')])).to.deep.equal({
        code: 1, stdout: '', stderr: `grid: ${join(dir, 'missing.zip')} does not exist\n`,
      });
      const notZip = join(dir, 'notes.txt');
      writeFileSync(notZip, 'not an archive');
      const r = await grid(['restore', notZip, '--name', 'nz', ...as('admin')]);
      expect(r.code).to.equal(1);
      expect(r.stderr).to.match(/^grid: .*notes\.txt is not a zip archive \(.+\)\n$/);
      expect((await server.as('admin').get('/rest/v2/cluster/restores')).json()).to.not.include('nz');
    });

    it('on a terminal, restore shows entries, bytes and percent while it uploads', async () => {
      await server.as('admin').createCache('c');
      for (let i = 0; i < 4; i++) await server.as('admin').put(`/rest/v2/caches/c/k${i}`, 'x'.repeat(1000));
      const zip = join(dir, 'c.zip');
      expect((await grid(['backup', 'create', 'c', '--caches', 'c', '-o', zip, ...as('admin')])).code).to.equal(0);
      const r = await gridOnTerminal(['restore', zip, '--name', 'shown', ...as('admin')]);
      expect(r.code, r.stdout).to.equal(0);
      expect(r.stdout).to.match(/\rrestore shown: uploading 4 entries in 1 cache: [\d.]+ kB of [\d.]+ kB \(100%\)\x1b\[K/);
      expect(r.stdout).to.contain(`restore shown: restored ${zip}: 4 entries in 1 cache\n`);
    });

    it('only an admin may back up: a deployer gets one sentence, exit 1', async () => {
      const r = await grid(['backup', 'create', 'nope', ...as('deployer')]);
      expect(r.code).to.equal(1);
      expect(r.stderr).to.match(/^grid: user 'deployer' may not do this on /);
    });
  });

  it('bad usage exits 2', async () => {
    expect((await grid(['backup', 'create'])).code).to.equal(2);
    expect((await grid(['restore'])).code).to.equal(2);
  });
});

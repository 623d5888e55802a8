import { expect } from 'chai';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageVersion } from '../../src/util/package-info';
import { grid } from '../support/cli';
import { spawnServer, waitForExit } from '../support/process';
import { tempDir, useServer, withServer } from '../support/server';

describe('grid: connecting to a server, credentials, versions and mistakes', function () {
  this.timeout(30_000);
  const server = useServer();

  it('grid --version prints the version and exits 0, without a server', async () => {
    const version = packageVersion();
    expect(await grid(['--version'])).to.deep.equal({ code: 0, stdout: `grid ${version}\n`, stderr: '' });
  });

  it('no server at the URL: one sentence, exit 3', async () => {
    const r = await grid(['cache', 'ls', '--server', 'http://127.0.0.1:1']);
    expect(r).to.deep.equal({ code: 3, stdout: '', stderr: 'grid: no grid server answers at http://127.0.0.1:1 — is it running?\n' });
  });

  it('wrong password (401): one sentence naming the URL and the ways to log in, exit 1', async () => {
    const r = await grid(['cache', 'ls', '--server', server.url, '-u', 'admin', '-p', 'wrong']);
    expect(r).to.deep.equal({ code: 1, stdout: '', stderr: `grid: wrong user or password for ${server.url}; give -u/-p or GRID_USER/GRID_PASSWORD\n` });
    const none = await grid(['cache', 'ls', '--server', server.url]);
    expect(none).to.deep.equal({ code: 1, stdout: '', stderr: `grid: ${server.url} needs a user and password; give -u/-p or GRID_USER/GRID_PASSWORD\n` });
  });

  it('GRID_SERVER, GRID_USER and GRID_PASSWORD stand in for --server, -u and -p; flags win', async () => {
    await server.as('admin').createCache('by-env');
    const env = { GRID_SERVER: server.url, GRID_USER: 'admin', GRID_PASSWORD: 'admin-pw' };
    expect((await grid(['cache', 'ls'], { env })).stdout.split('\n')).to.include('by-env');
    expect((await grid(['cache', 'ls', '-p', 'wrong'], { env })).code).to.equal(1);
  });

  it('speaks Digest to a server that takes no Basic: commands and a streamed restore', async () => {
    await withServer({ authMechanisms: ['digest'] }, async (digestOnly) => {
      const as = ['--server', digestOnly.url, '-u', 'admin', '-p', 'admin-pw'];
      expect((await grid(['cache', 'create', 'd', ...as])).code).to.equal(0);
      expect((await grid(['put', 'd', 'k', 'v', ...as])).code).to.equal(0);
      expect((await grid(['get', 'd', 'k', ...as])).stdout).to.equal('v');
      const zip = join(tempDir(), 'd.zip');
      expect((await grid(['backup', 'create', 'b', '-o', zip, ...as])).code).to.equal(0);
      expect(await grid(['restore', zip, '--name', 'r', ...as])).to.deep.include({ code: 0, stdout: `restore r: restored ${zip}: 1 entry in 1 cache\n` });
      const wrong = await grid(['cache', 'ls', '--server', digestOnly.url, '-u', 'admin', '-p', 'nope']);
      expect([wrong.code, wrong.stderr]).to.deep.equal([1, `grid: wrong user or password for ${digestOnly.url}; give -u/-p or GRID_USER/GRID_PASSWORD\n`]);
    });
  });

  it('reads the password from a netrc file (--netrc-file, $NETRC, ~/.netrc) for the server\'s host', async () => {
    const home = tempDir();
    const netrc = join(home, '.netrc');
    writeFileSync(netrc, `# grid\nmachine elsewhere.example login x password y\nmachine 127.0.0.1\n  login observer\n  password "observer-pw"\n`, { mode: 0o600 });
    const ok = { code: 0, stderr: '' };
    expect(await grid(['cache', 'ls', '--server', server.url, '--netrc-file', netrc])).to.deep.include(ok);
    expect(await grid(['cache', 'ls', '--server', server.url], { env: { NETRC: netrc } })).to.deep.include(ok);
    expect(await grid(['cache', 'ls', '--server', server.url], { env: { HOME: home } })).to.deep.include(ok);
    // -u picks that login's line; a login the file does not hold needs a password
    const other = await grid(['cache', 'ls', '--server', server.url, '-u', 'admin'], { env: { HOME: home } });
    expect(other.code).to.equal(2);
    expect(other.stderr).to.contain(`-u admin needs a password: give -p, GRID_PASSWORD or a line 'machine 127.0.0.1 login admin password …' in ${netrc}`);
  });

  it('refuses a netrc file other users can read, and a --netrc-file that is missing', async () => {
    const file = join(tempDir(), 'netrc');
    writeFileSync(file, 'default login admin password admin-pw\n');
    chmodSync(file, 0o644);
    expect(await grid(['cache', 'ls', '--server', server.url, '--netrc-file', file])).to.deep.equal({
      code: 1, stdout: '', stderr: `grid: ${file} holds a password and other users can read it: run 'chmod 600 ${file}'\n`,
    });
    const missing = await grid(['cache', 'ls', '--server', server.url, '--netrc-file', '/no/netrc']);
    expect([missing.code, missing.stderr]).to.deep.equal([1, 'grid: cannot read the credentials file /no/netrc: it does not exist\n']);
  });

  it('an unknown flag or command: exit 2, with the nearest known one', async () => {
    expect(await grid(['cache', 'ls', '--serevr', server.url])).to.deep.equal({
      code: 2, stdout: '', stderr: "grid: unknown flag '--serevr': did you mean --server?\nRun 'grid cache --help' for usage.\n",
    });
    expect((await grid(['put', 'c', 'k', 'v', '--tll', '5'])).stderr).to.contain("unknown flag '--tll': did you mean --ttl?");
    expect((await grid(['cahce', 'ls'])).stderr).to.equal("grid: unknown command 'cahce': did you mean 'cache'?\nRun 'grid --help' for usage.\n");
    expect((await grid(['backup', 'lst'])).stderr).to.contain("unknown command 'backup lst': did you mean 'backup ls'?");
    const far = await grid(['cache', 'ls', '--zzzzzz']);
    expect([far.code, far.stderr.split('\n')[0]]).to.deep.equal([2, "grid: unknown flag '--zzzzzz'"]);
    expect((await grid(['cache', 'ls', '--server', 'ftp://x'])).stderr).to.contain("--server 'ftp://x' is not an http:// or https:// URL");
  });

  it('every command has --help, exit 0', async () => {
    for (const command of ['cache', 'get', 'put', 'rm', 'keys', 'query', 'schema', 'counter', 'task', 'backup', 'restore', 'stop']) {
      const r = await grid([command, '--help']);
      expect([r.code, r.stdout.startsWith('Usage: grid'), r.stdout.includes('--server URL')], command).to.deep.equal([0, true, true]);
    }
  });

  it('grid stop stops the server (admin); a monitor may not', async () => {
    const dir = tempDir();
    expect((await grid(['user', 'create', 'mon', '-p', 'mon-pw', '-g', 'monitor', '--data', dir, '--init'])).code).to.equal(0);
    const proc = await spawnServer(['--data', dir], { APP_USER: 'ops', APP_PASS: 'ops-pw' });
    try {
      const denied = await grid(['stop', '--server', proc.url, '-u', 'mon', '-p', 'mon-pw']);
      expect(denied.code).to.equal(1);
      expect(denied.stderr).to.match(/^grid: user 'mon' may not do this on http:\/\/\S+ \(ISPN000287: .*lacks 'LIFECYCLE' permission\)\n$/);
      const r = await grid(['stop', '--server', proc.url, '-u', 'ops', '-p', 'ops-pw']);
      expect(r).to.deep.equal({ code: 0, stdout: `the server at ${proc.url} is stopping\n`, stderr: '' });
      expect(await waitForExit(proc.child)).to.equal(0);
    } finally {
      proc.child.kill('SIGTERM');
    }
  });
});

import { expect } from 'chai';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyPassword } from '../../src/model/security/passwords';
import { migrationsDir, openDatabase } from '../../src/store/sqlite-store';
import { SqliteUserStore } from '../../src/store/sqlite-user.store';
import { runGrid } from '../support/cli';
import { spawnServer, waitForExit } from '../support/process';

/** Reads a user straight from the database the CLI wrote. */
function storedUser(dataDir: string, name: string) {
  const db = openDatabase(dataDir, 'process');
  try {
    return new SqliteUserStore(db).find(name);
  } finally {
    db.close();
  }
}

describe('grid command line', function () {
  // Each case starts a node process; scrypt makes user commands take a little longer.
  this.timeout(30_000);

  describe('help', () => {
    it('grid --help exits 0 and names every command', () => {
      const r = runGrid(['--help']);
      expect(r.status).to.equal(0);
      for (const word of ['start', 'user', 'migrate', 'redis-cluster']) expect(r.stdout).to.include(word);
    });

    it('grid start --help exits 0 and mentions every option', () => {
      const r = runGrid(['start', '--help']);
      expect(r.status).to.equal(0);
      for (const option of ['--data', '--host', '--port', '--config', '--durability', '--max-content-length', '--log-level', '--log-format', '--no-auth', '--console', '-D', '--help', 'APP_USER', 'APP_PASS', 'APP_ROLE', '--engine', '--redis', '--redis-password-file', 'GRID_REDIS_PASSWORD']) {
        expect(r.stdout, option).to.include(option);
      }
    });

    it('grid user --help exits 0 and mentions every sub-command and option', () => {
      const r = runGrid(['user', '--help']);
      expect(r.status).to.equal(0);
      for (const word of ['create', 'list', 'remove', 'password', '--data', '--init', '-p', '--password', '-g', '--groups', '--help']) {
        expect(r.stdout, word).to.include(word);
      }
      for (const role of ['admin', 'deployer', 'application', 'observer', 'monitor']) expect(r.stdout, role).to.include(role);
    });

    it('grid migrate --help exits 0 and mentions --data', () => {
      const r = runGrid(['migrate', '--help']);
      expect(r.status).to.equal(0);
      expect(r.stdout).to.include('--data');
    });

    it('grid without a command prints the usage and exits 2', () => {
      const r = runGrid([]);
      expect(r.status).to.equal(2);
      expect(r.stdout).to.include('Usage: grid');
    });
  });

  describe('usage errors exit 2 with a message on stderr', () => {
    it('an unknown flag of start', () => {
      const r = runGrid(['start', '--bogus']);
      expect(r.status).to.equal(2);
      expect(r.stderr).to.include('--bogus');
      expect(r.stderr).to.include('grid start --help');
      expect(r.stdout).to.equal('');
    });

    it('an unknown command', () => {
      const r = runGrid(['frobnicate']);
      expect(r.status).to.equal(2);
      expect(r.stderr).to.include("unknown command 'frobnicate'");
    });

    it('an invalid flag value of start', () => {
      const r = runGrid(['start', '--port', 'http']);
      expect(r.status).to.equal(2);
      expect(r.stderr).to.match(/port/);
    });

    it('a --console directory that does not exist', () => {
      const r = runGrid(['start', '--console', '/no/such/console-dir']);
      expect(r.status).to.equal(2);
      expect(r.stderr).to.include("console: '/no/such/console-dir' does not exist");
    });
  });

  describe('grid start --console DIR', () => {
    it('serves the console in DIR at /console/ and redirects / to it', async () => {
      const data = mkdtempSync(join(tmpdir(), 'grid-cli-console-'));
      const proc = await spawnServer(['--data', data, '--console', join(__dirname, '..', '..', '..', 'test', 'fixtures', 'console')], { APP_USER: 'ops', APP_PASS: 'ops-pw' });
      try {
        const page = await fetch(`${proc.url}/console/welcome`);
        expect(page.status).to.equal(200);
        expect(await page.text()).to.contain('<base href="/console/">');
        const config = await (await fetch(`${proc.url}/console/config.js`)).text();
        expect(config).to.contain("restContextPath: '/rest'");
        const root = await fetch(`${proc.url}/`, { redirect: 'manual' });
        expect(root.status).to.equal(307);
        expect(root.headers.get('location')).to.equal('/console/welcome');
      } finally {
        proc.child.kill('SIGTERM');
        await waitForExit(proc.child);
        rmSync(data, { recursive: true, force: true });
      }
    });
  });

  describe('grid user and grid migrate on a data directory', () => {
    let dir: string;
    let data: string;

    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'grid-cli-'));
      data = join(dir, 'data');
    });

    afterEach(() => {
      rmSync(dir, { recursive: true, force: true });
    });

    it('create, list, password and remove a user', async () => {
      const created = runGrid(['user', 'create', 'alice', '-p', 'pw', '-g', 'admin', '--data', data, '--init']);
      expect(created.status, created.stderr).to.equal(0);

      const listed = runGrid(['user', 'list', '--data', data]);
      expect(listed.status).to.equal(0);
      expect(listed.stdout.split('\n')).to.include('alice\tadmin');

      const changed = runGrid(['user', 'password', 'alice', '-p', 'new', '--data', data]);
      expect(changed.status, changed.stderr).to.equal(0);
      const alice = storedUser(data, 'alice');
      expect(await verifyPassword('new', alice!.passwordHash)).to.equal(true);
      expect(await verifyPassword('pw', alice!.passwordHash)).to.equal(false);
      expect(alice!.roles).to.deep.equal(['admin']);

      const removed = runGrid(['user', 'remove', 'alice', '--data', data]);
      expect(removed.status, removed.stderr).to.equal(0);
      expect(runGrid(['user', 'list', '--data', data]).stdout).to.not.include('alice');
    });

    it('lists several roles comma-separated', () => {
      expect(runGrid(['user', 'create', 'bob', '--password', 'pw', '--groups', 'observer,monitor', '--data', data, '--init']).status).to.equal(0);
      expect(runGrid(['user', 'list', '--data', data]).stdout.split('\n')).to.include('bob\tobserver,monitor');
    });

    it('removing a user that does not exist exits non-zero with a clear message', () => {
      const r = runGrid(['user', 'remove', 'nobody', '--data', data, '--init']);
      expect(r.status).to.not.equal(0);
      expect(r.stderr).to.include("User 'nobody' not found");
    });

    it('changing the password of a user that does not exist exits non-zero', () => {
      const r = runGrid(['user', 'password', 'nobody', '-p', 'x', '--data', data, '--init']);
      expect(r.status).to.not.equal(0);
      expect(r.stderr).to.include("User 'nobody' not found");
    });

    it('takes any group, as the original (its roles come from grants or custom roles); says when it grants nothing yet', () => {
      const r = runGrid(['user', 'create', 'carol', '-p', 'pw', '-g', 'wizard', '--data', data, '--init']);
      expect(r.status, r.stderr).to.equal(0);
      expect(r.stderr).to.include("'wizard' names no role and has no grant yet");
      expect(runGrid(['user', 'list', '--data', data]).stdout).to.include('carol\twizard');
      const known = runGrid(['user', 'create', 'erin', '-p', 'pw', '-g', 'observer', '--data', data]);
      expect([known.status, known.stderr]).to.deep.equal([0, '']);
    });

    it('refuses a group name with a space, a comma-free list only, and creates nobody', () => {
      const r = runGrid(['user', 'create', 'frank', '-p', 'pw', '-g', 'bad group', '--data', data, '--init']);
      expect(r.status).to.not.equal(0);
      expect(r.stderr).to.include("Invalid group name 'bad group'");
      expect(runGrid(['user', 'list', '--data', data]).stdout).to.not.include('frank');
    });

    it('refuses a --data directory that is not a grid data directory, and creates nothing there, unless --init', () => {
      mkdirSync(data);
      for (const args of [['list'], ['create', 'alice', '-p', 'pw', '-g', 'admin'], ['remove', 'alice'], ['password', 'alice', '-p', 'x']]) {
        for (const target of [data, join(dir, 'missing')]) {
          const r = runGrid(['user', ...args, '--data', target]);
          expect(r.status, args.join(' ')).to.equal(2);
          expect(r.stderr).to.include(`grid: ${target} is not a grid data directory (it has no grid.db): name the server's data directory with --data, or pass --init to make a new one there`);
        }
      }
      expect(readdirSync(data)).to.deep.equal([]);
      expect(existsSync(join(dir, 'missing'))).to.equal(false);
      const made = runGrid(['user', 'create', 'alice', '-p', 'pw', '-g', 'admin', '--data', data, '--init']);
      expect(made.status, made.stderr).to.equal(0);
      expect(runGrid(['user', 'list', '--data', data]).stdout).to.equal('alice\tadmin\n');
    });

    it('user create without -p is a usage error', () => {
      const r = runGrid(['user', 'create', 'dave', '-g', 'admin', '--data', data]);
      expect(r.status).to.equal(2);
      expect(r.stderr).to.include('-p');
    });

    it('grid migrate prints the schema version, then that it is up to date', () => {
      const latest = Math.max(...readdirSync(migrationsDir()).filter((f) => /^\d{4}_.+\.sql$/.test(f)).map((f) => Number(f.slice(0, 4))));
      const first = runGrid(['migrate', '--data', data]);
      expect(first.status, first.stderr).to.equal(0);
      expect(first.stdout).to.include('0001_init.sql');
      expect(first.stdout).to.include(`schema version ${latest}`);
      const second = runGrid(['migrate', '--data', data]);
      expect(second.status).to.equal(0);
      expect(second.stdout).to.include(`up to date (version ${latest})`);
    });
  });
});

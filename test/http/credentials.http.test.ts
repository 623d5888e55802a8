import { expect } from 'chai';
import Database from 'better-sqlite3';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { Client } from '../support/client';
import { challengeFor, digestAuthorization, hashOf } from '../support/digest';
import { GRID_BIN } from '../support/process';
import { tempDir, useServer, withServer, type ServerUnderTest } from '../support/server';

const URI = '/rest/v2/caches';

interface UserRow { name: string; digest_md5: string; digest_sha256: string; password_hash: string }

/** What a local user who can read grid.db sees. */
function storedUsers(dataDir: string): UserRow[] {
  const db = new Database(join(dataDir, 'grid.db'), { readonly: true });
  try {
    return db.prepare('SELECT name, digest_md5, digest_sha256, password_hash FROM users ORDER BY name').all() as UserRow[];
  } finally {
    db.close();
  }
}

async function digestGet(server: ServerUnderTest, user: string, secret: { password?: string; ha1?: string }, algorithm: 'MD5' | 'SHA-256' = 'MD5'): Promise<number> {
  const anonymous = server.anonymous();
  const challenge = challengeFor((await anonymous.get(URI)).headers.get('www-authenticate'), algorithm);
  const r = await anonymous.get(URI, { Authorization: digestAuthorization({ challenge, user, method: 'GET', uri: URI, ...secret }) });
  return r.status;
}

function quietLog(): { stream: Writable; text: () => string } {
  let text = '';
  return { stream: new Writable({ write(c, _e, done) { text += c.toString(); done(); } }), text: () => text };
}

describe('stored credentials', () => {
  describe('Digest HA1 values at rest', () => {
    const server = useServer();

    it('stores no plain HA1: neither column holds H(user:realm:password)', () => {
      for (const u of storedUsers(server.dataDir)) {
        expect(u.digest_md5, u.name).to.not.equal(hashOf('MD5', `${u.name}:default:${u.name}-pw`));
        expect(u.digest_sha256, u.name).to.not.equal(hashOf('SHA-256', `${u.name}:default:${u.name}-pw`));
        expect(u.digest_md5, u.name).to.match(/^gcm1\$/);
      }
    });

    it('a copy of grid.db without credentials.key gives no Digest access: what is stored does not work as HA1', async () => {
      const copy = tempDir();
      for (const f of ['grid.db', 'grid.db-wal']) if (existsSync(join(server.dataDir, f))) copyFileSync(join(server.dataDir, f), join(copy, f));
      const admin = storedUsers(copy).find((u) => u.name === 'admin')!;
      rmSync(copy, { recursive: true, force: true });
      expect(await digestGet(server, 'admin', { ha1: admin.digest_md5 })).to.equal(401);
      expect(await digestGet(server, 'admin', { ha1: admin.digest_sha256 }, 'SHA-256')).to.equal(401);
      // the same procedure with the real HA1 is what used to work
      expect(await digestGet(server, 'admin', { ha1: hashOf('MD5', 'admin:default:admin-pw') })).to.equal(200);
    });

    it('Digest with the password still works for both algorithms', async () => {
      expect(await digestGet(server, 'observer', { password: 'observer-pw' })).to.equal(200);
      expect(await digestGet(server, 'observer', { password: 'observer-pw' }, 'SHA-256')).to.equal(200);
    });
  });

  describe('plain HA1 rows left by an earlier version', () => {
    it('are encrypted in place at start, and Digest keeps working', async () => {
      await withServer({}, async (server) => {
        const { dataDir } = server;
        await server.stop();
        const db = new Database(join(dataDir, 'grid.db'));
        db.prepare('UPDATE users SET digest_md5 = ?, digest_sha256 = ? WHERE name = ?')
          .run(hashOf('MD5', 'admin:default:admin-pw'), hashOf('SHA-256', 'admin:default:admin-pw'), 'admin');
        db.close();

        const log = quietLog();
        await server.start({ logLevel: 'info', stdout: log.stream });
        const admin = storedUsers(dataDir).find((u) => u.name === 'admin')!;
        expect(admin.digest_md5).to.match(/^gcm1\$/);
        expect(admin.digest_sha256).to.match(/^gcm1\$/);
        expect(log.text()).to.contain('plain Digest HA1 values encrypted');
        expect(await digestGet(server, 'admin', { password: 'admin-pw' })).to.equal(200);
        expect(await digestGet(server, 'admin', { password: 'admin-pw' }, 'SHA-256')).to.equal(200);
      });
    });
  });

  describe('a lost credentials.key', () => {
    it('leaves Digest closed for existing users (with a warning) while Basic works; a new password opens it again', async () => {
      await withServer({}, async (server) => {
        await server.running.services.users.upsert('zed', 'zed-pw', ['monitor']); // the test harness re-applies its own users
        await server.stop();
        rmSync(join(server.dataDir, 'credentials.key'));
        const log = quietLog();
        await server.start({ logLevel: 'warn', stdout: log.stream });
        expect(log.text()).to.contain('do not open with the credentials key');
        expect(await digestGet(server, 'zed', { password: 'zed-pw' })).to.equal(401);
        expect((await server.as('zed').get(URI)).status).to.equal(200);
        await server.running.services.users.setPassword('zed', 'zed-pw');
        expect(await digestGet(server, 'zed', { password: 'zed-pw' })).to.equal(200);
      });
    });
  });

  describe('auth-mechanisms: [basic]', () => {
    const server = useServer();
    // the server ran with Digest on before: it stored HA1 values
    before(() => server.restart({ authMechanisms: ['basic'] }));

    it('drops every stored HA1 (including those written before) and stores none for new users', async () => {
      await server.running.services.users.upsert('newcomer', 'pw', ['observer']);
      const rows = storedUsers(server.dataDir);
      expect(rows.length).to.be.greaterThan(5);
      for (const u of rows) expect([u.name, u.digest_md5, u.digest_sha256]).to.deep.equal([u.name, '', '']);
    });

    it('offers only Basic in WWW-Authenticate and in the login configuration', async () => {
      const r = await server.anonymous().get(URI);
      expect(r.status).to.equal(401);
      expect(r.headers.get('www-authenticate')).to.equal('Basic realm="default"');
      expect((await server.anonymous().get('/rest/v2/login?action=config')).json()).to.deep.equal({ mode: 'HTTP', BASIC: 'true', ready: 'true' });
    });

    it('answers a Digest header 403 ISPN080052 (mechanism not supported) and serves Basic', async () => {
      const r = await server.anonymous().get(URI, { Authorization: 'Digest username="admin", realm="default", nonce="x", uri="/rest/v2/caches", response="00"' });
      expect(r.status).to.equal(403);
      expect(r.text).to.equal("ISPN080052: The request authentication mechanism 'DIGEST' is not supported");
      expect((await server.as('admin').get(URI)).status).to.equal(200);
    });

    it('makes `grid user create` and `grid user password` store no HA1 either', () => {
      execFileSync(process.execPath, [GRID_BIN, 'user', 'create', 'cli-user', '-p', 'secret', '-g', 'observer', '--data', server.dataDir]);
      execFileSync(process.execPath, [GRID_BIN, 'user', 'password', 'cli-user', '-p', 'changed', '--data', server.dataDir]);
      const row = storedUsers(server.dataDir).find((u) => u.name === 'cli-user')!;
      expect([row.digest_md5, row.digest_sha256]).to.deep.equal(['', '']);
    });
  });

  describe('grid user (CLI) with Digest on', () => {
    it('stores sealed HA1 values that the running server opens', async () => {
      await withServer({}, async (server) => {
        execFileSync(process.execPath, [GRID_BIN, 'user', 'create', 'dora', '-p', 'secret', '-g', 'observer', '--data', server.dataDir]);
        const row = storedUsers(server.dataDir).find((u) => u.name === 'dora')!;
        expect(row.digest_md5).to.match(/^gcm1\$/);
        expect(await digestGet(server, 'dora', { password: 'secret' })).to.equal(200);
        expect(await new Client(server.url, { user: 'dora', password: 'secret' }).get(URI).then((r) => r.status)).to.equal(200);
      });
    });
  });
});

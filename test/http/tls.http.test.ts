import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { runGrid } from '../support/cli';
import { spawnServer, waitForExit } from '../support/process';
import { tempDir, useServer, withServer } from '../support/server';
import { basic, h2Transport, http1Transport } from '../support/transports';
import { needTool } from '../support/tools';

const BROWSER = { 'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0' };
const HSTS = 'max-age=31536000 ; includeSubDomains';

/** A certificate for 127.0.0.1 and its key, made here (no private key is committed). */
async function pemPair(dir: string, passphrase?: string): Promise<{ cert: string; key: string; certPem: string }> {
  const selfsigned = require('selfsigned') as typeof import('selfsigned');
  const pems = await selfsigned.generate([{ name: 'commonName', value: 'grid-test' }], {
    keyType: 'ec', algorithm: 'sha256', passphrase,
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }, { type: 2, value: 'localhost' }] }],
  });
  writeFileSync(join(dir, 'cert.pem'), pems.cert);
  writeFileSync(join(dir, 'key.pem'), pems.private, { mode: 0o600 });
  return { cert: join(dir, 'cert.pem'), key: join(dir, 'key.pem'), certPem: pems.cert };
}

function fingerprintOf(certPem: string | Buffer): string {
  return new X509Certificate(certPem).fingerprint256;
}

async function expectServes(url: string, ca: string | Buffer): Promise<void> {
  const h2 = h2Transport(url, { ca });
  try {
    const r = await h2.request('GET', '/rest/v2/caches', { headers: basic('admin') });
    expect([r.status, r.version]).to.deep.equal([200, '2']);
  } finally {
    h2.close();
  }
  const h1 = await http1Transport(url, { ca }).request('GET', '/rest/v2/caches', { headers: basic('admin') });
  expect([h1.status, h1.version]).to.deep.equal([200, '1.1']);
}

describe('the TLS port (--tls-port)', () => {
  describe('without a configured certificate', () => {
    it('generates a self-signed certificate for 127.0.0.1 once (0600 in <data>/tls) and reuses it after a restart', async () => {
      await withServer({ tlsPort: 0 }, async (server) => {
        const dataDir = server.dataDir;
        const certFile = join(dataDir, 'tls', 'self-signed-cert.pem');
        const certPem = readFileSync(certFile);
        expect(server.running.tls!.fingerprint).to.equal(fingerprintOf(certPem));
        expect(statSync(join(dataDir, 'tls')).mode & 0o777).to.equal(0o700);
        expect(statSync(certFile).mode & 0o777).to.equal(0o600);
        expect(statSync(join(dataDir, 'tls', 'self-signed-key.pem')).mode & 0o777).to.equal(0o600);
        expect(new X509Certificate(certPem).checkIP('127.0.0.1')).to.equal('127.0.0.1');
        await expectServes(server.running.tls!.url, certPem);

        await server.restart();
        expect(server.running.tls!.fingerprint).to.equal(fingerprintOf(certPem));
        expect(readFileSync(certFile).equals(certPem)).to.equal(true);
        await expectServes(server.running.tls!.url, certPem);
      });
    });
  });

  describe('with PEM files', () => {
    let dir: string;
    before(() => { dir = tempDir('grid-tls-'); });
    after(() => rmSync(dir, { recursive: true, force: true }));

    it('serves --tls-cert and --tls-key', async () => {
      const pair = await pemPair(dir);
      await withServer({ tlsPort: 0, tlsCert: pair.cert, tlsKey: pair.key }, async (server) => {
        expect(server.running.tls!.fingerprint).to.equal(fingerprintOf(pair.certPem));
        await expectServes(server.running.tls!.url, pair.certPem);
      });
    });

    it('serves an encrypted key with its password, and refuses to start with a wrong one', async () => {
      const pair = await pemPair(dir, 'key-secret');
      await withServer({ tlsPort: 0, tlsCert: pair.cert, tlsKey: pair.key, tlsKeystorePassword: 'key-secret' }, async (server) => {
        await expectServes(server.running.tls!.url, pair.certPem);
      });
      const wrong = runGrid(['start', '--data', join(dir, 'data'), '--port', '0', '--tls-port', '0', '--tls-cert', pair.cert, '--tls-key', pair.key, '--tls-keystore-password', 'nope']);
      expect(wrong.status).to.equal(2);
      expect(wrong.stderr).to.match(/^grid: cannot use TLS certificate .*cert\.pem.*\n$/);
      expect(wrong.stderr + wrong.stdout).to.not.include('nope');
      const none = runGrid(['start', '--data', join(dir, 'data'), '--port', '0', '--tls-port', '0', '--tls-cert', pair.cert, '--tls-key', pair.key]);
      expect(none.status).to.equal(2);
      expect(none.stderr).to.match(/^grid: cannot use TLS certificate .*: the key is protected by a password and none was given: put it in a file named by --tls-keystore-password-file/);
      expect(none.stderr).to.not.include('bad decrypt');
    });
  });

  describe('with a PKCS#12 keystore', () => {
    let dir: string;
    let keystore: string;
    let certPem: string;

    before(async function () {
      needTool(this, 'openssl', 'making the PKCS#12 fixture', 'version');
      dir = tempDir('grid-p12-');
      const pair = await pemPair(dir);
      certPem = pair.certPem;
      keystore = join(dir, 'server.p12');
      execFileSync('openssl', ['pkcs12', '-export', '-in', pair.cert, '-inkey', pair.key, '-out', keystore, '-passout', 'pass:p12-secret']);
      writeFileSync(join(dir, 'password.txt'), 'p12-secret\n', { mode: 0o600 });
    });
    after(() => dir && rmSync(dir, { recursive: true, force: true }));

    it('serves it with --tls-keystore and its password', async () => {
      await withServer({ tlsPort: 0, tlsKeystore: keystore, tlsKeystorePassword: 'p12-secret' }, async (server) => {
        expect(server.running.tls!.fingerprint).to.equal(fingerprintOf(certPem));
        await expectServes(server.running.tls!.url, certPem);
        const config = await server.as('admin').get('/rest/v2/server/config');
        expect(config.text).to.include(keystore).and.not.include('p12-secret');
      });
    });

    for (const [how, args, env] of [
      ['a password file', ['--tls-keystore-password-file', 'PWFILE'], {}],
      ['GRID_TLS_KEYSTORE_PASSWORD', [], { GRID_TLS_KEYSTORE_PASSWORD: 'p12-secret' }],
    ] as const) {
      it(`takes the password from ${how}: prints the https URL and the fingerprint, never the password`, async () => {
        const data = join(dir, `data-${how.length}`);
        const proc = await spawnServer(['--data', data, '--tls-port', '0', '--tls-keystore', keystore, ...args.map((a) => a.replace('PWFILE', join(dir, 'password.txt')))], env);
        try {
          expect(proc.output()).to.match(/listening on http:\/\/127\.0\.0\.1:\d+ and https:\/\/127\.0\.0\.1:\d+ /);
          expect(proc.output()).to.include(`SHA-256 fingerprint: ${fingerprintOf(certPem)}`);
          expect(proc.output()).to.not.include('p12-secret');
          const https = /and (https:\/\/\S+)/.exec(proc.output())![1];
          const r = await http1Transport(https, { ca: certPem }).request('GET', '/rest/v2/container/health/status');
          expect(r.status).to.equal(200);
        } finally {
          proc.child.kill('SIGTERM');
          await waitForExit(proc.child);
        }
      });
    }

    it('never shows a password given on the command line in /server/env or the server report', async () => {
      const proc = await spawnServer(['--data', join(dir, 'data-argv'), '--no-auth', '--tls-port', '0', '--tls-keystore', keystore, '--tls-keystore-password', 'p12-secret']);
      try {
        const env = await (await fetch(`${proc.url}/rest/v2/server/env`)).json() as Record<string, string>;
        expect(env['process.argv']).to.contain('--tls-keystore-password ***').and.not.contain('p12-secret');
        const report = gunzipSync(Buffer.from(await (await fetch(`${proc.url}/rest/v2/server/report`)).arrayBuffer()));
        expect(report.includes('--tls-keystore-password ***'), 'the report holds the command line').to.equal(true);
        expect(report.includes('p12-secret'), 'but not the password').to.equal(false);
      } finally {
        proc.child.kill('SIGTERM');
        await waitForExit(proc.child);
      }
    });

    it('refuses to start without a password, saying one is needed and how to give it', () => {
      const r = runGrid(['start', '--data', join(dir, 'data-none'), '--port', '0', '--tls-port', '0', '--tls-keystore', keystore]);
      expect(r.status).to.equal(2);
      expect(r.stderr).to.equal(`grid: cannot use TLS certificate ${keystore}: the keystore is protected by a password and none was given: `
        + 'put it in a file named by --tls-keystore-password-file (or tls-keystore-password-file in the configuration file), or in GRID_TLS_KEYSTORE_PASSWORD\n');
      expect(r.stdout).to.not.include('password:');
    });

    it('refuses to start with a wrong password, saying so', () => {
      const r = runGrid(['start', '--data', join(dir, 'data-wrong'), '--port', '0', '--tls-port', '0', '--tls-keystore', keystore, '--tls-keystore-password', 'wrong']);
      expect(r.status).to.equal(2);
      expect(r.stderr).to.include('cannot use TLS certificate').and.include('wrong password?');
    });

    it('refuses a keystore in a legacy encryption (older keytool, RC2-40) with a way to convert it', function () {
      const legacy = join(dir, 'legacy.p12');
      const pem = join(dir, 'legacy-src.pem');
      writeFileSync(pem, execFileSync('openssl', ['pkcs12', '-in', keystore, '-nodes', '-passin', 'pass:p12-secret']));
      try {
        execFileSync('openssl', ['pkcs12', '-export', '-legacy', '-in', pem, '-out', legacy, '-passout', 'pass:p12-secret'], { stdio: 'ignore' });
      } catch {
        this.skip(); // this openssl cannot write the legacy format
      }
      const r = runGrid(['start', '--data', join(dir, 'data-legacy'), '--port', '0', '--tls-port', '0', '--tls-keystore', legacy, '--tls-keystore-password', 'p12-secret']);
      expect(r.status).to.equal(2);
      expect(r.stderr).to.include(`cannot use TLS certificate ${legacy}`).and.include('legacy PKCS#12').and.include('openssl pkcs12 -legacy');
    });
  });

  describe('headers and connectors', () => {
    const server = useServer({ tlsPort: 0 });

    it('adds Strict-Transport-Security to browser answers over TLS (h2 and HTTP/1.1), errors included, never over plain HTTP', async () => {
      const ca = readFileSync(join(server.dataDir, 'tls', 'self-signed-cert.pem'));
      const h2 = h2Transport(server.running.tls!.url, { ca });
      try {
        for (const t of [h2, http1Transport(server.running.tls!.url, { ca })]) {
          const ok = await t.request('GET', '/rest/v2/caches', { headers: { ...basic('admin'), ...BROWSER } });
          expect(ok.headers['strict-transport-security']).to.equal(HSTS);
          expect(ok.headers['x-frame-options']).to.equal('sameorigin');
          const denied = await t.request('GET', '/rest/v2/caches', { headers: BROWSER });
          expect([denied.status, denied.headers['strict-transport-security']]).to.deep.equal([401, HSTS]);
          const notBrowser = await t.request('GET', '/rest/v2/caches', { headers: basic('admin') });
          expect(notBrowser.headers['strict-transport-security']).to.equal(undefined);
        }
      } finally {
        h2.close();
      }
      const plain = await server.as('admin').get('/rest/v2/caches', BROWSER);
      expect(plain.headers.get('x-frame-options')).to.equal('sameorigin');
      expect(plain.headers.get('strict-transport-security')).to.equal(null);
    });

    it('lists the TLS connector next to the plain one, each with its port', async () => {
      const admin = server.as('admin');
      expect((await admin.get('/rest/v2/server/connectors')).json()).to.deep.equal(['rest', 'rest-tls']);
      expect((await admin.get('/rest/v2/server/connectors/rest')).json<{ port: number }>().port).to.equal(server.running.port);
      expect((await admin.get('/rest/v2/server/connectors/rest-tls')).json<{ port: number }>().port).to.equal(server.running.tls!.port);
      expect((await server.as('observer').get('/rest/v2/server/connectors/rest-tls')).status).to.equal(403);
    });
  });
});

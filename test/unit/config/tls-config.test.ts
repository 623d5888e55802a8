import { expect } from 'chai';
import { rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigError, readConfigFile, resolveConfig } from '../../../src/config/server-config';
import { tempDir } from '../../support/server';

describe('TLS settings (tls-config)', () => {
  let dir: string;
  before(() => { dir = tempDir('grid-tls-config-'); });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('has no TLS listener unless tls-port is given', () => {
    expect(resolveConfig({}, {}, {}).tls).to.equal(undefined);
  });

  it('reads every tls-* key of the configuration file; flags win; paths are made absolute', () => {
    const path = join(dir, 'tls.yaml');
    writeFileSync(path, 'server:\n  tls-port: 11443\n  tls-keystore: ks.p12\n  tls-keystore-password: from-file\n');
    const file = readConfigFile(path);
    expect(file).to.deep.equal({ tlsPort: 11443, tlsKeystore: 'ks.p12', tlsKeystorePassword: 'from-file' });
    expect(resolveConfig(file, {}, {}).tls).to.deep.equal({ port: 11443, keystoreFile: resolve('ks.p12'), certFile: undefined, keyFile: undefined, password: 'from-file' });
    expect(resolveConfig(file, { tlsPort: 8443, tlsKeystorePassword: 'from-flag' }, {}).tls).to.include({ port: 8443, password: 'from-flag' });
  });

  it('takes the password from the flags, else the file, else GRID_TLS_KEYSTORE_PASSWORD; a password file gives its first line', () => {
    const pw = join(dir, 'pw.txt');
    writeFileSync(pw, 'secret-from-file\nignored\n');
    const env = { GRID_TLS_KEYSTORE_PASSWORD: 'from-env' };
    expect(resolveConfig({ tlsPort: 1 }, {}, env).tls!.password).to.equal('from-env');
    expect(resolveConfig({ tlsPort: 1, tlsKeystorePasswordFile: pw }, {}, env).tls!.password).to.equal('secret-from-file');
    expect(resolveConfig({ tlsPort: 1, tlsKeystorePasswordFile: pw }, { tlsKeystorePassword: 'flag' }, env).tls!.password).to.equal('flag');
  });

  const refusals: Array<[string, Parameters<typeof resolveConfig>[1], RegExp]> = [
    ['a certificate without tls-port', { tlsCert: 'c.pem', tlsKey: 'k.pem' }, /need tls-port/],
    ['a certificate without its key', { tlsPort: 1, tlsCert: 'c.pem' }, /go together/],
    ['a keystore and PEM files at once', { tlsPort: 1, tlsKeystore: 'k.p12', tlsCert: 'c.pem', tlsKey: 'k.pem' }, /either tls-keystore or/],
    ['the plain port again', { port: 8080, tlsPort: 8080 }, /already the plain port/],
    ['a password and a password file', { tlsPort: 1, tlsKeystorePassword: 'a', tlsKeystorePasswordFile: 'f' }, /either tls-keystore-password or/],
    ['a password file that cannot be read', { tlsPort: 1, tlsKeystorePasswordFile: '/nonexistent/pw' }, /cannot read tls-keystore-password-file/],
  ];
  for (const [what, flags, message] of refusals) {
    it(`refuses ${what} with a ConfigError`, () => {
      expect(() => resolveConfig({}, flags, {})).to.throw(ConfigError, message);
    });
  }

  it('refuses a bad tls-port in the file', () => {
    const path = join(dir, 'bad.yaml');
    writeFileSync(path, 'tls-port: https');
    expect(() => readConfigFile(path)).to.throw(ConfigError, /tls-port: 'https' is not a port number/);
  });
});

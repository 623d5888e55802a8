import { expect } from 'chai';
import { redactedArgv } from '../../../src/model/redacted-argv';

describe('redactedArgv (GET /server/env, the server report)', () => {
  it('hides the value of a password flag, given apart or with =', () => {
    expect(redactedArgv(['node', 'grid', 'start', '--tls-keystore-password', 'hunter2', '--port', '0']))
      .to.deep.equal(['node', 'grid', 'start', '--tls-keystore-password', '***', '--port', '0']);
    expect(redactedArgv(['--tls-keystore-password=hunter2'])).to.deep.equal(['--tls-keystore-password=***']);
  });

  it('hides secret -D properties, joined or apart, and keeps the others', () => {
    expect(redactedArgv(['-Dapp.db.password=hunter2', '-D', 'vault.token=abc', '-Dgrid.server.rest.cors-allow=https://a.example']))
      .to.deep.equal(['-Dapp.db.password=***', '-D', 'vault.token=***', '-Dgrid.server.rest.cors-allow=https://a.example']);
  });

  it('keeps paths of password files and everything else as given', () => {
    const argv = ['--tls-keystore-password-file', '/etc/grid/pw', '--data', '/srv/password-manager-data', '--tls-keystore', 'ks.p12'];
    expect(redactedArgv(argv)).to.deep.equal(argv);
  });

  it('a password flag at the end (no value) stays as it is', () => {
    expect(redactedArgv(['--tls-keystore-password'])).to.deep.equal(['--tls-keystore-password']);
  });
});

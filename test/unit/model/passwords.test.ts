import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { digestHa1, hashPassword, REALM, UNKNOWN_USER_HASH, verifyPassword } from '../../../src/model/security/passwords';

const md5 = (text: string): string => createHash('md5').update(text, 'utf8').digest('hex');
const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

describe('hashPassword / verifyPassword', () => {
  const password = 'correct horse battery staple';
  let stored: string;
  before(async () => {
    stored = await hashPassword(password);
  });

  it('verifies the password it hashed', async () => {
    expect(await verifyPassword(password, stored)).to.equal(true);
  });

  it('refuses a wrong password', async () => {
    expect(await verifyPassword('correct horse battery stapler', stored)).to.equal(false);
    expect(await verifyPassword('', stored)).to.equal(false);
  });

  it('verifies unknown users against a hash made as every user\'s is, which no password matches', async () => {
    // the same scheme, cost parameters and part lengths: the verification costs what a real one does
    const shape = (hash: string) => hash.split('$').map((part, i) => (i >= 4 ? Buffer.from(part, 'base64').length : part));
    expect(shape(UNKNOWN_USER_HASH)).to.deep.equal(shape(stored));
    expect(await verifyPassword(password, UNKNOWN_USER_HASH)).to.equal(false);
    expect(await verifyPassword('', UNKNOWN_USER_HASH)).to.equal(false);
  });

  it('never contains the password, in clear or in Base64', () => {
    expect(stored).to.not.include(password);
    expect(stored).to.not.include(Buffer.from(password).toString('base64'));
  });

  it('salts: the same password hashes differently each time, and both verify', async () => {
    const again = await hashPassword(password);
    expect(again).to.not.equal(stored);
    expect(await verifyPassword(password, again)).to.equal(true);
  });

  it('handles non-ASCII passwords', async () => {
    const h = await hashPassword('pässwörd€');
    expect(await verifyPassword('pässwörd€', h)).to.equal(true);
    expect(await verifyPassword('passwort€', h)).to.equal(false);
  });

  it('refuses anything stored in an unknown format', async () => {
    expect(await verifyPassword(password, password)).to.equal(false);
    expect(await verifyPassword(password, '')).to.equal(false);
  });
});

describe('digestHa1 (RFC 7616 HA1 = H(user:realm:password))', () => {
  it('uses the realm "default"', () => {
    expect(REALM).to.equal('default');
  });

  it('MD5 is md5("user:default:password") in lowercase hex', () => {
    expect(digestHa1('MD5', 'alice', 's3cret')).to.equal(md5('alice:default:s3cret'));
  });

  it('SHA-256 is sha256("user:default:password") in lowercase hex', () => {
    expect(digestHa1('SHA-256', 'alice', 's3cret')).to.equal(sha256('alice:default:s3cret'));
  });

  it('hashes the UTF-8 bytes', () => {
    expect(digestHa1('MD5', 'jörg', 'pä')).to.equal(md5('jörg:default:pä'));
  });
});

import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { isSealed, openSecret, sealSecret } from '../../../src/model/security/sealed-secret';

describe('sealSecret / openSecret', () => {
  const key = randomBytes(32);

  it('opens what it sealed, with the same key and context', () => {
    const sealed = sealSecret(key, 'MD5\u0000admin', 'abc123');
    expect(isSealed(sealed)).to.equal(true);
    expect(sealed).to.not.contain('abc123');
    expect(openSecret(key, 'MD5\u0000admin', sealed)).to.equal('abc123');
  });

  it('seals the same text differently each time', () => {
    expect(sealSecret(key, 'c', 'x')).to.not.equal(sealSecret(key, 'c', 'x'));
  });

  it('gives nothing for another key, another context (a value copied to another user) or a tampered value', () => {
    const sealed = sealSecret(key, 'MD5\u0000admin', 'abc123');
    expect(openSecret(randomBytes(32), 'MD5\u0000admin', sealed)).to.equal(undefined);
    expect(openSecret(key, 'MD5\u0000mallory', sealed)).to.equal(undefined);
    const parts = sealed.split('$');
    parts[2] = Buffer.from('zzzzzz').toString('base64url');
    expect(openSecret(key, 'MD5\u0000admin', parts.join('$'))).to.equal(undefined);
    expect(openSecret(key, 'MD5\u0000admin', 'e99a18c428cb38d5f260853678922e03')).to.equal(undefined);
  });
});

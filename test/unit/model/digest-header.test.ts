import { expect } from 'chai';
import { parseDigestFields } from '../../../src/model/security/digest-header';

// The credentials part of `Authorization: Digest …` (RFC 7616 §3.4), as a browser sends it.
const HEADER = [
  'username="alice"', 'realm="default"', 'nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093"', 'uri="/rest/v2/caches/default/k"',
  'algorithm=MD5', 'qop=auth', 'nc=00000001', 'cnonce="0a4f113b"', 'response="6629fae49393a05397450978507c4ef1"',
].join(', ');

describe('parseDigestFields', () => {
  it('reads quoted and unquoted values', () => {
    expect(parseDigestFields(HEADER)).to.deep.equal({
      username: 'alice', realm: 'default', nonce: 'dcd98b7102dd2f0e8b11d0f600bfb0c093', uri: '/rest/v2/caches/default/k',
      algorithm: 'MD5', qop: 'auth', nc: '00000001', cnonce: '0a4f113b', response: '6629fae49393a05397450978507c4ef1',
    });
  });

  it('unescapes backslash-escaped quotes and backslashes inside quoted values', () => {
    const f = parseDigestFields('username="al\\"ice\\\\", nonce="n", uri="/", response="r"');
    expect(f?.username).to.equal('al"ice\\');
  });

  it('keeps commas and spaces inside quoted values', () => {
    const f = parseDigestFields('username="a", nonce="n", uri="/rest/v2/caches?action=a,b c", response="r"');
    expect(f?.uri).to.equal('/rest/v2/caches?action=a,b c');
  });

  it('reads field names without case and tolerates spaces around = and ,', () => {
    const f = parseDigestFields('UserName = "alice" ,Nonce="n",  URI="/",Response=abc');
    expect(f).to.include({ username: 'alice', nonce: 'n', uri: '/', response: 'abc' });
  });

  for (const missing of ['username', 'nonce', 'uri', 'response']) {
    it(`is undefined when the required field ${missing} is missing`, () => {
      const without = HEADER.split(', ').filter((p) => !p.startsWith(`${missing}=`)).join(', ');
      expect(parseDigestFields(without)).to.equal(undefined);
    });
  }

  it('is undefined when a required field is empty', () => {
    expect(parseDigestFields('username="", nonce="n", uri="/", response="r"')).to.equal(undefined);
  });

  const garbage = ['', 'garbage', 'username', '=alice', 'username="alice', 'username="alice" nonce="n" uri="/" response="r"', '"quoted"=x'];
  for (const text of garbage) {
    it(`is undefined for ${JSON.stringify(text)}`, () => expect(parseDigestFields(text)).to.equal(undefined));
  }

  it('reads a user name sent as UTF-8 bytes (handed over as Latin-1) back as its text, and username* (RFC 8187)', () => {
    const latin1 = Buffer.from('username="jürgen", nonce="n", uri="/", response="r"', 'utf8').toString('latin1');
    expect(parseDigestFields(latin1)?.username).to.equal('jürgen');
    expect(parseDigestFields("username*=UTF-8''j%C3%BCrgen, nonce=\"n\", uri=\"/\", response=\"r\"")?.username).to.equal('jürgen');
    expect(parseDigestFields('username*=bogus, nonce="n", uri="/", response="r"')).to.equal(undefined);
    // bytes that are not UTF-8 stay as sent (a Latin-1 client): ü alone is 0xFC
    expect(parseDigestFields('username="j\u00fcrgen", nonce="n", uri="/", response="r"')?.username).to.equal('j\u00fcrgen');
  });

  it('parses again after an undefined result (no state left behind)', () => {
    expect(parseDigestFields('username="alice')).to.equal(undefined);
    expect(parseDigestFields(HEADER)?.username).to.equal('alice');
  });
});

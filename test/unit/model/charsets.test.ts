import { expect } from 'chai';
import { UnsupportedCharsetError } from '../../../src/errors';
import { recode, resolveCharset, UTF_8 } from '../../../src/model/media/charsets';

describe('charsets (java.nio names, decode with U+FFFD, encode with ?)', () => {
  it('resolves Java names and aliases case-insensitively to one charset each', () => {
    expect(resolveCharset('latin1')).to.equal(resolveCharset('ISO-8859-1'));
    expect(resolveCharset('utf8')).to.equal(UTF_8);
    expect(resolveCharset('ASCII').name).to.equal('US-ASCII');
  });

  it('refuses other names with the name as the message', () => {
    expect(() => resolveCharset('windows-1252')).to.throw(UnsupportedCharsetError, /^windows-1252$/);
  });

  it('decodes ISO-8859-1 exactly (0x80-0x9f are C1 controls, not windows-1252)', () => {
    expect(resolveCharset('ISO-8859-1').decode(Buffer.from([0x80, 0xe9]))).to.equal('\u0080é');
  });

  it('decodes US-ASCII high bytes and malformed UTF-16 as U+FFFD', () => {
    expect(resolveCharset('US-ASCII').decode(Buffer.from([0x61, 0xe9]))).to.equal('a\uFFFD');
    expect(resolveCharset('UTF-16BE').decode(Buffer.from([0xd8, 0x00, 0x00, 0x61, 0x62]))).to.equal('\uFFFDa\uFFFD');
  });

  it('encodes one ? per character outside the charset, a surrogate pair being one character', () => {
    expect(resolveCharset('ISO-8859-1').encode('é😀€')).to.deep.equal(Buffer.from([0xe9, 0x3f, 0x3f]));
  });

  it('reads a UTF-16 byte order mark and writes big-endian with one', () => {
    const utf16 = resolveCharset('UTF-16');
    expect(utf16.decode(Buffer.from([0xff, 0xfe, 0x61, 0x00]))).to.equal('a');
    expect(utf16.decode(Buffer.from([0x00, 0x61]))).to.equal('a');
    expect(utf16.encode('a')).to.deep.equal(Buffer.from([0xfe, 0xff, 0x00, 0x61]));
  });

  it('does not copy when both charsets are one', () => {
    const bytes = Buffer.from('x');
    expect(recode(bytes, UTF_8, resolveCharset('UTF8'))).to.equal(bytes);
  });
});

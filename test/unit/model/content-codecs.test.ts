import { expect } from 'chai';
import { EncodingError } from '../../../src/errors';
import { decodeContent, decodeUrlForm, encodeContent, encodeUrlForm } from '../../../src/model/content-codecs';
import { parseMediaType } from '../../../src/model/media-type';

const mt = (s: string) => parseMediaType(s);

describe('content codecs (commons MediaTypeCodecs: RFC4648Codec, UrlFormCodec)', () => {
  describe('decodeContent', () => {
    it('turns encoding=hex text into the bytes it spells and drops the parameter', () => {
      const d = decodeContent(Buffer.from('0x010203'), mt('application/octet-stream; encoding=hex'));
      expect(d.bytes.toString('hex')).to.equal('010203');
      expect(d.type.params).to.deep.equal({});
      expect(d.type.raw).to.equal('application/octet-stream');
    });

    it('turns encoding=base64 text into bytes', () => {
      expect(decodeContent(Buffer.from('AQID'), mt('application/octet-stream;encoding=base64')).bytes.toString('hex')).to.equal('010203');
    });

    it('reads form-urlencoded content as UTF-8 text: + is a space, %XX a byte (java.net.URLDecoder)', () => {
      const d = decodeContent(Buffer.from('word1+word2%21%C3%A9'), mt('application/x-www-form-urlencoded'));
      expect(d.bytes.toString('utf8')).to.equal('word1 word2!é');
      expect(d.type.type + '/' + d.type.subtype).to.equal('text/plain');
    });

    it('keeps other content as it is (same buffer, no copy)', () => {
      const b = Buffer.from('abc');
      expect(decodeContent(b, mt('text/plain')).bytes).to.equal(b);
    });

    it('refuses an unknown encoding and bad hex with 400', () => {
      expect(() => decodeContent(Buffer.from('x'), mt('application/octet-stream; encoding=rot13'))).to.throw(EncodingError, "Unsupported encoding 'rot13'");
      expect(() => decodeContent(Buffer.from('0102'), mt('application/octet-stream; encoding=hex'))).to.throw(EncodingError, 'Illegal hex literal!');
    });
  });

  describe('decodeUrlForm errors (400, java.net.URLDecoder messages)', () => {
    it('an escape without two characters after %', () => {
      expect(() => decodeUrlForm('a%4')).to.throw(EncodingError, 'URLDecoder: Incomplete trailing escape (%) pattern');
    });

    it('an escape that is not hex', () => {
      expect(() => decodeUrlForm('%zz')).to.throw(EncodingError, 'URLDecoder: Illegal hex characters in escape (%) pattern - Error at index 0 in: "zz"');
    });
  });

  describe('encodeContent', () => {
    it('writes hex as 0x + lowercase, Base64 with padding', () => {
      expect(encodeContent(Buffer.from([1, 2, 255]), mt('application/octet-stream; encoding=hex')).toString()).to.equal('0x0102ff');
      expect(encodeContent(Buffer.from([1, 2]), mt('application/octet-stream; encoding=base64')).toString()).to.equal('AQI=');
    });

    it('writes form-urlencoded as java.net.URLEncoder does', () => {
      expect(encodeUrlForm(Buffer.from('a b&c=é*._-')).toString()).to.equal('a+b%26c%3D%C3%A9*._-');
    });

    it('round-trips form content', () => {
      const text = 'word1 word2 +%&é';
      expect(decodeUrlForm(encodeUrlForm(Buffer.from(text)).toString()).toString()).to.equal(text);
    });
  });
});

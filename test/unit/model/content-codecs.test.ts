import { expect } from 'chai';
import fc from 'fast-check';
import { EncodingError } from '../../../src/errors';
import { decodeContent, decodeUrlForm, encodeContent, encodeUrlForm } from '../../../src/model/media/content-codecs';
import { parseMediaType } from '../../../src/model/media/media-type';

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
      expect(() => decodeUrlForm(Buffer.from('a%4'))).to.throw(EncodingError, 'URLDecoder: Incomplete trailing escape (%) pattern');
    });

    it('an escape that is not hex', () => {
      expect(() => decodeUrlForm(Buffer.from('%zz'))).to.throw(EncodingError, 'URLDecoder: Illegal hex characters in escape (%) pattern - Error at index 0 in: "zz"');
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
      expect(decodeUrlForm(encodeUrlForm(Buffer.from(text))).toString()).to.equal(text);
    });
  });

  describe('form-urlencoded, byte for byte as java.net.URLEncoder and URLDecoder', () => {
    // what the codecs compute, written one character at a time as the JDK does
    const referenceEncode = (bytes: Buffer): string => {
      let out = '';
      for (const b of Buffer.from(bytes.toString('utf8'), 'utf8')) {
        const c = String.fromCharCode(b);
        out += /[A-Za-z0-9.\-*_]/.test(c) ? c : b === 0x20 ? '+' : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
      }
      return out;
    };
    const referenceDecode = (text: string): Buffer | string => {
      const out: number[] = [];
      for (let i = 0; i < text.length; i++) {
        if (text[i] === '+') out.push(0x20);
        else if (text[i] === '%') {
          if (i + 2 >= text.length) return 'URLDecoder: Incomplete trailing escape (%) pattern';
          const pair = text.slice(i + 1, i + 3);
          const bad = /[^0-9a-fA-F]/.exec(pair);
          if (bad) return `URLDecoder: Illegal hex characters in escape (%) pattern - Error at index ${bad.index} in: "${pair}"`;
          out.push(parseInt(pair, 16));
          i += 2;
        } else {
          const c = String.fromCodePoint(text.codePointAt(i)!);
          out.push(...Buffer.from(c, 'utf8'));
          i += c.length - 1;
        }
      }
      return Buffer.from(out);
    };
    const decoded = (bytes: Buffer): Buffer | string => {
      try {
        return decodeUrlForm(bytes);
      } catch (err) {
        return (err as Error).message;
      }
    };
    const formBytes = fc.oneof(
      fc.uint8Array({ maxLength: 24 }).map((u) => Buffer.from(u)),
      fc.array(fc.constantFrom('%', '+', '4', '1', 'z', 'F', 'é', '😀', ' ', 'a', '%C3%A9', '\0', '~', '!', '*'), { maxLength: 12 })
        .map((parts) => Buffer.from(parts.join(''), 'utf8')),
    );

    it('encodes and decodes any bytes as the reference does, malformed UTF-8 and bad escapes included', () => {
      fc.assert(fc.property(formBytes, (bytes) => {
        expect(encodeUrlForm(bytes).toString('latin1')).to.equal(referenceEncode(bytes));
        const expected = referenceDecode(bytes.toString('utf8'));
        const actual = decoded(bytes);
        expect(typeof actual === 'string' ? actual : actual.toString('hex')).to.equal(typeof expected === 'string' ? expected : expected.toString('hex'));
      }), { numRuns: 20_000 });
    });

    it('keeps a character outside the BMP whole (it was written as two U+FFFD)', () => {
      expect(decodeUrlForm(Buffer.from('a😀+b')).toString()).to.equal('a😀 b');
    });

    it('answers an empty body with an empty one', () => {
      expect(decodeUrlForm(Buffer.alloc(0)).length).to.equal(0);
      expect(encodeUrlForm(Buffer.alloc(0)).length).to.equal(0);
    });
  });
});

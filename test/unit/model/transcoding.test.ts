import { expect } from 'chai';
import { TranscoderNotFoundError } from '../../../src/errors';
import { parseMediaType } from '../../../src/model/media/media-type';
import { NO_TYPES } from '../../../src/model/protobuf/protostream-json';
import { isConvertible, transcode } from '../../../src/model/media/transcoding';

const OBJ = 'application/x-java-object';
const OCTET = 'application/octet-stream';
const FORM = 'application/x-www-form-urlencoded';
const TEXT = 'text/plain';
const UNKNOWN = 'application/unknown';
const JSON_T = 'application/json';
const XML = 'application/xml';
const PROTO = 'application/x-protostream';
const SER = 'application/x-java-serialized-object';
const JBOSS = 'application/x-jboss-marshalling';
const ALL = [OBJ, OCTET, FORM, TEXT, UNKNOWN, JSON_T, XML, PROTO, SER, JBOSS];

// docs/reference/media-types.md#transcoders: each transcoder with the types it pairs with (both directions).
const SUPPORTED: Record<string, string[]> = {
  [OBJ]: [OCTET, FORM, TEXT, UNKNOWN, JSON_T, XML, PROTO, SER, JBOSS],
  [OCTET]: [OBJ, FORM, TEXT, UNKNOWN, JSON_T, XML, PROTO],
  [FORM]: [OBJ, OCTET, TEXT, UNKNOWN, JSON_T, XML],
  [TEXT]: [OBJ, OCTET, FORM, UNKNOWN, JSON_T, XML, PROTO],
  [UNKNOWN]: [OBJ, OCTET, FORM, TEXT, JSON_T, XML, PROTO, SER, JBOSS],
  [JSON_T]: [OBJ, OCTET, FORM, TEXT, UNKNOWN, PROTO, SER, JBOSS],
  [XML]: [OBJ, OCTET, FORM, TEXT, UNKNOWN],
  [PROTO]: [OBJ, OCTET, TEXT, UNKNOWN, JSON_T],
  [SER]: [OBJ, UNKNOWN, JSON_T],
  [JBOSS]: [OBJ, UNKNOWN, JSON_T],
};

const mt = (s: string) => parseMediaType(s);
const convert = (value: string | Buffer, from: string, to: string): Buffer =>
  transcode(typeof value === 'string' ? Buffer.from(value) : value, mt(from), mt(to), NO_TYPES);
const hex = (s: string): Buffer => Buffer.from(s.replace(/\s/g, ''), 'hex');

describe('transcoder registry (docs/reference/media-types.md#transcoders)', () => {
  describe('the conversion matrix', () => {
    for (const from of ALL) {
      for (const to of ALL) {
        const expected = from === to || SUPPORTED[from].includes(to);
        it(`${from} → ${to}: ${expected ? 'supported' : 'unsupported'}`, () => {
          expect(isConvertible(from, to)).to.equal(expected);
        });
      }
    }

    it('supports nothing for types outside the registry except itself and */*', () => {
      expect(isConvertible('text/html', TEXT)).to.equal(false);
      expect(isConvertible('image/png', 'image/png')).to.equal(true);
      expect(isConvertible('image/png', '*/*')).to.equal(true);
    });

    it('refuses an unsupported pair with ISPN000492', () => {
      expect(() => convert('<a/>', XML, JSON_T)).to.throw(TranscoderNotFoundError, "ISPN000492: Cannot find transcoder between 'application/xml' to 'application/json'");
    });
  });

  describe('bytes of primitive conversions', () => {
    const rows: Array<[string, string | Buffer, string, string, string]> = [
      // description, input, from, to, expected bytes (hex)
      ['text kept as octet-stream', 'abc', TEXT, OCTET, '616263'],
      ['plain text wrapped as XML <string>', 'a<b', TEXT, XML, Buffer.from('<string>a&lt;b</string>').toString('hex')],
      ['well-formed XML text kept', '<a>1</a>', TEXT, XML, Buffer.from('<a>1</a>').toString('hex')],
      ['Integer as XML <int>', '42', `${OBJ}; type=java.lang.Integer`, XML, Buffer.from('<int>42</int>').toString('hex')],
      ['XML <int> as a Java object (text form)', '<int>42</int>', XML, OBJ, Buffer.from('42').toString('hex')],
      ['Integer as JSON literal', '42', `${OBJ}; type=java.lang.Integer`, JSON_T, Buffer.from('42').toString('hex')],
      ['Double as JSON literal', '1.5', `${OBJ}; type=java.lang.Double`, JSON_T, Buffer.from('1.5').toString('hex')],
      ['String as a JSON string', 'abc', `${OBJ}; type=java.lang.String`, JSON_T, Buffer.from('"abc"').toString('hex')],
      ['JSON number as a Java Integer', '42', JSON_T, SER, 'aced0005 7372 0011 6a6176612e6c616e672e496e7465676572 12e2a0a4f7818738 020001 49 0005 76616c7565 78 7200106a6176612e6c616e672e4e756d626572 86ac951d0b94e08b 020000 7870 0000002a'],
      ['String as Java serialization', 'abc', `${OBJ}; type=java.lang.String`, SER, 'aced0005 74 0003 616263'],
      ['Java serialization as text', hex('aced0005 74 0003 616263'), SER, OBJ, '616263'],
      ['String as JBoss marshalling', 'abc', `${OBJ}; type=java.lang.String`, JBOSS, '03 3e 03 616263'],
      ['text as protostream (WrappedMessage string)', 'abc', TEXT, PROTO, '4a 03 616263'],
      ['octet-stream as protostream (WrappedMessage bytes)', hex('0102'), OCTET, PROTO, '52 02 0102'],
      ['Integer as protostream', '2', `${OBJ}; type=java.lang.Integer`, PROTO, '28 02'],
      ['protostream Integer as text', hex('28 02'), PROTO, TEXT, '32'],
      ['protostream bytes as octet-stream', hex('52 02 0102'), PROTO, OCTET, '0102'],
      ['protostream int32 as canonical JSON', hex('28 02'), PROTO, JSON_T, Buffer.from('{"_type":"int32","_value":2}').toString('hex')],
      ['canonical JSON string as protostream', '{"_type":"string","_value":"abc"}', JSON_T, PROTO, '4a 03 616263'],
      ['unknown kept as XML (opaque bytes)', 'v', UNKNOWN, XML, '76'],
    ];
    for (const [name, input, from, to, expected] of rows) {
      it(`${name}: ${from} → ${to}`, () => {
        expect(convert(input, from, to).toString('hex')).to.equal(hex(expected).toString('hex'));
      });
    }

    it('refuses text that is not JSON as JSON', () => {
      expect(() => convert('abc', TEXT, JSON_T)).to.throw('Invalid JSON content: abc');
    });

    it('refuses JSON of an unregistered _type with Unknown type name', () => {
      expect(() => convert('{"_type":"future.Entity"}', JSON_T, PROTO)).to.throw('Unknown type name : future.Entity');
    });
  });
});

import { expect } from 'chai';
import { EncodingError, GridError } from '../../../src/errors';
import { DEFAULT_KEY_TYPE, fromStoredKey, storedKeyText, toStoredKey } from '../../../src/model/media/key-codec';
import { parseMediaType } from '../../../src/model/media/media-type';
import { NO_TYPES } from '../../../src/model/protobuf/protostream-json';

const UNCONFIGURED = parseMediaType('application/unknown');

/** A key as an unconfigured cache (`application/unknown` keys) stores it. */
function key(segment: string, keyContentType?: string): Buffer {
  return toStoredKey(Buffer.from(segment, 'utf8'), keyContentType === undefined ? DEFAULT_KEY_TYPE : parseMediaType(keyContentType), UNCONFIGURED, NO_TYPES);
}

function rejection(segment: string, keyContentType: string): GridError {
  try {
    key(segment, keyContentType);
  } catch (err) {
    expect(err).to.be.instanceOf(EncodingError);
    return err as GridError;
  }
  expect.fail(`expected ${JSON.stringify(segment)} as ${keyContentType} to be rejected`);
}

const bytes = (...b: number[]): Buffer => Buffer.from(b);
const ff = (n: number): number[] => new Array<number>(n).fill(0xff);
const javaType = (t: string): string => `application/x-java-object;type=${t}`;

describe('toStoredKey in an unconfigured cache: text and raw keys (docs/reference/media-types.md#request-defaults)', () => {
  it('without Key-Content-Type takes the UTF-8 bytes of the path segment', () => {
    expect(key('käse')).to.deep.equal(Buffer.from('käse', 'utf8'));
  });

  it('text/plain takes the UTF-8 bytes of the path segment', () => {
    expect(key('käse', 'text/plain; charset=UTF-8')).to.deep.equal(Buffer.from('käse', 'utf8'));
  });

  it('application/octet-stream without encoding keeps the raw segment bytes (no Base64 decoding)', () => {
    expect(key('aGVsbG8=', 'application/octet-stream')).to.deep.equal(Buffer.from('aGVsbG8=', 'utf8'));
  });

  it('application/x-java-object;type=java.lang.String is the same key as no header (docs/reference/media-types.md#request-defaults)', () => {
    expect(key('k1', javaType('java.lang.String'))).to.deep.equal(key('k1'));
  });

  it('application/x-java-object without type reads the key as a String', () => {
    expect(key('k1', 'application/x-java-object')).to.deep.equal(key('k1'));
  });
});

describe('toStoredKey in an unconfigured cache: encoding=hex (docs/reference/media-types.md#content-encodings)', () => {
  it('decodes 0x + lowercase hex', () => {
    expect(key('0x0a0b', 'application/octet-stream; encoding=hex')).to.deep.equal(bytes(0x0a, 0x0b));
    expect(key('0xcafe', 'application/octet-stream;encoding=hex')).to.deep.equal(bytes(0xca, 0xfe));
  });

  it('decodes 0x alone as the empty key', () => {
    expect(key('0x', 'application/octet-stream; encoding=hex')).to.deep.equal(bytes());
  });

  it('rejects uppercase digits with 400 "Invalid digit found in hex format!"', () => {
    const err = rejection('0x0A0B', 'application/octet-stream; encoding=hex');
    expect(err.status).to.equal(400);
    expect(err.message).to.equal('Invalid digit found in hex format!');
  });

  it('rejects digits outside 0-9a-f with 400 "Invalid digit found in hex format!"', () => {
    expect(rejection('0x0g', 'application/octet-stream; encoding=hex').message).to.equal('Invalid digit found in hex format!');
  });

  it('rejects a value without the 0x prefix with 400 "Illegal hex literal!"', () => {
    const err = rejection('0a0b', 'application/octet-stream; encoding=hex');
    expect(err.status).to.equal(400);
    expect(err.message).to.equal('Illegal hex literal!');
  });

  it('rejects an odd number of digits with 400 "Illegal hex literal!"', () => {
    expect(rejection('0x0a0', 'application/octet-stream; encoding=hex').message).to.equal('Illegal hex literal!');
  });
});

describe('toStoredKey in an unconfigured cache: encoding=base64 (docs/reference/media-types.md#content-encodings)', () => {
  it('decodes standard Base64', () => {
    expect(key('aGVsbG8=', 'application/octet-stream; encoding=base64')).to.deep.equal(Buffer.from('hello'));
  });

  it('rejects text that is not Base64 with 400', () => {
    expect(rejection('!!!', 'application/octet-stream; encoding=base64').status).to.equal(400);
  });

  it('rejects an encoding it does not know with 400', () => {
    expect(rejection('abc', 'application/octet-stream; encoding=rot13').status).to.equal(400);
  });
});

// Expected bytes are org.infinispan.protostream.WrappedMessage written by hand from the protobuf wire
// format (docs/reference/media-types.md#wrapped-message): tag = field << 3 | wire type as a varint, then the value. Varints are
// little-endian groups of 7 bits, high bit = more; negative int32/int64 are sign-extended to 10 bytes.
describe('toStoredKey in an unconfigured cache: application/x-java-object scalars as WrappedMessage bytes (docs/reference/media-types.md#java-types, docs/reference/media-types.md#wrapped-message)', () => {
  const table: Array<[type: string, segment: string, expected: Buffer, why: string]> = [
    // Integer → wrappedInt32, field 5, varint: tag 5<<3|0 = 0x28.
    ['java.lang.Integer', '2', bytes(0x28, 0x02), 'tag 0x28, value 2'],
    ['java.lang.Integer', '0', bytes(0x28, 0x00), 'zero is written, not omitted'],
    ['java.lang.Integer', '300', bytes(0x28, 0xac, 0x02), '300 = 0b10_0101100 → 0xac 0x02'],
    ['java.lang.Integer', '2147483647', bytes(0x28, 0xff, 0xff, 0xff, 0xff, 0x07), 'Integer.MAX_VALUE'],
    ['java.lang.Integer', '-1', bytes(0x28, ...ff(9), 0x01), '-1 sign-extended to 10 bytes'],
    ['java.lang.Integer', '-2147483648', bytes(0x28, 0x80, 0x80, 0x80, 0x80, 0xf8, ...ff(4), 0x01), 'Integer.MIN_VALUE'],
    // Long → wrappedInt64, field 3, varint: tag 3<<3|0 = 0x18.
    ['java.lang.Long', '1', bytes(0x18, 0x01), 'tag 0x18, value 1'],
    ['java.lang.Long', '4294967296', bytes(0x18, 0x80, 0x80, 0x80, 0x80, 0x10), '2^32 is not truncated to 32 bits'],
    ['java.lang.Long', '9223372036854775807', bytes(0x18, ...ff(8), 0x7f), 'Long.MAX_VALUE'],
    ['java.lang.Long', '-2', bytes(0x18, 0xfe, ...ff(8), 0x01), '-2 as 10 bytes'],
    // Short → wrappedShort, field 21: tag 21<<3|0 = 168 → varint 0xa8 0x01.
    ['java.lang.Short', '5', bytes(0xa8, 0x01, 0x05), 'two-byte tag, value 5'],
    ['java.lang.Short', '32767', bytes(0xa8, 0x01, 0xff, 0xff, 0x01), 'Short.MAX_VALUE'],
    ['java.lang.Short', '-32768', bytes(0xa8, 0x01, 0x80, 0x80, 0xfe, ...ff(6), 0x01), 'Short.MIN_VALUE sign-extended'],
    // Byte → wrappedByte, field 22: tag 22<<3|0 = 176 → varint 0xb0 0x01.
    ['java.lang.Byte', '127', bytes(0xb0, 0x01, 0x7f), 'Byte.MAX_VALUE'],
    ['java.lang.Byte', '-1', bytes(0xb0, 0x01, ...ff(9), 0x01), '-1 sign-extended'],
    // Boolean → wrappedBool, field 8: tag 8<<3|0 = 0x40.
    ['java.lang.Boolean', 'true', bytes(0x40, 0x01), 'true is 1'],
    ['java.lang.Boolean', 'TRUE', bytes(0x40, 0x01), 'Boolean.parseBoolean ignores case'],
    ['java.lang.Boolean', 'false', bytes(0x40, 0x00), 'false is written as 0'],
    // Double → wrappedDouble, field 1, fixed64 little-endian: tag 1<<3|1 = 0x09.
    ['java.lang.Double', '1.5', bytes(0x09, 0, 0, 0, 0, 0, 0, 0xf8, 0x3f), '1.5 = 0x3ff8000000000000'],
    ['java.lang.Double', '-2', bytes(0x09, 0, 0, 0, 0, 0, 0, 0, 0xc0), '-2 = 0xc000000000000000'],
    // Float → wrappedFloat, field 2, fixed32 little-endian: tag 2<<3|5 = 0x15.
    ['java.lang.Float', '1.5', bytes(0x15, 0, 0, 0xc0, 0x3f), '1.5f = 0x3fc00000'],
    ['java.lang.Float', '-2', bytes(0x15, 0, 0, 0, 0xc0), '-2f = 0xc0000000'],
  ];
  for (const [type, segment, expected, why] of table) {
    it(`${type} ${segment} → ${expected.toString('hex')} (${why})`, () => {
      expect(key(segment, javaType(type)).toString('hex')).to.equal(expected.toString('hex'));
    });
  }

  it('ByteArray takes a 0x hex segment, like octet-stream;encoding=hex', () => {
    expect(key('0x0102ff', javaType('ByteArray'))).to.deep.equal(bytes(0x01, 0x02, 0xff));
  });

  it('Bytes is the same as ByteArray (docs/reference/media-types.md#request-defaults)', () => {
    expect(key('0x0102ff', javaType('Bytes'))).to.deep.equal(bytes(0x01, 0x02, 0xff));
  });

  it('ByteArray rejects hex without 0x with 400', () => {
    expect(rejection('0102', javaType('ByteArray')).status).to.equal(400);
  });
});

describe('toStoredKey in an unconfigured cache: values that do not fit the Java type answer 400', () => {
  const table: Array<[type: string, segment: string]> = [
    ['java.lang.Integer', '2147483648'], ['java.lang.Integer', '-2147483649'], ['java.lang.Integer', 'abc'],
    ['java.lang.Integer', '1.0'], ['java.lang.Integer', ''],
    ['java.lang.Long', '9223372036854775808'], ['java.lang.Long', '-9223372036854775809'], ['java.lang.Long', '12x'],
    ['java.lang.Short', '32768'], ['java.lang.Short', '-32769'], ['java.lang.Short', 'five'],
    ['java.lang.Byte', '128'], ['java.lang.Byte', '-129'], ['java.lang.Byte', '0x01'],
    ['java.lang.Double', 'abc'], ['java.lang.Double', ''],
    ['java.lang.Float', 'x'],
  ];
  for (const [type, segment] of table) {
    it(`${type} ${JSON.stringify(segment)} → 400`, () => expect(rejection(segment, javaType(type)).status).to.equal(400));
  }
});

describe('toStoredKey in an unconfigured cache: unsupported Java types', () => {
  it('answers 400 "Type X is unsupported"', () => {
    const err = rejection('2024-01-01', javaType('java.util.Date'));
    expect(err.status).to.equal(400);
    expect(err.message).to.equal('Type java.util.Date is unsupported');
  });
});

// The key conversion matrix (docs/reference/media-types.md#keys, docs/reference/media-types.md#protostream-json, docs/reference/media-types.md#wrapped-message): a key in each
// Key-Content-Type, stored by each key storage type. Expected bytes are hex; `!` + text is the
// error the request answers (400). WrappedMessage bytes as in the table above: string 0x4a,
// bytes 0x52, int32 0x28, int64 0x18, double 0x09, bool 0x40.
describe('toStoredKey: the key conversion matrix', () => {
  const STORAGES = ['application/unknown', 'text/plain', 'application/octet-stream', 'application/x-java-object', 'application/json', 'application/x-protostream'] as const;
  const w = (tag: string, text: string): string => tag + Buffer.from([Buffer.byteLength(text)]).toString('hex') + Buffer.from(text).toString('hex');
  const txt = (t: string): string => Buffer.from(t).toString('hex');
  const BAD_JSON = (t: string): string => `!Invalid JSON content: ${t}`;
  const NO_TRANSCODER = (from: string, to: string): string => `!ISPN000492: Cannot find transcoder between '${from}' to '${to}'`;
  const table: Array<[what: string, segment: string, keyType: string, expected: readonly [string, string, string, string, string, string]]> = [
    //                                            unknown        text           octet-stream   java-object           json                                   protostream
    ['text', 'k1', 'text/plain; charset=utf-8', [txt('k1'), txt('k1'), txt('k1'), w('4a', 'k1'), BAD_JSON('k1'), w('4a', 'k1')]],
    ['JSON string', '"k1"', 'application/json', [txt('"k1"'), txt('"k1"'), txt('"k1"'), w('4a', 'k1'), txt('"k1"'), w('4a', 'k1')]],
    ['canonical protostream JSON', '{"_type":"string","_value":"k1"}', 'application/json',
      [txt('{"_type":"string","_value":"k1"}'), txt('{"_type":"string","_value":"k1"}'), txt('{"_type":"string","_value":"k1"}'),
        "!Class 'string' blocked by deserialization allow list", txt('{"_type":"string","_value":"k1"}'), w('4a', 'k1')]],
    ['console int32 key', '{"_type":"int32","_value":"42"}', 'application/json',
      [txt('{"_type":"int32","_value":"42"}'), txt('{"_type":"int32","_value":"42"}'), txt('{"_type":"int32","_value":"42"}'),
        "!Class 'int32' blocked by deserialization allow list", txt('{"_type":"int32","_value":"42"}'), '282a']],
    ['raw octet-stream', 'k1', 'application/octet-stream', [txt('k1'), txt('k1'), txt('k1'), w('52', 'k1'), BAD_JSON('k1'), w('52', 'k1')]],
    ['hex octet-stream', '0x6b31', 'application/octet-stream; encoding=hex', [txt('k1'), txt('k1'), txt('k1'), w('52', 'k1'), BAD_JSON('k1'), w('52', 'k1')]],
    ['Base64 octet-stream', 'azE=', 'application/octet-stream; encoding=base64', [txt('k1'), txt('k1'), txt('k1'), w('52', 'k1'), BAD_JSON('k1'), w('52', 'k1')]],
    ['Java String', 'k1', javaType('java.lang.String'), [txt('k1'), txt('k1'), txt('k1'), w('4a', 'k1'), txt('"k1"'), w('4a', 'k1')]],
    ['Java Integer', '42', javaType('java.lang.Integer'), ['282a', txt('42'), '282a', '282a', txt('42'), '282a']],
    ['Java Long', '42', javaType('java.lang.Long'), ['182a', txt('42'), '182a', '182a', txt('42'), '182a']],
    ['Java Double', '1.50', javaType('java.lang.Double'), ['09000000000000f83f', txt('1.5'), '09000000000000f83f', '09000000000000f83f', txt('1.5'), '09000000000000f83f']],
    ['Java Boolean', 'true', javaType('java.lang.Boolean'), ['4001', txt('true'), '4001', '4001', txt('true'), '4001']],
    ['Java byte[] (ByteArray)', '0x0102', javaType('ByteArray'), ['0102', '0102', '0102', '52020102', BAD_JSON('\u0001\u0002'), '52020102']],
    ['protostream bytes in hex', '0x4a026b31', 'application/x-protostream; encoding=hex', [w('4a', 'k1'), txt('k1'), w('4a', 'k1'), w('4a', 'k1'), txt('{"_type":"string","_value":"k1"}'), w('4a', 'k1')]],
    ['form-urlencoded', 'a+b', 'application/x-www-form-urlencoded', [txt('a b'), txt('a b'), txt('a b'), w('4a', 'a b'), BAD_JSON('a b'),
      NO_TRANSCODER('application/x-www-form-urlencoded', 'application/x-protostream')]],
    ['XML', '<string>k1</string>', 'application/xml', [txt('<string>k1</string>'), txt('<string>k1</string>'), txt('<string>k1</string>'), w('4a', 'k1'),
      NO_TRANSCODER('application/xml', 'application/json'), NO_TRANSCODER('application/xml', 'application/x-protostream')]],
  ];
  for (const [what, segment, keyType, expected] of table) {
    STORAGES.forEach((storage, i) => {
      const want = expected[i];
      it(`${what} (${keyType}) in ${storage} → ${want.startsWith('!') ? '400 ' + want.slice(1) : want}`, () => {
        const run = () => toStoredKey(Buffer.from(segment, 'utf8'), parseMediaType(keyType), parseMediaType(storage), NO_TYPES).toString('hex');
        if (!want.startsWith('!')) return expect(run()).to.equal(want);
        try {
          run();
        } catch (err) {
          expect((err as GridError).status).to.equal(400);
          return expect((err as GridError).message).to.equal(want.slice(1));
        }
        expect.fail('expected a 400');
      });
    });
  }

  it('refuses a Key-Content-Type outside the registry with 400 ISPN000492', () => {
    expect(() => toStoredKey(Buffer.from('k'), parseMediaType('image/png'), parseMediaType('text/plain'), NO_TYPES))
      .to.throw("ISPN000492: Cannot find transcoder between 'image/png' to 'text/plain'");
  });
});

describe('fromStoredKey / storedKeyText: how listings show a stored key', () => {
  const text = (hex: string, storage: string): string => storedKeyText(Buffer.from(hex, 'hex'), parseMediaType(storage), NO_TYPES);
  const rows: Array<[storage: string, stored: string, listed: string]> = [
    ['application/x-protostream', '4a026b31', 'k1'],
    ['application/x-protostream', '282a', '42'],
    ['application/x-protostream', '09000000000000f83f', '1.5'],
    ['application/x-protostream', '4001', 'true'],
    ['application/x-java-object', '4a026b31', 'k1'],
    ['application/x-java-object', '182a', '42'],
    ['application/x-java-object', '6b31', 'k1'],
    ['application/unknown', '6b31', 'k1'],
    ['application/json', Buffer.from('"k1"').toString('hex'), '"k1"'],
    ['text/plain', '6b31', 'k1'],
  ];
  for (const [storage, stored, listed] of rows) {
    it(`${storage} ${stored} lists as ${JSON.stringify(listed)}`, () => expect(text(stored, storage)).to.equal(listed));
  }

  it('gives protostream keys as canonical JSON and Java keys as JSON literals', () => {
    const json = parseMediaType('application/json');
    expect(fromStoredKey(Buffer.from('4a026b31', 'hex'), parseMediaType('application/x-protostream'), json, NO_TYPES).toString()).to.equal('{"_type":"string","_value":"k1"}');
    expect(fromStoredKey(Buffer.from('282a', 'hex'), parseMediaType('application/x-java-object'), json, NO_TYPES).toString()).to.equal('42');
  });

  it('round-trips every key of the matrix that a storage accepts', () => {
    const storage = parseMediaType('application/x-java-object');
    for (const [segment, type] of [['k1', 'text/plain'], ['42', javaType('java.lang.Integer')], ['true', javaType('java.lang.Boolean')]]) {
      const stored = toStoredKey(Buffer.from(segment), parseMediaType(type), storage, NO_TYPES);
      expect(storedKeyText(stored, storage, NO_TYPES)).to.equal(segment);
    }
  });
});

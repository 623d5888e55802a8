import { expect } from 'chai';
import { unwrap, wrapEnum, wrapMessage, wrapScalar } from '../../../src/model/protobuf/wrapped-message';
import type { JavaValue } from '../../../src/model/java/java-value';

const hex = (s: string): Buffer => Buffer.from(s.replace(/\s/g, ''), 'hex');

// Golden vectors written from the protobuf wire format (tag = field << 3 | wire type), not from the encoder.
const SCALARS: Array<[string, JavaValue, string]> = [
  ['Integer 2 (field 5, varint)', { type: 'java.lang.Integer', value: 2n }, '28 02'],
  ['Integer -1 (sign-extended to 10 bytes)', { type: 'java.lang.Integer', value: -1n }, '28 ff ff ff ff ff ff ff ff ff 01'],
  ['Long 300 (field 3)', { type: 'java.lang.Long', value: 300n }, '18 ac 02'],
  ['Boolean true (field 8)', { type: 'java.lang.Boolean', value: true }, '40 01'],
  ['String "abc" (field 9, length-delimited)', { type: 'java.lang.String', value: 'abc' }, '4a 03 61 62 63'],
  ['byte[] {1,2} (field 10)', { type: 'byte[]', value: Buffer.from([1, 2]) }, '52 02 01 02'],
  ['Double 1.5 (field 1, fixed64 LE)', { type: 'java.lang.Double', value: 1.5 }, '09 00 00 00 00 00 00 f8 3f'],
  ['Float 1.5 (field 2, fixed32 LE)', { type: 'java.lang.Float', value: 1.5 }, '15 00 00 c0 3f'],
  ['Short 7 (field 21)', { type: 'java.lang.Short', value: 7n }, 'a8 01 07'],
  ['Byte 7 (field 22)', { type: 'java.lang.Byte', value: 7n }, 'b0 01 07'],
];

describe('WrappedMessage (docs/reference/media-types.md#wrapped-message)', () => {
  for (const [name, value, bytes] of SCALARS) {
    it(`encodes and decodes ${name}`, () => {
      expect(wrapScalar(value).toString('hex')).to.equal(hex(bytes).toString('hex'));
      expect(unwrap(hex(bytes))).to.deep.equal({ kind: 'scalar', value });
    });
  }

  it('wraps a message as type name (16) then body (17)', () => {
    const golden = hex('82 01 03 61 2e 42  8a 01 02 08 01');
    expect(wrapMessage('a.B', hex('08 01')).equals(golden)).to.equal(true);
    expect(unwrap(golden)).to.deep.equal({ kind: 'message', type: 'a.B', body: hex('08 01') });
  });

  it('uses the type id (19) instead of the name when the schema declares one', () => {
    const golden = hex('98 01 e9 07  8a 01 00');
    expect(wrapMessage(1001, Buffer.alloc(0)).equals(golden)).to.equal(true);
  });

  it('wraps an enum as type name then number (18)', () => {
    expect(wrapEnum('a.E', 2).equals(hex('82 01 03 61 2e 45  90 01 02'))).to.equal(true);
  });

  it('refuses a mix of kinds and truncated input', () => {
    expect(() => unwrap(hex('28 02 4a 01 61'))).to.throw('Invalid message encoding');
    expect(() => unwrap(hex('4a 05 61'))).to.throw('Invalid message encoding');
  });

  it('refuses a scalar followed by a million more fields; of a repeated envelope field the last one holds', () => {
    const crowded = Buffer.concat([hex('28 02'), Buffer.alloc(2_000_000, 0x28)]);
    for (let i = 3; i < crowded.length; i += 2) crowded[i] = 0x01;
    expect(() => unwrap(crowded)).to.throw('Invalid message encoding');
    // a repeated singular field: the last one holds, as protobuf reads it
    expect(unwrap(hex('82 01 01 61  82 01 03 61 2e 42  8a 01 00'))).to.deep.equal({ kind: 'message', type: 'a.B', body: Buffer.alloc(0) });
  });
});

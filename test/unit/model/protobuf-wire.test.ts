import { expect } from 'chai';
import fc from 'fast-check';
import { InvalidContentError } from '../../../src/errors';
import { readFields, type WireField, WireWriter } from '../../../src/model/protobuf/protobuf-wire';
import { unwrap, wrapMessage, wrappedMessageOf } from '../../../src/model/protobuf/wrapped-message';

const field = fc.integer({ min: 1, max: 2 ** 29 - 1 });
const wireField: fc.Arbitrary<WireField> = fc.oneof(
  fc.record({ field, wireType: fc.constant(0 as const), value: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }) }),
  fc.record({ field, wireType: fc.constant(2 as const), value: fc.uint8Array({ maxLength: 20 }).map((a) => Buffer.from(a)) }),
  fc.record({ field, wireType: fc.constant(1 as const), value: fc.double().map((d) => { const b = Buffer.alloc(8); b.writeDoubleLE(d); return b; }) }),
  fc.record({ field, wireType: fc.constant(5 as const), value: fc.float().map((f) => { const b = Buffer.alloc(4); b.writeFloatLE(f); return b; }) }),
);

function write(fields: WireField[]): Buffer {
  const w = new WireWriter();
  for (const f of fields) {
    if (f.wireType === 0) w.varint(f.field, f.value);
    else if (f.wireType === 2) w.bytes(f.field, f.value);
    else if (f.wireType === 1) w.fixed64(f.field, f.value.readDoubleLE(0));
    else w.fixed32(f.field, f.value.readFloatLE(0));
  }
  return w.finish();
}

describe('protobuf wire: one reader (WireReader) under readFields and the WrappedMessage readers', () => {
  it('reads back every field the writer wrote, 64-bit varints exactly', () => {
    fc.assert(fc.property(fc.array(wireField, { maxLength: 8 }), (fields) => {
      expect(readFields(write(fields))).to.deep.equal(fields);
    }), { numRuns: 300 });
  });

  it('answers malformed bytes with InvalidContentError, never another error', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 30 }), (bytes) => {
      try {
        readFields(Buffer.from(bytes));
      } catch (e) {
        expect(e).to.be.instanceOf(InvalidContentError);
      }
    }), { numRuns: 500 });
  });

  it('finds a wrapped message\'s type and body as unwrap does, and nothing where unwrap finds no message', () => {
    const wrapped = fc.oneof(
      fc.tuple(fc.oneof(fc.string({ maxLength: 10 }), fc.integer({ min: 0, max: 2 ** 31 })), fc.uint8Array({ maxLength: 10 }))
        .map(([type, body]) => wrapMessage(type, Buffer.from(body))),
      fc.uint8Array({ maxLength: 20 }).map((a) => Buffer.from(a)),
    );
    fc.assert(fc.property(wrapped, (bytes) => {
      let expected: { type: string | number; body: Buffer } | undefined;
      try {
        const w = unwrap(bytes);
        if (w.kind === 'message') expected = { type: w.type, body: w.body };
      } catch {
        expected = undefined;
      }
      expect(wrappedMessageOf(bytes)).to.deep.equal(expected);
    }), { numRuns: 500 });
  });
});

import { expect } from 'chai';
import fc from 'fast-check';
import type { Type } from 'protobufjs';
import { compileCondition } from '../../../../src/grid/query/condition-eval';
import { compileAccessor } from '../../../../src/grid/query/field-values';
import { compileWireFilter } from '../../../../src/grid/query/wire-filter';
import type { FieldRef, Target } from '../../../../src/model/ickle/analyzed-query';
import { compileIckle } from '../../../../src/model/ickle/compile';
import { findProtobufEntity } from '../../../../src/model/ickle/protobuf-entities';
import { checkProtoFiles, findType } from '../../../../src/model/protobuf/proto-files';
import type { ProtobufTypes } from '../../../../src/model/protobuf/protostream-json';

const SCHEMA = `package wf;
enum Color { RED = 0; GREEN = 1; BLUE = 2; }
message Inner { optional int32 x = 1; }
message M {
  optional int32 i32 = 1; optional uint32 u32 = 2; optional sint32 s32 = 3;
  optional int64 i64 = 4; optional uint64 u64 = 5; optional sint64 s64 = 6;
  optional fixed32 f32 = 7; optional sfixed32 sf32 = 8; optional fixed64 f64 = 9; optional sfixed64 sf64 = 10;
  optional float fl = 11; optional double db = 12; optional bool b = 13; optional string s = 14;
  optional Color c = 15; optional bytes by = 16; optional Inner inner = 17; repeated int32 rep = 18;
  optional int32 dflt = 19 [default = 7];
  optional string far = 300;
  optional int32 farther = 5000;
}`;

const root = checkProtoFiles([{ name: 'wf.proto', content: SCHEMA }]).root;
const types: ProtobufTypes = { find: (n) => findType(root, n), typeIdOf: () => undefined, nameOfTypeId: () => undefined };
const M = types.find('wf.M') as Type;

function compile(where: string) {
  const q = compileIckle(`from wf.M m where ${where}`, { findEntity: (n) => findProtobufEntity(types, n), fullTextAvailable: () => false });
  const exact = compileCondition(q.where, (t: Target) => compileAccessor(t as FieldRef));
  return { exact, wire: compileWireFilter(q.where, M) };
}

/** What the scan does with bytes the wire filter accepts: decode, then the exact predicate. */
function matches(exact: (e: object) => boolean, bytes: Uint8Array): boolean {
  let entity: object;
  try {
    entity = M.decode(bytes);
  } catch {
    return false;
  }
  return exact(entity);
}

const small = fc.integer({ min: -3, max: 3 });
const ints = fc.oneof(small, fc.constantFrom(-2147483648, 2147483647));
const longs = fc.oneof(small.map(BigInt), fc.constantFrom(2n ** 53n - 1n, -(2n ** 53n) + 1n, 2n ** 53n + 1n, 2n ** 63n - 1n, -(2n ** 63n)));
const ulongs = fc.oneof(fc.integer({ min: 0, max: 3 }).map(BigInt), fc.constantFrom(2n ** 53n + 1n, 2n ** 64n - 1n));
const texts = fc.constantFrom('', 'a', 'b', 'ab', 'é', '\u{1F600}');
const entity = fc.record({
  i32: ints, u32: fc.integer({ min: 0, max: 3 }), s32: ints, i64: longs.map(String), u64: ulongs.map(String), s64: longs.map(String),
  f32: fc.integer({ min: 0, max: 3 }), sf32: ints, f64: ulongs.map(String), sf64: longs.map(String),
  fl: fc.constantFrom(0, 1.5, -1, 0.1), db: fc.constantFrom(0, 1.5, -1, 0.1, Number.NaN), b: fc.boolean(), s: texts,
  c: fc.constantFrom(0, 1, 2, 7), by: fc.constantFrom('', 'YQ=='), inner: fc.record({ x: small }), rep: fc.array(small, { maxLength: 3 }),
  dflt: small, far: texts, farther: small,
}, { requiredKeys: [] });

const NUMERIC = ['i32', 'u32', 's32', 'i64', 'u64', 's64', 'f32', 'sf32', 'f64', 'sf64', 'dflt', 'farther'];
const leaf = fc.oneof(
  fc.tuple(fc.constantFrom(...NUMERIC), fc.constantFrom('=', '!=', '<', '<=', '>', '>='), small).map(([f, op, v]) => `m.${f} ${op} ${v}`),
  fc.tuple(fc.constantFrom('i64', 's64', 'sf64', 'u64'), fc.constantFrom('=', '<', '>'), fc.constantFrom('9007199254740993', '9223372036854775807', '-9223372036854775808')).map(([f, op, v]) => `m.${f} ${op} ${v}`),
  fc.tuple(fc.constantFrom('fl', 'db'), fc.constantFrom('=', '<', '>='), fc.constantFrom('0', '1.5', '-1', '0.1')).map(([f, op, v]) => `m.${f} ${op} ${v}`),
  fc.tuple(fc.constantFrom('s', 'far'), fc.constantFrom('=', '!=', '<', '>'), texts).map(([f, op, v]) => `m.${f} ${op} '${v}'`),
  fc.tuple(fc.constantFrom('s', 'far'), fc.constantFrom("'a%'", "'%b'", "'_'", "''")).map(([f, p]) => `m.${f} LIKE ${p}`),
  fc.constantFrom('m.b = true', 'm.b = false', "m.c = 'GREEN'", 'm.c = 2', "m.c IN ('RED', 'BLUE')", 'm.i32 IN (1, -3)', 'm.i32 BETWEEN -1 AND 1'),
  fc.constantFrom('m.inner.x = 1', 'm.rep = 2', 'm.rep IS NULL', 'm.by IS NULL', 'm.inner IS NULL'),
  fc.tuple(fc.constantFrom(...NUMERIC, 's', 'far', 'b', 'c', 'fl'), fc.boolean()).map(([f, not]) => `m.${f} IS ${not ? 'NOT ' : ''}NULL`),
);
const condition: fc.Arbitrary<string> = fc.letrec((tie) => ({
  c: fc.oneof({ depthSize: 'small' }, leaf, leaf,
    fc.tuple(tie('c') as fc.Arbitrary<string>, tie('c') as fc.Arbitrary<string>, fc.constantFrom('AND', 'OR')).map(([a, b, op]) => `(${a} ${op} ${b})`),
    (tie('c') as fc.Arbitrary<string>).map((a) => `NOT (${a})`)),
})).c;

describe('compileWireFilter', () => {
  it('never rejects a message that the decoded entity matches (random messages and conditions)', () => {
    const seen = { compiled: 0, matched: 0 };
    fc.assert(fc.property(condition, fc.array(entity, { minLength: 1, maxLength: 8 }), (where, objects) => {
      const { exact, wire } = compile(where);
      if (!wire) return;
      seen.compiled++;
      for (const o of objects) {
        const bytes = Buffer.from(M.encode(M.fromObject(o)).finish());
        if (!matches(exact, bytes)) continue;
        seen.matched++;
        expect(wire(bytes, 0, bytes.length), `${where} over ${JSON.stringify(o)}`).to.equal(true);
      }
    }), { numRuns: 400 });
    // a property that returns early everywhere proves nothing: most runs must have compiled and matched
    expect(seen.compiled, 'runs whose condition compiled to a wire filter').to.be.above(200);
    expect(seen.matched, 'messages the decoded entity matched').to.be.above(200);
  });

  it('reads the last occurrence of a repeated scalar field, as decoding does', () => {
    let matched = 0;
    fc.assert(fc.property(condition, entity, entity, (where, a, b) => {
      const { exact, wire } = compile(where);
      if (!wire) return;
      const bytes = Buffer.concat([M.encode(M.fromObject(a)).finish(), M.encode(M.fromObject(b)).finish()]);
      if (!matches(exact, bytes)) return;
      matched++;
      expect(wire(bytes, 0, bytes.length), where).to.equal(true);
    }), { numRuns: 300 });
    expect(matched, 'runs whose concatenated message matched').to.be.above(50);
  });

  it('accepts whatever a decoder could still match in malformed bytes, and reads within [start, end)', () => {
    let matched = 0;
    fc.assert(fc.property(condition, fc.uint8Array({ maxLength: 40 }), fc.uint8Array({ maxLength: 4 }), (where, junk, pad) => {
      const { exact, wire } = compile(where);
      if (!wire) return;
      const framed = Buffer.concat([pad, junk, pad]);
      if (!matches(exact, junk)) return;
      matched++;
      expect(wire(framed, pad.length, pad.length + junk.length), where).to.equal(true);
    }), { numRuns: 400 });
    expect(matched, 'runs whose junk bytes a decoder still matched').to.be.above(5); // about 20 of 400
  });

  it('rejects messages a readable condition excludes, and is absent when nothing is readable', () => {
    const { wire } = compile("m.i32 = 2 AND m.s = 'ab'");
    const yes = Buffer.from(M.encode(M.fromObject({ i32: 2, s: 'ab' })).finish());
    const no = Buffer.from(M.encode(M.fromObject({ i32: 2, s: 'a' })).finish());
    expect([wire!(yes, 0, yes.length), wire!(no, 0, no.length)]).to.deep.equal([true, false]);
    expect(compile('m.inner.x = 1 OR m.rep = 2').wire).to.equal(undefined);
    const { wire: withDefault } = compile('m.dflt = 7');
    const empty = Buffer.alloc(0);
    expect(withDefault!(empty, 0, 0), 'absent reads as the declared default').to.equal(true);
  });
});

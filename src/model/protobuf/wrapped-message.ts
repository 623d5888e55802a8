import { InvalidContentError } from '../../errors';
import { type JavaValue } from '../java/java-value';
import { forEachField, type WireField, WireWriter } from './protobuf-wire';
import { WireReader } from './wire-reader';

/**
 * protostream's `WrappedMessage` envelope (docs/reference/media-types.md#wrapped-message): a scalar is exactly one field;
 * a message is its type name (16) or type id (19) then its bytes (17); an enum is the name or id
 * then its number (18).
 */
export const WRAPPED = {
  double: 1, float: 2, int64: 3, uint64: 4, int32: 5, fixed64: 6, fixed32: 7, bool: 8, string: 9, bytes: 10,
  uint32: 11, sfixed32: 12, sfixed64: 13, sint32: 14, sint64: 15, typeName: 16, message: 17, enum: 18, typeId: 19,
  char: 20, short: 21, byte: 22,
} as const;

export type Wrapped =
  | { kind: 'scalar'; value: JavaValue }
  | { kind: 'message'; type: string | number; body: Buffer }
  | { kind: 'enum'; type: string | number; number: number };

export function wrapScalar(v: JavaValue): Buffer {
  const w = new WireWriter();
  switch (v.type) {
    case 'java.lang.String': return w.bytes(WRAPPED.string, Buffer.from(v.value, 'utf8')).finish();
    case 'byte[]': return w.bytes(WRAPPED.bytes, v.value).finish();
    case 'java.lang.Integer': return w.varint(WRAPPED.int32, v.value).finish();
    case 'java.lang.Long': return w.varint(WRAPPED.int64, v.value).finish();
    case 'java.lang.Short': return w.varint(WRAPPED.short, v.value).finish();
    case 'java.lang.Byte': return w.varint(WRAPPED.byte, v.value).finish();
    case 'java.lang.Boolean': return w.varint(WRAPPED.bool, v.value ? 1n : 0n).finish();
    case 'java.lang.Character': return w.varint(WRAPPED.char, BigInt(v.value.charCodeAt(0))).finish();
    case 'java.lang.Double': return w.fixed64(WRAPPED.double, v.value).finish();
    case 'java.lang.Float': return w.fixed32(WRAPPED.float, v.value).finish();
  }
}

function typeField(w: WireWriter, type: string | number): WireWriter {
  return typeof type === 'number' ? w.varint(WRAPPED.typeId, BigInt(type)) : w.bytes(WRAPPED.typeName, Buffer.from(type, 'utf8'));
}

export function wrapMessage(type: string | number, body: Buffer): Buffer {
  return typeField(new WireWriter(), type).bytes(WRAPPED.message, body).finish();
}

export function wrapEnum(type: string | number, number: number): Buffer {
  return typeField(new WireWriter(), type).varint(WRAPPED.enum, BigInt(number)).finish();
}

const int32 = (v: bigint): bigint => BigInt.asIntN(32, v);

/**
 * The type (name or id) and message bytes of a WrappedMessage holding a message; undefined for
 * anything else (a scalar, an enum, malformed bytes). Unlike `unwrap` it never throws: for
 * callers that look at every stored value (indexing).
 */
export function wrappedMessageOf(value: Buffer): { type: string | number; body: Buffer } | undefined {
  const r = new WireReader().reset(value, 0, value.length);
  let type: string | number | undefined;
  let body: Buffer | undefined;
  while (r.pos < value.length) {
    const tag = r.uint32();
    const field = tag >>> 3;
    const wireType = tag & 7;
    if (wireType === 0 && field === WRAPPED.typeId) {
      type = r.uint32();
    } else if (wireType === 2 && (field === WRAPPED.typeName || field === WRAPPED.message)) {
      const start = r.delimited();
      if (field === WRAPPED.typeName) type = value.toString('utf8', start, r.pos);
      else body = value.subarray(start, r.pos);
    } else {
      return undefined;
    }
    if (r.failed) return undefined;
  }
  return type !== undefined && body !== undefined ? { type, body } : undefined;
}

export function unwrap(bytes: Buffer): Wrapped {
  let count = 0;
  // a field that is none of the envelope's: the message is that scalar, if it is its only field
  let only: WireField | undefined;
  let type: string | number | undefined;
  let body: Buffer | undefined;
  let enumNumber: number | undefined;
  forEachField(bytes, (f) => {
    count++;
    if (only) throw invalid();
    if (f.field === WRAPPED.typeName && f.wireType === 2) type = f.value.toString('utf8');
    else if (f.field === WRAPPED.typeId && f.wireType === 0) type = Number(f.value);
    else if (f.field === WRAPPED.message && f.wireType === 2) body = f.value;
    else if (f.field === WRAPPED.enum && f.wireType === 0) enumNumber = Number(int32(f.value));
    else if (count === 1) only = f;
    else throw invalid();
  });
  if (only) return { kind: 'scalar', value: scalar(only) };
  if (type !== undefined && body !== undefined && enumNumber === undefined) return { kind: 'message', type, body };
  if (type !== undefined && enumNumber !== undefined && body === undefined) return { kind: 'enum', type, number: enumNumber };
  throw invalid();
}

function invalid(): InvalidContentError {
  return new InvalidContentError('Invalid message encoding');
}

function scalar(f: WireField): JavaValue {
  if (f.wireType === 0) {
    switch (f.field) {
      case WRAPPED.int32: case WRAPPED.uint32: case WRAPPED.sint32:
        return { type: 'java.lang.Integer', value: f.field === WRAPPED.sint32 ? zigzag(f.value, 32) : f.field === WRAPPED.uint32 ? BigInt.asUintN(32, f.value) : int32(f.value) };
      case WRAPPED.int64: case WRAPPED.uint64: case WRAPPED.sint64:
        return { type: 'java.lang.Long', value: f.field === WRAPPED.sint64 ? zigzag(f.value, 64) : BigInt.asIntN(64, f.value) };
      case WRAPPED.short: return { type: 'java.lang.Short', value: BigInt.asIntN(16, f.value) };
      case WRAPPED.byte: return { type: 'java.lang.Byte', value: BigInt.asIntN(8, f.value) };
      case WRAPPED.bool: return { type: 'java.lang.Boolean', value: f.value !== 0n };
      case WRAPPED.char: return { type: 'java.lang.Character', value: String.fromCharCode(Number(f.value & 0xffffn)) };
    }
  } else if (f.wireType === 1) {
    if (f.field === WRAPPED.double) return { type: 'java.lang.Double', value: f.value.readDoubleLE(0) };
    if (f.field === WRAPPED.fixed64 || f.field === WRAPPED.sfixed64) return { type: 'java.lang.Long', value: f.value.readBigInt64LE(0) };
  } else if (f.wireType === 5) {
    if (f.field === WRAPPED.float) return { type: 'java.lang.Float', value: f.value.readFloatLE(0) };
    if (f.field === WRAPPED.fixed32 || f.field === WRAPPED.sfixed32) return { type: 'java.lang.Integer', value: BigInt(f.value.readInt32LE(0)) };
  } else if (f.field === WRAPPED.string) {
    return { type: 'java.lang.String', value: f.value.toString('utf8') };
  } else if (f.field === WRAPPED.bytes) {
    return { type: 'byte[]', value: Buffer.from(f.value) };
  }
  throw new InvalidContentError('Invalid message encoding');
}

function zigzag(v: bigint, bits: number): bigint {
  const u = BigInt.asUintN(bits, v);
  return BigInt.asIntN(bits, (u >> 1n) ^ -(u & 1n));
}

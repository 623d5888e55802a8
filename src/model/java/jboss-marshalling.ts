import { InvalidContentError, UnsupportedJavaClassError } from '../../errors';
import type { JavaValue } from './java-value';
import { decodeModifiedUtf8, encodeModifiedUtf8 } from './modified-utf8';

/**
 * `application/x-jboss-marshalling` for String, the primitive wrappers and byte[] only, as the
 * original's JBoss marshaller writes them: River protocol version 3 (one version byte first), then
 * the object with River's compact ids (org.jboss.marshalling.river.Protocol). Anything else is refused.
 */
const VERSION = 0x03;
const ID = {
  stringEmpty: 0x3d, stringSmall: 0x3e, stringMedium: 0x3f, stringLarge: 0x40,
  arrayEmpty: 0x41, arraySmall: 0x42, arrayMedium: 0x43, arrayLarge: 0x44, primByte: 0x21,
  byte: 0x49, short: 0x4a, int: 0x4b, long: 0x4c, char: 0x4d, float: 0x4e, double: 0x4f, true: 0x50, false: 0x51,
} as const;

function sized(small: number, medium: number, large: number, n: number, emptyId: number): Buffer {
  if (n === 0) return Buffer.from([emptyId]);
  if (n <= 0x100) return Buffer.from([small, n & 0xff]);
  if (n <= 0x10000) return Buffer.from([medium, (n >> 8) & 0xff, n & 0xff]);
  const b = Buffer.alloc(5);
  b[0] = large;
  b.writeInt32BE(n, 1);
  return b;
}

export function marshallJBoss(v: JavaValue): Buffer {
  const head = Buffer.from([VERSION]);
  const b = Buffer.alloc(9);
  switch (v.type) {
    case 'java.lang.String':
      return Buffer.concat([head, sized(ID.stringSmall, ID.stringMedium, ID.stringLarge, v.value.length, ID.stringEmpty), encodeModifiedUtf8(v.value)]);
    case 'byte[]':
      return v.value.length === 0
        ? Buffer.concat([head, Buffer.from([ID.arrayEmpty, ID.primByte])])
        : Buffer.concat([head, sized(ID.arraySmall, ID.arrayMedium, ID.arrayLarge, v.value.length, ID.arrayEmpty), Buffer.from([ID.primByte]), v.value]);
    case 'java.lang.Boolean': return Buffer.from([VERSION, v.value ? ID.true : ID.false]);
    case 'java.lang.Byte': b[0] = ID.byte; b.writeInt8(Number(v.value), 1); return Buffer.concat([head, b.subarray(0, 2)]);
    case 'java.lang.Short': b[0] = ID.short; b.writeInt16BE(Number(v.value), 1); return Buffer.concat([head, b.subarray(0, 3)]);
    case 'java.lang.Character': b[0] = ID.char; b.writeUInt16BE(v.value.charCodeAt(0), 1); return Buffer.concat([head, b.subarray(0, 3)]);
    case 'java.lang.Integer': b[0] = ID.int; b.writeInt32BE(Number(v.value), 1); return Buffer.concat([head, b.subarray(0, 5)]);
    case 'java.lang.Float': b[0] = ID.float; b.writeFloatBE(v.value, 1); return Buffer.concat([head, b.subarray(0, 5)]);
    case 'java.lang.Long': b[0] = ID.long; b.writeBigInt64BE(v.value, 1); return Buffer.concat([head, b]);
    case 'java.lang.Double': b[0] = ID.double; b.writeDoubleBE(v.value, 1); return Buffer.concat([head, b]);
  }
}

export function unmarshallJBoss(bytes: Buffer): JavaValue {
  if (bytes.length < 2 || bytes[0] !== VERSION) throw invalid();
  const id = bytes[1];
  const d = bytes.subarray(2);
  const need = (n: number) => { if (d.length !== n) throw invalid(); };
  switch (id) {
    case ID.true: need(0); return { type: 'java.lang.Boolean', value: true };
    case ID.false: need(0); return { type: 'java.lang.Boolean', value: false };
    case ID.byte: need(1); return { type: 'java.lang.Byte', value: BigInt(d.readInt8(0)) };
    case ID.short: need(2); return { type: 'java.lang.Short', value: BigInt(d.readInt16BE(0)) };
    case ID.char: need(2); return { type: 'java.lang.Character', value: String.fromCharCode(d.readUInt16BE(0)) };
    case ID.int: need(4); return { type: 'java.lang.Integer', value: BigInt(d.readInt32BE(0)) };
    case ID.float: need(4); return { type: 'java.lang.Float', value: d.readFloatBE(0) };
    case ID.long: need(8); return { type: 'java.lang.Long', value: d.readBigInt64BE(0) };
    case ID.double: need(8); return { type: 'java.lang.Double', value: d.readDoubleBE(0) };
    case ID.stringEmpty: need(0); return { type: 'java.lang.String', value: '' };
    case ID.stringSmall: case ID.stringMedium: case ID.stringLarge: {
      const w = id === ID.stringSmall ? 1 : id === ID.stringMedium ? 2 : 4;
      if (d.length < w) throw invalid();
      const value = readModifiedUtf8(d.subarray(w));
      const declared = w === 1 ? d[0] || 0x100 : w === 2 ? d.readUInt16BE(0) || 0x10000 : d.readInt32BE(0);
      if (value.length !== declared) throw invalid();
      return { type: 'java.lang.String', value };
    }
    case ID.arrayEmpty: need(1); if (d[0] !== ID.primByte) throw notAllowed(d[0]); return { type: 'byte[]', value: Buffer.alloc(0) };
    case ID.arraySmall: case ID.arrayMedium: case ID.arrayLarge: {
      const w = id === ID.arraySmall ? 1 : id === ID.arrayMedium ? 2 : 4;
      if (d.length < w + 1) throw invalid();
      const n = w === 1 ? d[0] || 0x100 : w === 2 ? d.readUInt16BE(0) || 0x10000 : d.readInt32BE(0);
      if (d[w] !== ID.primByte) throw notAllowed(d[w]);
      need(w + 1 + n);
      return { type: 'byte[]', value: Buffer.from(d.subarray(w + 1)) };
    }
    default: throw notAllowed(id);
  }
}

/** River reads what it is given: no byte is refused (modified-utf8.ts). */
function readModifiedUtf8(b: Buffer): string {
  return decodeModifiedUtf8(b, false)!;
}

function notAllowed(id: number): UnsupportedJavaClassError {
  return new UnsupportedJavaClassError(`JBoss Marshalling object id 0x${id.toString(16)}`);
}

function invalid(): InvalidContentError {
  return new InvalidContentError('Invalid JBoss Marshalling stream');
}

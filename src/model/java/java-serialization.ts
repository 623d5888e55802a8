import { InvalidContentError, UnsupportedJavaClassError } from '../../errors';
import type { JavaType, JavaValue } from './java-value';
import { decodeModifiedUtf8, encodeModifiedUtf8 } from './modified-utf8';

/**
 * `application/x-java-serialized-object` for String, the primitive wrappers and byte[] only,
 * byte-exact as `ObjectOutputStream.writeObject` writes them (Java Object Serialization
 * Specification §6.4). Reading compares the class descriptor with the one Java writes and refuses
 * any other class: nothing is instantiated from client bytes.
 */
const MAGIC = Buffer.from([0xac, 0xed, 0x00, 0x05]);
const TC_NULL = 0x70;
const TC_CLASSDESC = 0x72;
const TC_OBJECT = 0x73;
const TC_STRING = 0x74;
const TC_ARRAY = 0x75;
const TC_ENDBLOCKDATA = 0x78;
const TC_LONGSTRING = 0x7c;
const SC_SERIALIZABLE = 0x02;

interface ClassDesc { name: string; suid: string; field?: [string, string]; parent?: ClassDesc }

const NUMBER: ClassDesc = { name: 'java.lang.Number', suid: '86ac951d0b94e08b' };
const CLASSES: Partial<Record<JavaType, ClassDesc>> = {
  'java.lang.Integer': { name: 'java.lang.Integer', suid: '12e2a0a4f7818738', field: ['I', 'value'], parent: NUMBER },
  'java.lang.Long': { name: 'java.lang.Long', suid: '3b8be490cc8f23df', field: ['J', 'value'], parent: NUMBER },
  'java.lang.Short': { name: 'java.lang.Short', suid: '684d37133460da52', field: ['S', 'value'], parent: NUMBER },
  'java.lang.Byte': { name: 'java.lang.Byte', suid: '9c4e6084ee50f51c', field: ['B', 'value'], parent: NUMBER },
  'java.lang.Double': { name: 'java.lang.Double', suid: '80b3c24a296bfb04', field: ['D', 'value'], parent: NUMBER },
  'java.lang.Float': { name: 'java.lang.Float', suid: 'daedc9a2db3cf0ec', field: ['F', 'value'], parent: NUMBER },
  'java.lang.Boolean': { name: 'java.lang.Boolean', suid: 'cd207280d59cfaee', field: ['Z', 'value'] },
  'java.lang.Character': { name: 'java.lang.Character', suid: '348b47d96b1a2678', field: ['C', 'value'] },
  'byte[]': { name: '[B', suid: 'acf317f8060854e0' },
};

function u16(n: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n);
  return b;
}

function utf(s: string): Buffer {
  const m = encodeModifiedUtf8(s);
  return Buffer.concat([u16(m.length), m]);
}

function classDesc(d: ClassDesc | undefined): Buffer {
  if (!d) return Buffer.from([TC_NULL]);
  const fields = d.field ? Buffer.concat([u16(1), Buffer.from(d.field[0]), utf(d.field[1])]) : u16(0);
  return Buffer.concat([Buffer.from([TC_CLASSDESC]), utf(d.name), Buffer.from(d.suid, 'hex'), Buffer.from([SC_SERIALIZABLE]), fields,
    Buffer.from([TC_ENDBLOCKDATA]), classDesc(d.parent)]);
}

function readModifiedUtf8(b: Buffer): string {
  const s = decodeModifiedUtf8(b, true);
  if (s === undefined) throw invalid();
  return s;
}

function primitive(v: JavaValue): Buffer {
  const b = Buffer.alloc(8);
  switch (v.type) {
    case 'java.lang.Integer': b.writeInt32BE(Number(v.value)); return b.subarray(0, 4);
    case 'java.lang.Long': b.writeBigInt64BE(v.value); return b;
    case 'java.lang.Short': b.writeInt16BE(Number(v.value)); return b.subarray(0, 2);
    case 'java.lang.Byte': b.writeInt8(Number(v.value)); return b.subarray(0, 1);
    case 'java.lang.Double': b.writeDoubleBE(v.value); return b;
    case 'java.lang.Float': b.writeFloatBE(v.value); return b.subarray(0, 4);
    case 'java.lang.Boolean': return Buffer.from([v.value ? 1 : 0]);
    case 'java.lang.Character': b.writeUInt16BE(v.value.charCodeAt(0)); return b.subarray(0, 2);
    default: throw invalid();
  }
}

export function serializeJava(v: JavaValue): Buffer {
  if (v.type === 'java.lang.String') {
    const m = encodeModifiedUtf8(v.value);
    if (m.length <= 0xffff) return Buffer.concat([MAGIC, Buffer.from([TC_STRING]), u16(m.length), m]);
    const len = Buffer.alloc(8);
    len.writeBigUInt64BE(BigInt(m.length));
    return Buffer.concat([MAGIC, Buffer.from([TC_LONGSTRING]), len, m]);
  }
  if (v.type === 'byte[]') {
    const len = Buffer.alloc(4);
    len.writeInt32BE(v.value.length);
    return Buffer.concat([MAGIC, Buffer.from([TC_ARRAY]), classDesc(CLASSES['byte[]']), len, v.value]);
  }
  return Buffer.concat([MAGIC, Buffer.from([TC_OBJECT]), classDesc(CLASSES[v.type]), primitive(v)]);
}

export function deserializeJava(bytes: Buffer): JavaValue {
  if (bytes.length < 5 || !bytes.subarray(0, 4).equals(MAGIC)) throw invalid();
  const tc = bytes[4];
  const rest = bytes.subarray(5);
  if (tc === TC_STRING && rest.length >= 2) return exact(rest, 2 + rest.readUInt16BE(0), () => ({ type: 'java.lang.String', value: readModifiedUtf8(rest.subarray(2)) }));
  if (tc === TC_LONGSTRING && rest.length >= 8) {
    return exact(rest, 8 + Number(rest.readBigUInt64BE(0)), () => ({ type: 'java.lang.String', value: readModifiedUtf8(rest.subarray(8)) }));
  }
  if (tc !== TC_OBJECT && tc !== TC_ARRAY) throw invalid();
  if (rest[0] !== TC_CLASSDESC || rest.length < 3) throw invalid();
  const nameLen = rest.readUInt16BE(1);
  const name = readModifiedUtf8(rest.subarray(3, 3 + nameLen));
  const type = (Object.keys(CLASSES) as JavaType[]).find((t) => CLASSES[t]!.name === name);
  if (!type || (tc === TC_ARRAY) !== (type === 'byte[]')) throw new UnsupportedJavaClassError(name);
  const desc = classDesc(CLASSES[type]);
  if (!rest.subarray(0, desc.length).equals(desc)) throw new UnsupportedJavaClassError(name);
  const data = rest.subarray(desc.length);
  if (type === 'byte[]') return exact(data, 4 + Math.max(0, data.length >= 4 ? data.readInt32BE(0) : 0), () => ({ type, value: Buffer.from(data.subarray(4)) }));
  return readPrimitive(type, data);
}

function readPrimitive(type: JavaType, d: Buffer): JavaValue {
  const want: Record<string, number> = {
    'java.lang.Integer': 4, 'java.lang.Long': 8, 'java.lang.Short': 2, 'java.lang.Byte': 1, 'java.lang.Double': 8, 'java.lang.Float': 4,
    'java.lang.Boolean': 1, 'java.lang.Character': 2,
  };
  if (d.length !== want[type]) throw invalid();
  switch (type) {
    case 'java.lang.Integer': return { type, value: BigInt(d.readInt32BE(0)) };
    case 'java.lang.Long': return { type, value: d.readBigInt64BE(0) };
    case 'java.lang.Short': return { type, value: BigInt(d.readInt16BE(0)) };
    case 'java.lang.Byte': return { type, value: BigInt(d.readInt8(0)) };
    case 'java.lang.Double': return { type, value: d.readDoubleBE(0) };
    case 'java.lang.Float': return { type, value: d.readFloatBE(0) };
    case 'java.lang.Boolean': return { type, value: d[0] !== 0 };
    case 'java.lang.Character': return { type, value: String.fromCharCode(d.readUInt16BE(0)) };
    default: throw invalid();
  }
}

function exact(b: Buffer, length: number, read: () => JavaValue): JavaValue {
  if (b.length !== length) throw invalid();
  return read();
}

function invalid(): InvalidContentError {
  return new InvalidContentError('Invalid Java serialization stream');
}

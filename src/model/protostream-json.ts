import type { Enum, Type } from 'protobufjs';
import { InvalidContentError, UnknownTypeError } from '../errors';
import { javaInteger, type JavaValue } from './java-value';
import { unwrap, wrapEnum, wrapMessage, wrapScalar } from './wrapped-message';

// loaded on first use: only servers with schemas need it, and start-up time is module compilation
let pbModule: typeof import('protobufjs') | undefined;
const pb = (): typeof import('protobufjs') => (pbModule ??= require('protobufjs') as typeof import('protobufjs'));


/** The registered protobuf types, as the schema service exposes them to the codecs. */
export interface ProtobufTypes {
  /** A message or enum by full name (`package.Name`). */
  find(name: string): Type | Enum | undefined;
  typeIdOf(name: string): number | undefined;
  /** Changes whenever the registered types do (lets callers keep what they looked up until then). */
  readonly version?: number;
  nameOfTypeId(id: number): string | undefined;
}

export const NO_TYPES: ProtobufTypes = { find: () => undefined, typeIdOf: () => undefined, nameOfTypeId: () => undefined };

/** Canonical JSON `_type` of the scalars (protostream ProtobufUtil). */
const SCALAR_NAMES: Record<JavaValue['type'], string> = {
  'java.lang.String': 'string', 'java.lang.Integer': 'int32', 'java.lang.Long': 'int64', 'java.lang.Short': 'int32',
  'java.lang.Byte': 'int32', 'java.lang.Double': 'double', 'java.lang.Float': 'float', 'java.lang.Boolean': 'bool',
  'java.lang.Character': 'string', 'byte[]': 'bytes',
};

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

function parseJson(text: string): Json {
  try {
    return JSON.parse(text) as Json;
  } catch {
    throw new InvalidContentError(`Invalid JSON content: ${text}`);
  }
}

function scalarFromJson(typeName: string, v: Json | undefined): JavaValue | undefined {
  const num = (): bigint => {
    if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v);
    if (typeof v === 'string' && /^[+-]?\d+$/.test(v)) return BigInt(v);
    throw new InvalidContentError(`Invalid value for ${typeName}: ${JSON.stringify(v)}`);
  };
  switch (typeName) {
    case 'string': return { type: 'java.lang.String', value: typeof v === 'string' ? v : JSON.stringify(v) };
    case 'int32': case 'uint32': case 'sint32': case 'fixed32': case 'sfixed32': return javaInteger('java.lang.Integer', num());
    case 'int64': case 'uint64': case 'sint64': case 'fixed64': case 'sfixed64': return javaInteger('java.lang.Long', num());
    case 'double': return { type: 'java.lang.Double', value: Number(v) };
    case 'float': return { type: 'java.lang.Float', value: Math.fround(Number(v)) };
    case 'bool': return { type: 'java.lang.Boolean', value: v === true || v === 'true' };
    case 'bytes': return { type: 'byte[]', value: Buffer.from(typeof v === 'string' ? v : '', 'base64') };
    default: return undefined;
  }
}

/** Canonical protostream JSON → WrappedMessage bytes (behavior-notes §4.5). */
export function jsonToProtostream(text: string, types: ProtobufTypes): Buffer {
  const doc = parseJson(text);
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) {
    // the original wraps bare Java scalars; a bare JSON scalar is read the same way
    if (typeof doc === 'string') return wrapScalar({ type: 'java.lang.String', value: doc });
    if (typeof doc === 'boolean') return wrapScalar({ type: 'java.lang.Boolean', value: doc });
    if (typeof doc === 'number') return wrapScalar(Number.isInteger(doc) ? javaInteger(Math.abs(doc) < 2 ** 31 ? 'java.lang.Integer' : 'java.lang.Long', BigInt(doc)) : { type: 'java.lang.Double', value: doc });
    throw new InvalidContentError(`Invalid JSON content: ${text}`);
  }
  const typeName = doc._type;
  if (typeof typeName !== 'string') throw new InvalidContentError("Expected field '_type' in the JSON document");
  const scalar = scalarFromJson(typeName, doc._value);
  if (scalar) return wrapScalar(scalar);
  const t = types.find(typeName);
  if (!t) throw new UnknownTypeError(typeName);
  const ref = types.typeIdOf(typeName) ?? typeName;
  if (t instanceof pb().Enum) {
    const n = typeof doc._value === 'number' ? doc._value : t.values[String(doc._value)];
    if (n === undefined) throw new InvalidContentError(`Invalid enum value ${JSON.stringify(doc._value)} for ${typeName}`);
    return wrapEnum(ref, n);
  }
  const fields: Record<string, Json> = { ...doc };
  delete fields._type;
  let body: Uint8Array;
  try {
    body = t.encode(t.fromObject(fields)).finish();
  } catch (err) {
    throw new InvalidContentError((err as Error).message);
  }
  return wrapMessage(ref, Buffer.from(body));
}

/** WrappedMessage bytes → canonical JSON text (`_type` first; scalars as `_value`). */
export function protostreamToJson(bytes: Buffer, types: ProtobufTypes): string {
  const w = unwrap(bytes);
  if (w.kind === 'scalar') {
    const v = w.value;
    const value: Json = v.type === 'byte[]' ? v.value.toString('base64')
      : typeof v.value === 'bigint' ? Number(v.value) : v.value;
    return JSON.stringify({ _type: SCALAR_NAMES[v.type], _value: value });
  }
  const name = typeof w.type === 'number' ? types.nameOfTypeId(w.type) : w.type;
  const t = name === undefined ? undefined : types.find(name);
  if (!t || name === undefined) throw new UnknownTypeError(String(name ?? w.type));
  if (w.kind === 'enum') {
    if (!(t instanceof pb().Enum)) throw new InvalidContentError('Invalid message encoding');
    return JSON.stringify({ _type: name, _value: t.valuesById[w.number] ?? w.number });
  }
  if (t instanceof pb().Enum) throw new InvalidContentError('Invalid message encoding');
  let obj: Record<string, unknown>;
  try {
    obj = t.toObject(t.decode(w.body), { enums: String, longs: Number, bytes: String, arrays: false, objects: false, defaults: false });
  } catch (err) {
    throw new InvalidContentError((err as Error).message);
  }
  return JSON.stringify({ _type: name, ...withDefaults(t, obj) });
}

/** Fields with a declared `[default = …]` are written even when absent, as protostream does. */
function withDefaults(t: Type, obj: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of t.fieldsArray) {
    const declared = (f.options as Record<string, unknown> | undefined)?.default;
    if (obj[f.name] !== undefined) {
      const sub = f.resolve().resolvedType; // types resolve on first use (proto-descriptors.ts)
      const v = obj[f.name];
      out[f.name] = sub && !(sub instanceof pb().Enum) && v && typeof v === 'object' && !Array.isArray(v) && !f.map
        ? withDefaults(sub, v as Record<string, unknown>)
        : Array.isArray(v) && sub && !(sub instanceof pb().Enum) ? v.map((x) => withDefaults(sub, x as Record<string, unknown>)) : v;
    } else if (declared !== undefined) {
      out[f.name] = declared;
    }
  }
  return out;
}

/** The Java value of a stored protostream scalar; messages and enums read as their JSON text. */
export function protostreamToJava(bytes: Buffer, types: ProtobufTypes): JavaValue {
  const w = unwrap(bytes);
  if (w.kind === 'scalar') return w.value;
  return { type: 'java.lang.String', value: protostreamToJson(bytes, types) };
}

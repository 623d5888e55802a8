import type { Enum, Type } from 'protobufjs';
import { excerpt, InvalidContentError, UnknownTypeError } from '../../errors';
import { parseJsonExact } from '../exact-json';
import { javaInteger, type JavaIntegerType, type JavaValue, parseJavaInteger } from '../java/java-value';
import { messageFields } from './protostream-json-fields';
import { hitJson, numberJson, shortestFloat } from './protostream-hit-json';
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
  /**
   * Calls `fn` each time the registered types change: whoever keeps types it looked up drops them
   * then, or a deleted schema's whole type tree stays in memory until the next lookup.
   */
  onChange?(fn: () => void): () => void;
}

export const NO_TYPES: ProtobufTypes = { find: () => undefined, typeIdOf: () => undefined, nameOfTypeId: () => undefined };

/** Canonical JSON `_type` of the scalars (protostream ProtobufUtil). */
const SCALAR_NAMES: Record<JavaValue['type'], string> = {
  'java.lang.String': 'string', 'java.lang.Integer': 'int32', 'java.lang.Long': 'int64', 'java.lang.Short': 'int32',
  'java.lang.Byte': 'int32', 'java.lang.Double': 'double', 'java.lang.Float': 'float', 'java.lang.Boolean': 'bool',
  'java.lang.Character': 'string', 'byte[]': 'bytes',
};

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** Integer literals arrive as their exact decimal text (exact-json.ts), as Jackson hands protostream the token's text. */
function parseJson(text: string): Json {
  try {
    return parseJsonExact(text) as Json;
  } catch {
    throw new InvalidContentError(`Invalid JSON content: ${excerpt(text)}`);
  }
}

function scalarFromJson(typeName: string, v: Json | undefined): JavaValue | undefined {
  const num = (type: JavaIntegerType): JavaValue => {
    if (typeof v === 'number' && Number.isInteger(v)) return javaInteger(type, BigInt(v));
    if (typeof v === 'string' && /^[+-]?\d+$/.test(v)) return parseJavaInteger(type, v);
    throw new InvalidContentError(`Invalid value for ${typeName}: ${excerpt(JSON.stringify(v) ?? 'undefined')}`);
  };
  switch (typeName) {
    case 'string': return { type: 'java.lang.String', value: typeof v === 'string' ? v : JSON.stringify(v) };
    case 'int32': case 'uint32': case 'sint32': case 'fixed32': case 'sfixed32': return num('java.lang.Integer');
    case 'int64': case 'uint64': case 'sint64': case 'fixed64': case 'sfixed64': return num('java.lang.Long');
    case 'double': return { type: 'java.lang.Double', value: Number(v) };
    case 'float': return { type: 'java.lang.Float', value: Math.fround(Number(v)) };
    case 'bool': return { type: 'java.lang.Boolean', value: v === true || v === 'true' };
    case 'bytes': return { type: 'byte[]', value: Buffer.from(typeof v === 'string' ? v : '', 'base64') };
    default: return undefined;
  }
}

/** Canonical protostream JSON → WrappedMessage bytes (docs/reference/media-types.md#protostream-json). */
export function jsonToProtostream(text: string, types: ProtobufTypes): Buffer {
  const doc = parseJson(text);
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) {
    // the original wraps bare Java scalars; a bare JSON scalar is read the same way
    if (typeof doc === 'string' && /^-?\d+$/.test(text.trim())) {
      const n = parseJavaInteger('java.lang.Long', doc).value as bigint;
      return wrapScalar(n >= -(2n ** 31n) && n < 2n ** 31n ? javaInteger('java.lang.Integer', n) : { type: 'java.lang.Long', value: n });
    }
    if (typeof doc === 'string') return wrapScalar({ type: 'java.lang.String', value: doc });
    if (typeof doc === 'boolean') return wrapScalar({ type: 'java.lang.Boolean', value: doc });
    if (typeof doc === 'number') return wrapScalar({ type: 'java.lang.Double', value: doc });
    throw new InvalidContentError(`Invalid JSON content: ${excerpt(text)}`);
  }
  const typeName = doc._type;
  if (typeof typeName !== 'string') throw new InvalidContentError("Expected field '_type' in the JSON document");
  const scalar = scalarFromJson(typeName, doc._value);
  if (scalar) return wrapScalar(scalar);
  const t = types.find(typeName);
  if (!t) throw new UnknownTypeError(typeName);
  const ref = types.typeIdOf(typeName) ?? typeName;
  if (t instanceof pb().Enum) {
    // a name, or a number (integer literals arrive as digits, which no enum name starts with)
    const v = doc._value;
    const n = typeof v === 'string' && /^-?\d+$/.test(v) ? (Object.values(t.values).includes(Number(v)) ? Number(v) : undefined)
      : typeof v === 'string' && Object.prototype.hasOwnProperty.call(t.values, v) ? t.values[v] : undefined;
    if (n === undefined) throw new InvalidContentError(`Invalid enum value : '${excerpt(String(v))}'`); // protostream JsonReader.processEnum
    return wrapEnum(ref, n);
  }
  const fields = messageFields(t, doc); // refuses what protostream's JsonReader refuses, before protobufjs drops it
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
    const value = v.type === 'byte[]' ? JSON.stringify(v.value.toString('base64'))
      : typeof v.value === 'bigint' ? String(v.value) // exact, as Long.toString writes it
        : v.type === 'java.lang.Float' ? numberJson(shortestFloat(v.value as number))
          : typeof v.value === 'number' ? numberJson(v.value) : JSON.stringify(v.value);
    return `{"_type":${JSON.stringify(SCALAR_NAMES[v.type])},"_value":${value}}`;
  }
  const name = typeof w.type === 'number' ? types.nameOfTypeId(w.type) : w.type;
  const t = name === undefined ? undefined : types.find(name);
  if (!t || name === undefined) throw new UnknownTypeError(String(name ?? w.type));
  if (w.kind === 'enum') {
    if (!(t instanceof pb().Enum)) throw new InvalidContentError('Invalid message encoding');
    return JSON.stringify({ _type: name, _value: t.valuesById[w.number] ?? w.number });
  }
  if (t instanceof pb().Enum) throw new InvalidContentError('Invalid message encoding');
  let message: object;
  try {
    message = t.decode(w.body);
  } catch (err) {
    throw new InvalidContentError((err as Error).message);
  }
  return hitJson(t, message); // one writer for entry reads and search hits (docs/reference/query.md#result-json)
}

/** The Java value of a stored protostream scalar; messages and enums read as their JSON text. */
export function protostreamToJava(bytes: Buffer, types: ProtobufTypes): JavaValue {
  const w = unwrap(bytes);
  if (w.kind === 'scalar') return w.value;
  return { type: 'java.lang.String', value: protostreamToJson(bytes, types) };
}

import type { Field, Type } from 'protobufjs';
import { excerpt, InvalidContentError } from '../../errors';

// loaded on first use, as elsewhere in the model
let pbModule: typeof import('protobufjs') | undefined;
const pb = (): typeof import('protobufjs') => (pbModule ??= require('protobufjs') as typeof import('protobufjs'));

const hasOwn = (o: object, name: string): boolean => Object.prototype.hasOwnProperty.call(o, name);

const SIGNED_64 = new Set(['int64', 'sint64', 'sfixed64']);
const UNSIGNED_64 = new Set(['uint64', 'fixed64']);

/**
 * The fields of a canonical JSON message (already parsed with integer literals as text), checked
 * as protostream's JsonReader checks them and made ready for protobufjs `fromObject`, which would
 * otherwise drop unknown fields and enum names silently and round 64-bit values:
 * - a field the schema does not declare ⇒ `The field '<name>' was not found in the Protobuf schema`
 *   (`_type` is allowed anywhere; a null value writes nothing);
 * - an enum name the enum does not declare ⇒ `Invalid enum value '<name>'`;
 * - 64-bit integers read exactly (Long.parseLong, Long.parseUnsignedLong for uint64/fixed64).
 */
export function messageFields(t: Type, doc: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, v] of Object.entries(doc)) {
    if (name === '_type' || v === null) continue;
    const f = hasOwn(t.fields, name) ? t.fields[name] : undefined;
    if (!f) throw new InvalidContentError(`The field '${excerpt(name)}' was not found in the Protobuf schema`);
    out[name] = f.map ? mapEntries(f, v) : Array.isArray(v) ? repeated(f, v) : fieldValue(f, v);
  }
  return out;
}

function repeated(f: Field, values: unknown[]): unknown {
  if (f.repeated) return values.filter((x) => x !== null).map((x) => fieldValue(f, x));
  if (f.type === 'bytes') return values.map((x) => Number(x) & 0xff); // [7,7,7] reads as bytes too
  throw new InvalidContentError(`Field '${f.name}' is not an array`);
}

function mapEntries(f: Field, v: unknown): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new InvalidContentError(`Field '${f.name}' is not an object`);
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) if (x !== null) out[k] = fieldValue(f, x);
  return out;
}

function fieldValue(f: Field, v: unknown): unknown {
  const sub = f.resolve().resolvedType; // types resolve on first use (proto-descriptors.ts)
  const isObject = typeof v === 'object' && v !== null && !Array.isArray(v);
  if (sub instanceof pb().Type) {
    if (!isObject) throw new InvalidContentError('The Protobuf declared field type is not compatible with the written type : MESSAGE');
    return messageFields(sub, v as Record<string, unknown>);
  }
  if (isObject || Array.isArray(v)) throw new InvalidContentError(`Field '${f.name}' is not an object`);
  if (sub instanceof pb().Enum) {
    const name = String(v);
    if (!hasOwn(sub.values, name)) throw new InvalidContentError(`Invalid enum value '${excerpt(name)}'`);
    return sub.values[name];
  }
  if (SIGNED_64.has(f.type)) return parseLong(v, -(2n ** 63n), 2n ** 63n - 1n);
  if (UNSIGNED_64.has(f.type)) return parseLong(v, 0n, 2n ** 64n - 1n);
  return v;
}

/** The exact decimal text protobufjs turns into a Long; out of range is refused as Java refuses it. */
function parseLong(v: unknown, min: bigint, max: bigint): string {
  const text = String(v);
  if (/^[+-]?\d{1,40}$/.test(text)) {
    const n = BigInt(text);
    if (n >= min && n <= max) return n.toString();
  }
  throw new InvalidContentError(`For input string: "${excerpt(text)}"`);
}

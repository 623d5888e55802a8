import type { Enum, Field, Type } from 'protobufjs';

// loaded on first use, as elsewhere in the model
let pbModule: typeof import('protobufjs') | undefined;
const pb = (): typeof import('protobufjs') => (pbModule ??= require('protobufjs') as typeof import('protobufjs'));

const hasOwn = (o: object, name: string): boolean => Object.prototype.hasOwnProperty.call(o, name);

/**
 * A query hit as protostream's canonical JSON (docs/reference/query.md#result-json): `_type` first and only at the top,
 * only the fields present (no proto2 defaults filled in), repeated fields as arrays, enums by name,
 * 64-bit integers as exact bare numbers, bytes as base64, NaN and infinities quoted.
 */
export function hitJson(type: Type, message: object): string {
  return `{"_type":${JSON.stringify(type.fullName.replace(/^\./, ''))}${fieldsJson(type, message, true)}}`;
}

function fieldsJson(type: Type, message: object, afterType: boolean): string {
  let out = '';
  let first = !afterType;
  for (const f of type.fieldsArray) {
    if (!hasOwn(message, f.name)) continue;
    const v = (message as Record<string, unknown>)[f.name];
    if (v === undefined || v === null || (Array.isArray(v) && v.length === 0)) continue;
    out += `${first ? '' : ','}${JSON.stringify(f.name)}:${valueJson(f, v)}`;
    first = false;
  }
  return out;
}

function valueJson(f: Field, v: unknown): string {
  if (f.map) {
    const entries = Object.entries(v as Record<string, unknown>).map(([k, x]) => `${JSON.stringify(k)}:${scalarJson(f, x)}`);
    return `{${entries.join(',')}}`;
  }
  if (f.repeated && Array.isArray(v)) return `[${v.map((x) => scalarJson(f, x)).join(',')}]`;
  return scalarJson(f, v);
}

function scalarJson(f: Field, v: unknown): string {
  const t = f.resolve().resolvedType; // types resolve on first use (proto-descriptors.ts)
  if (t instanceof pb().Type) return `{${fieldsJson(t, v as object, false)}}`;
  if (t instanceof pb().Enum) return JSON.stringify((t as Enum).valuesById[v as number] ?? v);
  switch (f.type) {
    case 'int64': case 'uint64': case 'sint64': case 'fixed64': case 'sfixed64':
      return String(v); // a Long prints its exact decimal value
    case 'bytes': return JSON.stringify(Buffer.from(v as Uint8Array).toString('base64'));
    case 'float': return numberJson(shortestFloat(v as number));
    case 'double': return numberJson(v as number);
    default: return JSON.stringify(v);
  }
}

/** A double as JSON; NaN and the infinities quoted, as protostream writes them. */
export function numberJson(n: number): string {
  return Number.isFinite(n) ? JSON.stringify(n) : JSON.stringify(String(n));
}

/** The shortest decimal reading back as the same float32, as Java's Float.toString prints it. */
export function shortestFloat(v: number): number {
  if (!Number.isFinite(v)) return v;
  for (let digits = 1; digits <= 9; digits++) {
    const candidate = Number(v.toPrecision(digits));
    if (Math.fround(candidate) === v) return candidate;
  }
  return v;
}

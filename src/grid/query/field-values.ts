import type { FieldRef, Scalar } from '../../model/ickle/analyzed-query';
import type { PropertyModel, ValueKind } from '../../model/ickle/entity-model';
import { longFromBits, toJavaLong } from '../../model/ickle/java-long';
import { shortestFloat } from '../../model/protobuf/protostream-hit-json';

/** Reads one field path from a decoded entity: every value (repeated paths give several). */
export type ValuesAccessor = (entity: object) => Scalar[];

const hasOwn = (o: object, name: string): boolean => Object.prototype.hasOwnProperty.call(o, name);

interface LongLike { high: number; low: number }

/**
 * A decoded protobufjs value as the engine compares it: a Long → a Java long (exact, signed: see
 * java-long.ts), bytes → base64 text.
 */
export function toScalar(v: unknown, kind: ValueKind): Scalar {
  if (kind === 'long') return longScalar(v);
  if (kind === 'bytes' && v instanceof Uint8Array) return Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64');
  return v as Scalar;
}

/** protobufjs gives a Long; a proto2 default is a number or text. */
function longScalar(v: unknown): Scalar {
  if (typeof v === 'object' && v !== null) return longFromBits((v as LongLike).high, (v as LongLike).low);
  if (typeof v === 'number' && Number.isInteger(v) && !Number.isSafeInteger(v)) return toJavaLong(BigInt.asIntN(64, BigInt(v)));
  if (typeof v === 'string' && /^[+-]?\d+$/.test(v)) return toJavaLong(BigInt.asIntN(64, BigInt(v)));
  return v as Scalar;
}

/** The present value of a field, or its declared default (docs/reference/query.md#scan-semantics); undefined when absent. */
function own(o: object, p: PropertyModel): unknown {
  if (hasOwn(o, p.name)) return (o as Record<string, unknown>)[p.name];
  return p.repeated ? undefined : p.defaultValue;
}

/**
 * An accessor compiled once per query and field: a single-valued top-level field reads one
 * property; deeper or repeated paths walk every element (a path matches if any element does).
 */
export function compileAccessor(ref: FieldRef): ValuesAccessor {
  const leaf = ref.leaf;
  if (ref.props.length === 1 && !leaf.repeated) {
    return (e) => {
      const v = own(e, leaf);
      return v === undefined || v === null ? [] : [toScalar(v, leaf.kind)];
    };
  }
  return (e) => {
    let level: unknown[] = [e];
    for (const p of ref.props) {
      const next: unknown[] = [];
      for (const o of level) {
        const v = own(o as object, p);
        if (v === undefined || v === null) continue;
        if (p.repeated && Array.isArray(v)) for (const x of v) next.push(x);
        else next.push(v);
      }
      level = next;
      if (level.length === 0) return [];
    }
    return level.map((v) => toScalar(v, leaf.kind));
  };
}

/** A single-valued path's value or null (sorting, grouping, projections). */
export function compileSingle(ref: FieldRef): (entity: object) => Scalar | null {
  const all = compileAccessor(ref);
  return (e) => {
    const v = all(e);
    return v.length ? v[0] : null;
  };
}

/** A projected value in the JSON the original writes (docs/reference/query.md#projection-values): bytes as signed byte arrays, floats as floats. */
export function projectValue(ref: FieldRef): (entity: object) => unknown {
  const leaf = ref.leaf;
  const single = compileSingle(ref);
  return (e) => {
    const v = single(e);
    if (v === null) return null;
    if (leaf.kind === 'bytes') return [...Buffer.from(String(v), 'base64')].map((b) => (b << 24) >> 24);
    if (typeof v === 'number' && !Number.isFinite(v)) return String(v);
    if (leaf.kind === 'float' && typeof v === 'number') return shortestFloat(v);
    return v;
  };
}

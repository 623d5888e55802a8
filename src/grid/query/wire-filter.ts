import type { Field, Type } from 'protobufjs';
import type { Condition, FieldRef, Scalar, Target } from '../../model/ickle/analyzed-query';
import { isColumn } from '../../model/ickle/analyzed-query';
import { WireReader } from '../../model/protobuf/wire-reader';
import { compileCondition } from './condition-eval';
import { toScalar } from './field-values';

/** A test over a message's bytes `[start, end)`: false only for entities WHERE cannot match. */
export type WireFilter = (bytes: Buffer, start: number, end: number) => boolean;

const WIRE_TYPES: Readonly<Record<string, number>> = {
  int32: 0, uint32: 0, sint32: 0, int64: 0, uint64: 0, sint64: 0, bool: 0,
  fixed64: 1, sfixed64: 1, double: 1, string: 2, fixed32: 5, sfixed32: 5, float: 5,
};

const NONE: Scalar[] = [];

/**
 * Lets a scan skip entities without decoding them (docs/query.md#execution-without-an-index: the scan is bound by decoding, not by
 * matching). Fields read straight from the bytes are top-level, single-valued scalars, converted
 * as the decoder converts them; every other condition counts as unknown, so the filter accepts a
 * superset of the matches — what it accepts is decoded and tested exactly, and anything unusual on
 * the wire (a wrong wire type, truncation, a 64-bit value beyond 2^53) is accepted too.
 * Undefined when nothing in WHERE can be read this way.
 */
export function compileWireFilter(where: Condition, type: Type): WireFilter | undefined {
  const message = new WireMessage(type);
  const condition = superset(where, (t) => message.reads(t));
  if (condition.kind === 'true') return undefined;
  const test = compileCondition<WireMessage>(condition, (t) => message.accessor(t as FieldRef));
  return (bytes, start, end) => {
    message.load(bytes, start, end);
    const accepted = test(message) || message.unusual;
    message.release();
    return accepted;
  };
}

/**
 * A condition that holds for every entity `c` holds for (`exact` false) or only for entities it
 * holds for (`exact` true), using only the leaves `readable` accepts.
 */
function superset(c: Condition, readable: (t: Target) => boolean, exact = false): Condition {
  switch (c.kind) {
    case 'true': case 'false': return c;
    case 'and': case 'or': return simplify(c.kind, c.items.map((i) => superset(i, readable, exact)));
    case 'not': return negate(superset(c.item, readable, !exact));
    case 'text': return readable(c.field) ? c : { kind: exact ? 'false' : 'true' };
    default: return readable(c.target) ? c : { kind: exact ? 'false' : 'true' };
  }
}

function simplify(kind: 'and' | 'or', items: Condition[]): Condition {
  const absorbing = kind === 'and' ? 'false' : 'true';
  if (items.some((i) => i.kind === absorbing)) return { kind: absorbing };
  const rest = items.filter((i) => i.kind !== (kind === 'and' ? 'true' : 'false'));
  if (rest.length === 0) return { kind: kind === 'and' ? 'true' : 'false' };
  return rest.length === 1 ? rest[0] : { kind, items: rest };
}

function negate(c: Condition): Condition {
  if (c.kind === 'true') return { kind: 'false' };
  if (c.kind === 'false') return { kind: 'true' };
  return { kind: 'not', item: c };
}

/**
 * One message's bytes, looked at once per entity: the position of the last occurrence of each
 * field WHERE reads (the last one wins, as in decoding), the values read on demand.
 */
class WireMessage {
  unusual = false;
  private readonly wire = new WireReader();
  private readonly slots = new Map<number, number>();
  /** Slots by field number, for the numbers up to 1023 (most messages): an array read per field on the wire. */
  private slotByNumber = new Int16Array(0);
  private readonly fields: Field[] = [];
  private positions = new Int32Array(0);
  private wireTypes = new Uint8Array(0);
  private readonly one: Scalar[] = [0];

  constructor(private readonly type: Type) {}

  /** A top-level, single-valued scalar field (not bytes, not a message or map). */
  reads(t: Target): boolean {
    if (isColumn(t) || t.props.length !== 1 || t.leaf.repeated || t.leaf.kind === 'bytes' || t.leaf.kind === 'message') return false;
    const field = this.type.fields[t.leaf.name];
    return field !== undefined && !field.map && !field.repeated && (t.leaf.kind === 'enum' || WIRE_TYPES[field.type] !== undefined);
  }

  accessor(ref: FieldRef): (m: WireMessage) => Scalar[] {
    const field = this.type.fields[ref.leaf.name];
    let slot = this.slots.get(field.id);
    if (slot === undefined) {
      slot = this.fields.length;
      this.slots.set(field.id, slot);
      this.fields.push(field);
      this.positions = new Int32Array(this.fields.length);
      this.wireTypes = new Uint8Array(this.fields.length);
      const numbers = [...this.slots.keys()].filter((n) => n < 1024);
      this.slotByNumber = new Int16Array(Math.max(0, ...numbers) + 1).fill(-1);
      for (const n of numbers) this.slotByNumber[n] = this.slots.get(n)!;
    }
    const at = slot;
    const kind = ref.leaf.kind;
    const protoType = kind === 'enum' ? 'int32' : field.type;
    const expected = WIRE_TYPES[protoType];
    const absent = ref.leaf.defaultValue === undefined || ref.leaf.defaultValue === null ? NONE : [toScalar(ref.leaf.defaultValue, kind)];
    // one array for every entity and condition: the filter's predicates read it at once and keep
    // nothing, and a scan would otherwise allocate one per entity and condition (young-generation
    // collections)
    const one = this.one;
    return (m) => {
      const pos = m.positions[at];
      if (pos < 0) return absent;
      if (m.wireTypes[at] !== expected) {
        m.unusual = true;
        return NONE;
      }
      const v = m.value(pos, protoType);
      if (v === undefined) return NONE;
      one[0] = v;
      return one;
    };
  }

  load(bytes: Buffer, start: number, end: number): void {
    this.unusual = false;
    this.positions.fill(-1);
    const r = this.wire.reset(bytes, start, end);
    const byNumber = this.slotByNumber;
    while (r.more) {
      const tag = r.uint32();
      const number = tag >>> 3;
      const slot = number < byNumber.length ? byNumber[number] : number >= 1024 ? this.slots.get(number) ?? -1 : -1;
      if (slot >= 0) {
        this.positions[slot] = r.pos;
        this.wireTypes[slot] = tag & 7;
      }
      r.skip(tag & 7);
    }
    if (r.failed) this.unusual = true;
  }

  /**
   * Lets go of the message's bytes and the last value read: the filter lives as long as its
   * compiled query (the memo), and 400 conditions on one field once kept 400 copies of a 200 KB
   * string per remembered query.
   */
  release(): void {
    this.wire.release();
    this.one[0] = 0;
  }

  /** The value at `pos` as the decoder gives it (then as the engine compares it); undefined when unusual. */
  private value(pos: number, protoType: string): Scalar | undefined {
    const r = this.wire;
    r.pos = pos;
    let v: Scalar;
    switch (protoType) {
      case 'int32': v = r.varint32() | 0; break;
      case 'uint32': v = r.varint32(); break;
      case 'sint32': { const u = r.varint32(); v = (u >>> 1) ^ -(u & 1); break; }
      case 'bool': v = r.varint32() !== 0; break;
      case 'int64': v = this.long(r.varint64(), true); break;
      case 'uint64': v = this.long(r.varint64(), false); break;
      case 'sint64': v = this.zigZag64(r.varint64()); break;
      case 'fixed64': v = this.long(r.fixed64(), false); break;
      case 'sfixed64': v = this.long(r.fixed64(), true); break;
      case 'double': v = r.double(); break;
      case 'fixed32': v = r.fixed32(); break;
      case 'sfixed32': v = r.fixed32() | 0; break;
      case 'float': v = r.float(); break;
      case 'string': { const at = r.delimited(); v = r.bytes.toString('utf8', at, r.pos); break; }
      default: return this.odd();
    }
    return r.failed ? this.odd() : v;
  }

  /**
   * A 64-bit integer as the engine reads it (java-long.ts) while it is within 2^53, where signed and
   * unsigned readings agree; a value beyond is left to the exact predicate.
   */
  private long(lo: number, signed: boolean): number {
    const hi = this.wire.hi;
    const v = (signed ? hi | 0 : hi) * 4294967296 + lo;
    return Number.isSafeInteger(v) ? v : this.odd();
  }

  private zigZag64(lo: number): number {
    const hi = this.wire.hi;
    const mask = -(lo & 1);
    const low = (((lo >>> 1) | (hi << 31)) ^ mask) >>> 0;
    this.wire.hi = ((hi >>> 1) ^ mask) >>> 0;
    return this.long(low, true);
  }

  private odd(): number {
    this.unusual = true;
    return NaN;
  }
}

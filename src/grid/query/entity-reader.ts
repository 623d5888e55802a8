import type { Message, Type } from 'protobufjs';
import { WRAPPED } from '../../model/wrapped-message';

/** A decoded entity: the protobufjs message; field values are read through field-values.ts. */
export type EntityMessage = Message<Record<string, unknown>>;

/**
 * Decodes the stored values of one entity type. A protostream value is a WrappedMessage whose
 * type (name or id) comes before the message bytes; values of other types are skipped after
 * reading that header, without decoding or allocating. Malformed values read as undefined.
 */
export class EntityReader {
  private readonly nameBytes: Buffer;

  constructor(readonly type: Type, private readonly typeId: number | undefined) {
    this.nameBytes = Buffer.from(type.fullName.replace(/^\./, ''), 'utf8');
  }

  read(value: Buffer): EntityMessage | undefined {
    const body = this.body(value);
    if (!body) return undefined;
    try {
      return this.type.decode(body) as EntityMessage;
    } catch {
      return undefined;
    }
  }

  /** The message bytes when the value is a WrappedMessage of this type. */
  body(value: Buffer): Buffer | undefined {
    let pos = 0;
    let ours = false;
    let body: Buffer | undefined;
    while (pos < value.length) {
      const tag = readVarint(value, pos);
      if (!tag) return undefined;
      pos = tag.next;
      const field = tag.value >>> 3;
      const wireType = tag.value & 7;
      if (wireType === 0) {
        const v = readVarint(value, pos);
        if (!v) return undefined;
        pos = v.next;
        if (field === WRAPPED.typeId) ours = v.value === this.typeId;
        else if (field === WRAPPED.enum) return undefined;
      } else if (wireType === 2) {
        const len = readVarint(value, pos);
        if (!len || len.next + len.value > value.length) return undefined;
        const start = len.next;
        pos = start + len.value;
        if (field === WRAPPED.typeName) ours = len.value === this.nameBytes.length && this.nameBytes.equals(value.subarray(start, pos));
        else if (field === WRAPPED.message) body = value.subarray(start, pos);
        else return undefined; // a wrapped scalar string or bytes
      } else {
        return undefined;
      }
    }
    return ours ? body : undefined;
  }
}

/** The type (name or id) and message bytes of a WrappedMessage holding a message; undefined otherwise. */
export function readWrapped(value: Buffer): { type: string | number; body: Buffer } | undefined {
  let pos = 0;
  let type: string | number | undefined;
  let body: Buffer | undefined;
  while (pos < value.length) {
    const tag = readVarint(value, pos);
    if (!tag) return undefined;
    pos = tag.next;
    const field = tag.value >>> 3;
    const wireType = tag.value & 7;
    const v = readVarint(value, pos);
    if (!v) return undefined;
    if (wireType === 0) {
      pos = v.next;
      if (field === WRAPPED.typeId) type = v.value;
      else return undefined;
    } else if (wireType === 2) {
      if (v.next + v.value > value.length) return undefined;
      pos = v.next + v.value;
      if (field === WRAPPED.typeName) type = value.toString('utf8', v.next, pos);
      else if (field === WRAPPED.message) body = value.subarray(v.next, pos);
      else return undefined;
    } else {
      return undefined;
    }
  }
  return type !== undefined && body !== undefined ? { type, body } : undefined;
}

/** A varint of up to 32 bits (tags, lengths, type ids); undefined when truncated or longer. */
function readVarint(b: Buffer, pos: number): { value: number; next: number } | undefined {
  let value = 0;
  for (let shift = 0; shift < 35; shift += 7) {
    if (pos >= b.length) return undefined;
    const byte = b[pos++];
    value += (byte & 0x7f) * 2 ** shift;
    if (byte < 0x80) return value > 0xffffffff ? undefined : { value, next: pos };
  }
  return undefined;
}

import type { Message, Type } from 'protobufjs';
import { WireReader } from '../../model/wire-reader';
import { WRAPPED } from '../../model/wrapped-message';

/** A decoded entity: the protobufjs message; field values are read through field-values.ts. */
export type EntityMessage = Message<Record<string, unknown>>;

/**
 * Decodes the stored values of one entity type. A protostream value is a WrappedMessage whose
 * type (name or id) comes before the message bytes; values of other types are skipped after
 * reading that header, without decoding or allocating. Malformed values read as undefined.
 */
export class EntityReader {
  /** Where `locate` found the message bytes. */
  bodyStart = 0;
  bodyEnd = 0;
  private readonly nameBytes: Buffer;
  private readonly wire = new WireReader();

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
    return this.locate(value, 0, value.length) ? value.subarray(this.bodyStart, this.bodyEnd) : undefined;
  }

  /**
   * Whether `bytes[start, end)` is a WrappedMessage of this type; if so its message bytes are at
   * `[bodyStart, bodyEnd)`. Reads the header in place: scans call it for every entry.
   */
  locate(bytes: Buffer, start: number, end: number): boolean {
    const found = this.find(bytes, start, end);
    this.wire.release(); // the reader lives as long as its compiled query (the memo)
    return found;
  }

  private find(bytes: Buffer, start: number, end: number): boolean {
    const r = this.wire.reset(bytes, start, end);
    let ours = false;
    let found = false;
    while (r.more) {
      const tag = r.uint32();
      const field = tag >>> 3;
      const wireType = tag & 7;
      if (r.failed) return false;
      if (wireType === 0) {
        const v = r.uint32();
        if (field === WRAPPED.typeId) ours = v === this.typeId;
        else if (field === WRAPPED.enum) return false;
      } else if (wireType === 2) {
        const at = r.delimited();
        if (r.failed) return false;
        if (field === WRAPPED.typeName) ours = this.isName(bytes, at, r.pos);
        else if (field === WRAPPED.message) {
          this.bodyStart = at;
          this.bodyEnd = r.pos;
          found = true;
        } else return false; // a wrapped scalar string or bytes
      } else {
        return false;
      }
    }
    return !r.failed && ours && found;
  }

  /** A loop rather than Buffer.compare: type names are short, and a native call costs more. */
  private isName(bytes: Buffer, start: number, end: number): boolean {
    const name = this.nameBytes;
    if (end - start !== name.length) return false;
    for (let i = 0; i < name.length; i++) if (bytes[start + i] !== name[i]) return false;
    return true;
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

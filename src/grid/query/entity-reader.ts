import type { Message, Type } from 'protobufjs';
import { WireReader } from '../../model/protobuf/wire-reader';
import { WRAPPED } from '../../model/protobuf/wrapped-message';

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

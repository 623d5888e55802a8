import { InvalidContentError } from '../../errors';
import { WireReader } from './wire-reader';

/**
 * Minimal protobuf wire format: tags, varints, fixed widths, length-delimited fields. Every
 * reading of wire bytes goes through `WireReader` (src/model/protobuf/wire-reader.ts); this file writes
 * them and lists a message's fields for the readers that want them whole.
 */
export class WireWriter {
  private readonly parts: number[] = [];
  private readonly chunks: Buffer[] = [];

  varint(field: number, value: bigint): this {
    return this.tag(field, 0).rawVarint(value);
  }

  fixed64(field: number, value: number): this {
    const b = Buffer.alloc(8);
    b.writeDoubleLE(value);
    return this.tag(field, 1).raw(b);
  }

  fixed32(field: number, value: number): this {
    const b = Buffer.alloc(4);
    b.writeFloatLE(value);
    return this.tag(field, 5).raw(b);
  }

  bytes(field: number, value: Buffer): this {
    return this.tag(field, 2).rawVarint(BigInt(value.length)).raw(value);
  }

  finish(): Buffer {
    this.flush();
    return Buffer.concat(this.chunks);
  }

  private tag(field: number, wireType: number): this {
    // not `field << 3`: fields from 2^28 up (protobuf allows up to 2^29 - 1) would overflow 32 bits
    return this.rawVarint((BigInt(field) << 3n) | BigInt(wireType));
  }

  private rawVarint(value: bigint): this {
    let v = BigInt.asUintN(64, value);
    while (v >= 0x80n) {
      this.parts.push(Number(v & 0x7fn) | 0x80);
      v >>= 7n;
    }
    this.parts.push(Number(v));
    return this;
  }

  private raw(b: Buffer): this {
    this.flush();
    this.chunks.push(b);
    return this;
  }

  private flush(): void {
    if (this.parts.length) this.chunks.push(Buffer.from(this.parts.splice(0)));
  }
}

export type WireValue = { wireType: 0; value: bigint } | { wireType: 1 | 5 | 2; value: Buffer };

export type WireField = { field: number } & WireValue;

/** Reads every field of a message; malformed input → 400 (never a crash). */
export function readFields(bytes: Buffer): WireField[] {
  const out: WireField[] = [];
  forEachField(bytes, (f) => out.push(f));
  return out;
}

/**
 * Hands each field of a message to `visit` in order, keeping none: a reader that expects a few
 * fields stops at the first one too many instead of first listing millions (a 10 MB value of
 * two-byte fields made five million objects). Malformed input → 400, where it is found.
 */
export function forEachField(bytes: Buffer, visit: (f: WireField) => void): void {
  const r = new WireReader().reset(bytes, 0, bytes.length);
  while (r.pos < bytes.length) {
    const tag = r.uint32();
    const field = tag >>> 3;
    const wireType = tag & 7;
    if (r.failed || field === 0) throw malformed();
    if (wireType === 0) {
      const lo = r.varint64();
      if (r.failed) throw malformed();
      visit({ field, wireType, value: (BigInt(r.hi) << 32n) | BigInt(lo) });
    } else if (wireType === 1 || wireType === 2 || wireType === 5) {
      const start = wireType === 2 ? r.delimited() : r.pos;
      if (wireType !== 2) r.skip(wireType);
      if (r.failed) throw malformed();
      visit({ field, wireType, value: bytes.subarray(start, r.pos) });
    } else {
      throw malformed();
    }
  }
}

function malformed(): InvalidContentError {
  return new InvalidContentError('Invalid message encoding');
}

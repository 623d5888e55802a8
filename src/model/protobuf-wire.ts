import { InvalidContentError } from '../errors';

/** Minimal protobuf wire format: tags, varints, fixed widths, length-delimited fields. */
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
    return this.rawVarint(BigInt((field << 3) | wireType));
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
  let pos = 0;
  const varint = (): bigint => {
    let result = 0n;
    for (let shift = 0n; shift < 70n; shift += 7n) {
      if (pos >= bytes.length) throw malformed();
      const b = bytes[pos++];
      result |= BigInt(b & 0x7f) << shift;
      if (b < 0x80) return BigInt.asUintN(64, result);
    }
    throw malformed();
  };
  const take = (n: number): Buffer => {
    if (pos + n > bytes.length) throw malformed();
    const b = bytes.subarray(pos, pos + n);
    pos += n;
    return b;
  };
  while (pos < bytes.length) {
    const tag = Number(varint());
    const field = tag >>> 3;
    const wireType = tag & 7;
    if (field === 0) throw malformed();
    if (wireType === 0) visit({ field, wireType, value: varint() });
    else if (wireType === 1) visit({ field, wireType, value: take(8) });
    else if (wireType === 5) visit({ field, wireType, value: take(4) });
    else if (wireType === 2) visit({ field, wireType, value: take(Number(varint())) });
    else throw malformed();
  }
}

function malformed(): InvalidContentError {
  return new InvalidContentError('Invalid message encoding');
}

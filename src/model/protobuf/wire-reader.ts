const EMPTY = Buffer.alloc(0);

/**
 * A cursor over protobuf wire bytes that allocates nothing: what a scan uses to look into stored
 * messages without decoding them. Reading past `end` or a malformed varint sets `failed` (and
 * returns 0); callers check it once they are done.
 */
export class WireReader {
  bytes: Buffer = EMPTY;
  pos = 0;
  end = 0;
  failed = false;
  /** The high 32 bits of the last `varint64` or `fixed64`. */
  hi = 0;

  reset(bytes: Buffer, start: number, end: number): this {
    this.bytes = bytes;
    this.pos = start;
    this.end = end;
    this.failed = false;
    return this;
  }

  /** Lets go of the bytes: a reader kept with a compiled query must not keep the last value it read. */
  release(): void {
    this.bytes = EMPTY;
    this.pos = 0;
    this.end = 0;
  }

  get more(): boolean {
    return this.pos < this.end && !this.failed;
  }

  /** A tag or a length: a varint of at most 32 bits (anything longer is malformed here). */
  uint32(): number {
    if (this.pos < this.end && this.bytes[this.pos] < 0x80) return this.bytes[this.pos++]; // most tags and short lengths
    const b = this.bytes;
    let v = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      if (this.pos >= this.end) break;
      const byte = b[this.pos++];
      v += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) {
        if (v <= 0xffffffff) return v;
        break;
      }
    }
    this.failed = true;
    return 0;
  }

  /** A varint field's low 32 bits, unsigned, as protobuf readers take int32, uint32, enums and bools (up to 10 bytes). */
  varint32(): number {
    const b = this.bytes;
    let v = 0;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) break;
      const byte = b[this.pos++];
      if (i < 5) v |= (byte & 0x7f) << (7 * i);
      if (byte < 0x80) return v >>> 0;
    }
    this.failed = true;
    return 0;
  }

  /** A 64-bit varint: returns the low 32 bits (unsigned) and leaves the high ones in `hi`. */
  varint64(): number {
    const b = this.bytes;
    let lo = 0;
    let hi = 0;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) break;
      const bits = b[this.pos] & 0x7f;
      const more = b[this.pos++] >= 0x80;
      if (i < 4) lo |= bits << (7 * i);
      else if (i === 4) {
        lo |= bits << 28;
        hi |= bits >>> 4;
      } else hi |= bits << (7 * i - 32);
      if (!more) {
        this.hi = hi >>> 0;
        return lo >>> 0;
      }
    }
    this.failed = true;
    return 0;
  }

  fixed32(): number {
    if (this.pos + 4 > this.end) return this.fail();
    const v = this.bytes.readUInt32LE(this.pos);
    this.pos += 4;
    return v;
  }

  /** Returns the low 32 bits and leaves the high ones in `hi`. */
  fixed64(): number {
    if (this.pos + 8 > this.end) return this.fail();
    const lo = this.bytes.readUInt32LE(this.pos);
    this.hi = this.bytes.readUInt32LE(this.pos + 4);
    this.pos += 8;
    return lo;
  }

  float(): number {
    if (this.pos + 4 > this.end) return this.fail();
    const v = this.bytes.readFloatLE(this.pos);
    this.pos += 4;
    return v;
  }

  double(): number {
    if (this.pos + 8 > this.end) return this.fail();
    const v = this.bytes.readDoubleLE(this.pos);
    this.pos += 8;
    return v;
  }

  /** Skips a length-delimited field's bytes and returns where they start (`pos` is then their end). */
  delimited(): number {
    const length = this.uint32();
    const start = this.pos;
    if (this.failed || start + length > this.end) return this.fail();
    this.pos = start + length;
    return start;
  }

  /** Skips one value of a wire type; groups (3, 4) and unknown types fail. */
  skip(wireType: number): void {
    switch (wireType) {
      case 0: this.skipVarint(); return;
      case 1: this.pos + 8 > this.end ? this.fail() : (this.pos += 8); return;
      case 2: this.delimited(); return;
      case 5: this.pos + 4 > this.end ? this.fail() : (this.pos += 4); return;
      default: this.fail();
    }
  }

  private skipVarint(): void {
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) break;
      if (this.bytes[this.pos++] < 0x80) return;
    }
    this.failed = true;
  }

  private fail(): number {
    this.failed = true;
    return 0;
  }
}

/**
 * Encodes Java scalar keys as protostream `WrappedMessage` bytes (behavior-notes §4.6), which is how
 * the original server stores an `application/x-java-object` key in a cache without a configured
 * key type. Field numbers: double 1, float 2, int64 3, int32 5, bool 8, short 21, byte 22.
 */
function varint(value: bigint): number[] {
  let v = BigInt.asUintN(64, value);
  const out: number[] = [];
  while (v >= 0x80n) {
    out.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  out.push(Number(v));
  return out;
}

function tag(field: number, wireType: number): number[] {
  return varint(BigInt((field << 3) | wireType));
}

export function wrapVarint(field: number, value: bigint): Buffer {
  return Buffer.from([...tag(field, 0), ...varint(value)]);
}

export function wrapDouble(value: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeDoubleLE(value);
  return Buffer.concat([Buffer.from(tag(1, 1)), b]);
}

export function wrapFloat(value: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeFloatLE(value);
  return Buffer.concat([Buffer.from(tag(2, 5)), b]);
}

export const WRAPPED_FIELD = { int64: 3, int32: 5, bool: 8, short: 21, byte: 22 } as const;

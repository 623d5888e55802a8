/**
 * The values of 64-bit integer fields (int64, uint64, sint64, fixed64, sfixed64) as the engine
 * holds them: Java longs, as the original's protostream reads every one of them (docs/query.md
 * "64-bit integers"). A long is a number while it is a safe integer and a bigint beyond: each value
 * has exactly one form, so `===` is equality, and `<`/`>` compare numbers and bigints exactly.
 * Values within 2^53 — nearly all of them — never become a bigint.
 */
export type JavaLong = number | bigint;

const TWO_32 = 4294967296;

/** A long's one form: a number when safe, else the bigint. */
export function toJavaLong(v: bigint): JavaLong {
  return v >= -9007199254740991n && v <= 9007199254740991n ? Number(v) : v;
}

/**
 * The signed 64-bit value of two 32-bit halves, as Java's long reads them: an unsigned uint64 or
 * fixed64 beyond 2^63 is negative (protostream maps them to `long`).
 */
export function longFromBits(high: number, low: number): JavaLong {
  const v = (high | 0) * TWO_32 + (low >>> 0);
  // |v| < 2^53 is exact; beyond, the sum above may have rounded: build it exactly
  return Number.isSafeInteger(v) ? v : (BigInt(high | 0) << 32n) + BigInt(low >>> 0);
}

/** `a + b` as Java adds longs: wrapping around past Long.MAX_VALUE and Long.MIN_VALUE. */
export function addLongs(a: JavaLong, b: JavaLong): JavaLong {
  if (typeof a === 'number' && typeof b === 'number') {
    const sum = a + b;
    if (Number.isSafeInteger(sum)) return sum;
  }
  return toJavaLong(BigInt.asIntN(64, BigInt(a) + BigInt(b)));
}

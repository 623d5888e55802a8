import { expect } from 'chai';
import { addLongs, longFromBits, toJavaLong } from '../../../../src/model/ickle/java-long';

/** Deterministic pseudo-random 32-bit halves, dense near 2^53 and the ends of the range. */
function* halves(n: number): Generator<[number, number]> {
  let seed = 42;
  const next = (): number => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
  const highs = [0, 1, 0x001fffff, 0x00200000, 0x00200001, 0x7fffffff, 0x80000000, 0xffdfffff, 0xffe00000, 0xffffffff];
  for (let i = 0; i < n; i++) yield [i % 2 ? next() : highs[i % highs.length], i % 3 ? next() : [0, 1, 0xffffffff][i % 3]];
}

const exact = (high: number, low: number): bigint => BigInt.asIntN(64, (BigInt(high >>> 0) << 32n) | BigInt(low >>> 0));

describe('java-long: 64-bit integers as Java longs (docs/query.md "64-bit integers")', () => {
  it('has one form per value: a number while safe, a bigint beyond 2^53', () => {
    expect(toJavaLong(9007199254740991n)).to.equal(9007199254740991);
    expect(toJavaLong(-9007199254740991n)).to.equal(-9007199254740991);
    expect(toJavaLong(9007199254740992n)).to.equal(9007199254740992n);
    expect(toJavaLong(-9007199254740992n)).to.equal(-9007199254740992n);
  });

  it('reads two 32-bit halves as a signed long: an unsigned 2^64 - 1 is -1, 2^63 is Long.MIN_VALUE', () => {
    expect(longFromBits(-1, -1)).to.equal(-1);
    expect(longFromBits(0x80000000, 0)).to.equal(-(2n ** 63n));
    expect(longFromBits(0x7fffffff, 0xffffffff)).to.equal(2n ** 63n - 1n);
    expect(longFromBits(0x00200000, 1)).to.equal(9007199254740993n);
    expect(longFromBits(0x001fffff, 0xffffffff)).to.equal(9007199254740991);
    for (const [high, low] of halves(20_000)) expect(longFromBits(high | 0, low | 0), `${high} ${low}`).to.equal(toJavaLong(exact(high, low)));
  });

  it('adds as Java does: exact, wrapping around past either end', () => {
    expect(addLongs(1, 2)).to.equal(3);
    expect(addLongs(9007199254740991, 2)).to.equal(9007199254740993n);
    expect(addLongs(9007199254740993n, -2)).to.equal(9007199254740991);
    expect(addLongs(2n ** 63n - 1n, 1)).to.equal(-(2n ** 63n));
    expect(addLongs(-(2n ** 63n), -1)).to.equal(2n ** 63n - 1n);
    const values = [...halves(2_000)].map(([h, l]) => exact(h, l));
    for (let i = 1; i < values.length; i++) {
      const [a, b] = [values[i - 1], values[i]];
      expect(addLongs(toJavaLong(a), toJavaLong(b))).to.equal(toJavaLong(BigInt.asIntN(64, a + b)));
    }
  });
});

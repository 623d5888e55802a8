import { expect } from 'chai';
import { etagOf } from '../../../src/model/etag';

/** a * b mod 2^32, from 16-bit halves so that it does not lean on Math.imul like the subject does. */
function mul32(a: number, b: number): number {
  const aLo = a & 0xffff;
  const aHi = a >>> 16;
  return ((aLo * b) + (((aHi * b) & 0xffff) << 16)) >>> 0;
}

function rotl32(x: number, r: number): number {
  return ((x << r) | (x >>> (32 - r))) >>> 0;
}

/**
 * MurmurHash3_x86_32 as published by Austin Appleby (SMHasher, MurmurHash3.cpp), unsigned throughout:
 * 4-byte little-endian blocks, then the tail, then the length and the final avalanche.
 */
function murmur3x86(data: Buffer, seed: number): number {
  const c1 = 0xcc9e2d51;
  const c2 = 0x1b873593;
  let h1 = seed >>> 0;
  const nblocks = Math.floor(data.length / 4);
  for (let i = 0; i < nblocks; i++) {
    let k1 = data.readUInt32LE(i * 4);
    k1 = mul32(k1, c1);
    k1 = rotl32(k1, 15);
    k1 = mul32(k1, c2);
    h1 = (h1 ^ k1) >>> 0;
    h1 = rotl32(h1, 13);
    h1 = (mul32(h1, 5) + 0xe6546b64) >>> 0;
  }
  const tail = nblocks * 4;
  const rest = data.length & 3;
  if (rest > 0) {
    let k1 = 0;
    if (rest === 3) k1 ^= data[tail + 2] << 16;
    if (rest >= 2) k1 ^= data[tail + 1] << 8;
    k1 ^= data[tail];
    k1 = mul32(k1 >>> 0, c1);
    k1 = rotl32(k1, 15);
    k1 = mul32(k1, c2);
    h1 = (h1 ^ k1) >>> 0;
  }
  h1 = (h1 ^ data.length) >>> 0;
  h1 = (h1 ^ (h1 >>> 16)) >>> 0;
  h1 = mul32(h1, 0x85ebca6b);
  h1 = (h1 ^ (h1 >>> 13)) >>> 0;
  h1 = mul32(h1, 0xc2b2ae35);
  h1 = (h1 ^ (h1 >>> 16)) >>> 0;
  return h1;
}

describe('murmur3x86 reference (published MurmurHash3_x86_32 test vectors)', () => {
  const vectors: Array<[seed: number, input: number[], hash: number]> = [
    [0, [], 0],
    [1, [], 0x514e28b7],
    [0xffffffff, [], 0x81f16f39],
    [0, [0x00], 0x514e28b7],
    [0, [0x00, 0x00], 0x30f4c306],
    [0, [0x00, 0x00, 0x00], 0x85f0b427],
    [0, [0x00, 0x00, 0x00, 0x00], 0x2362f9de],
    [0, [0xff, 0xff, 0xff, 0xff], 0x76293b50],
    [0, [0x21], 0x72661cf4],
    [0, [0x21, 0x43], 0xa0f7b07a],
    [0, [0x21, 0x43, 0x65], 0x7e4a8634],
    [0, [0x21, 0x43, 0x65, 0x87], 0xf55b516b],
    [0x5082edee, [0x21, 0x43, 0x65, 0x87], 0x2362f9de],
  ];
  for (const [seed, input, hash] of vectors) {
    it(`seed ${seed.toString(16)}, [${input.map((b) => b.toString(16)).join(' ')}] → ${hash.toString(16)}`, () => {
      expect(murmur3x86(Buffer.from(input), seed)).to.equal(hash);
    });
  }
});

describe('etagOf (docs/reference/data-plane.md#etag)', () => {
  it('is a signed 32-bit integer written in decimal, unquoted', () => {
    for (const text of ['', 'a', 'test', 'hello world', 'x'.repeat(1000)]) {
      const etag = etagOf(Buffer.from(text));
      expect(etag, text).to.match(/^-?\d+$/);
      const n = Number(etag);
      expect(n, text).to.be.at.least(-(2 ** 31)).and.at.most(2 ** 31 - 1);
    }
  });

  it('is negative for the bytes of "test", as the original test expects -\\d+', () => {
    expect(etagOf(Buffer.from('test'))).to.match(/^-\d+$/);
  });

  it('is the same every time for the same bytes', () => {
    expect(etagOf(Buffer.from('value'))).to.equal(etagOf(Buffer.from('value')));
  });

  it('differs for different values', () => {
    const values = ['value', 'value2', 'Value', '', ' ', 'test', 'tset'];
    const etags = new Set(values.map((v) => etagOf(Buffer.from(v))));
    expect(etags.size).to.equal(values.length);
  });

  it('equals MurmurHash3 x86_32 with seed 9001 as a signed int, for 0 to 7 bytes (every tail length, one and two blocks)', () => {
    const sample = Buffer.from([0x74, 0x65, 0x73, 0x74, 0x80, 0xff, 0x01]);
    for (let len = 0; len <= 7; len++) {
      const input = sample.subarray(0, len);
      expect(etagOf(input), `length ${len}`).to.equal(String(murmur3x86(input, 9001) | 0));
    }
  });

  it('equals MurmurHash3 x86_32 with seed 9001 for longer text', () => {
    const input = Buffer.from('The quick brown fox jumps over the lazy dog', 'utf8');
    expect(etagOf(input)).to.equal(String(murmur3x86(input, 9001) | 0));
  });

  it('is the same whether the value is read by words or by bytes (large values at every alignment)', () => {
    const data = Buffer.alloc(4 * 1024 + 8);
    for (let i = 0; i < data.length; i++) data[i] = (i * 131 + 7) & 0xff;
    for (const len of [255, 256, 257, 1023, 4096]) {
      for (let offset = 0; offset < 4; offset++) {
        const input = data.subarray(offset, offset + len);
        expect(etagOf(input), `length ${len} at offset ${offset}`).to.equal(String(murmur3x86(input, 9001) | 0));
      }
    }
  });
});

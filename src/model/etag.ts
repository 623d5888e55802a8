/**
 * Entity tag of a value: a signed 32-bit MurmurHash3 (x86_32, seed 9001) of its bytes in decimal,
 * unquoted and possibly negative, in the original's shape. The original takes the top half of its
 * own x64 variant, so the numbers differ; clients only compare ETags (docs/compatibility.md).
 * Computed once per write, not per read.
 */
export function etagOf(bytes: Buffer): string {
  const c1 = 0xcc9e2d51;
  const c2 = 0x1b873593;
  let h = 9001;
  const len = bytes.length;
  const blocks = len & ~3;
  for (let i = 0; i < blocks; i += 4) {
    let k = bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16) | (bytes[i + 3] << 24);
    k = Math.imul(k, c1);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, c2);
    h ^= k;
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  const tail = len & 3;
  if (tail > 0) {
    let k = 0;
    if (tail === 3) k ^= bytes[blocks + 2] << 16;
    if (tail >= 2) k ^= bytes[blocks + 1] << 8;
    k ^= bytes[blocks];
    k = Math.imul(k, c1);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, c2);
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

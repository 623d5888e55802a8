/**
 * Where the entries of one cache live in a Redis Cluster (docs/scale-out.md, "Entries"). A cache's
 * keys fall into SEGMENTS segments by a hash of their bytes; every Redis key of one segment carries
 * the hash tag `{<cacheId>:<segment>}`, so one segment is one hash slot (and its master and
 * replicas are the segment's owners), and the 256 segments of a cache spread over every master:
 *
 *   e:{<cacheId>:<segment>}:<key bytes>   the entry: a hash of v (value), t (media type; absent: null),
 *                                         c (created), u (last used), l (lifespan), i (max-idle), e (ETag)
 *   k:{<cacheId>:<segment>}               the segment's keys: a sorted set, every score 0, walked in byte order
 *   x:{<cacheId>:<segment>}               the segment's mortal keys: a sorted set scored by when each expires
 *   v:{<cacheId>:<segment>}               a sharded pub/sub channel: each write's and each expiry's event (no key: nothing stored)
 *   q:{<cacheId>:<segment>}               an indexed cache's feed of changes: a stream (MAXLEN ~ FEED_LENGTH), one
 *                                         entry per write or expiry — `k` the key put, removed or expired, or a marker: `c` the
 *                                         segment cleared, `r` reindex asked for, `x` index clear asked for
 *
 * A bounded cache (memory.max-count or max-size, bounded-entry-scripts.ts) lives in ONE segment,
 * segment 0, so that one script sees every entry and keeps the bound exactly; its entries have no
 * Redis expiry (the scripts remove them, keeping the sums), and it has two keys more:
 *
 *   r:{<cacheId>:0}                       recency: a sorted set of the keys scored by the sequence of their last use
 *   b:{<cacheId>:0}                       a hash of s (the entries' weight in bytes, as the local memory
 *                                         tier weighs them) and q (the last use sequence)
 *
 * Which layout a cache has is chosen at create and kept for its life; a bounded cache has no feed
 * (bounds and indexing together are refused on this engine).
 *
 * Field names are one letter since every entry repeats them. This is stored data: the segment hash
 * and the names must never change under a running cluster.
 */

export const SEGMENTS = 256;

/**
 * Changes a segment's feed keeps at least (`XADD … MAXLEN ~`): a node whose index fell further
 * behind than this in one segment rebuilds it (docs/scale-out.md, "Queries").
 */
export const FEED_LENGTH = 1000;

const TAG_SAFE = /^[^{}]+$/;

/**
 * A cache's segment of a key: 32-bit FNV-1a of the key's bytes, mod SEGMENTS. Pinned here (not the
 * ETag hash) because it is part of the stored layout: the ETag's hash may change, this may not.
 */
export function segmentOf(key: Buffer): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key[i], 0x01000193);
  return (h >>> 0) % SEGMENTS;
}

/** The Redis key names of one segment of one cache. */
export interface SegmentKeys {
  /** `e:{id:segment}:`, to which an entry's key bytes are appended. */
  entryPrefix: Buffer;
  /** The sorted set of the segment's keys. */
  keys: string;
  /** The sorted set of the segment's mortal keys, scored by expiry. */
  expiries: string;
  /** The sharded channel the segment's entry events are published on. */
  events: string;
  /** A bounded cache's keys by last use (its one segment only). */
  recency: string;
  /** A bounded cache's weight and use sequence (its one segment only). */
  sums: string;
  /** The stream of the segment's changes (indexed caches only). */
  feed: string;
}

/**
 * The names of every segment of the cache `cacheId` (an opaque cluster-wide id without braces):
 * SEGMENTS of them, or the one of a bounded cache.
 */
export function segmentKeysOf(cacheId: string, count = SEGMENTS): SegmentKeys[] {
  if (!TAG_SAFE.test(cacheId)) throw new Error(`a cache id in a Redis hash tag needs at least one character and no braces: ${JSON.stringify(cacheId)}`);
  return Array.from({ length: count }, (_, s) => {
    const tag = `{${cacheId}:${s}}`;
    return { entryPrefix: Buffer.from(`e:${tag}:`), keys: `k:${tag}`, expiries: `x:${tag}`, events: `v:${tag}`, recency: `r:${tag}`, sums: `b:${tag}`, feed: `q:${tag}` };
  });
}

/** The Redis key of the entry `key` in its segment. */
export function entryKeyOf(segment: SegmentKeys, key: Buffer): Buffer {
  return Buffer.concat([segment.entryPrefix, key]);
}

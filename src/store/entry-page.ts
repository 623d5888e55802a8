/**
 * One page of a cache's stored rows in one buffer, as `entries.scanPage` returns it: SQLite packs
 * the rows itself, so a scan crosses into JavaScript once per page instead of allocating a key and a
 * value buffer per row. Each row is a 9-byte header — key length and value length (u32 big-endian),
 * flags (u8) — then the key bytes, then the value bytes.
 */
export interface EntryPage {
  bytes: Buffer;
  /** Rows in the page. */
  count: number;
  /** The greatest key of the page: the next page starts after it. */
  lastKey: Buffer;
}

/** Flag: the row's `expires_at` had passed at the `now` of the read. */
export const ROW_EXPIRED = 1;
/** Flag: the value is larger than the page inlines; its length is 0 here, read it by key. */
export const ROW_VALUE_OMITTED = 2;
/** Values up to this size are inlined in pages, so a page stays small whatever the values hold. */
export const INLINE_VALUE_BYTES = 16 * 1024;

const HEADER = 9;

/** Walks the rows of a page: positions into `bytes`, no allocation per row. */
export class EntryPageCursor {
  keyStart = 0;
  keyEnd = 0;
  valueStart = 0;
  valueEnd = 0;
  flags = 0;
  private next = 0;

  constructor(readonly bytes: Buffer) {}

  /** Moves to the next row; false after the last. */
  advance(): boolean {
    const b = this.bytes;
    const at = this.next;
    if (at + HEADER > b.length) return false;
    const keyLength = b.readUInt32BE(at);
    const valueLength = b.readUInt32BE(at + 4);
    this.flags = b[at + 8];
    this.keyStart = at + HEADER;
    this.keyEnd = this.keyStart + keyLength;
    this.valueStart = this.keyEnd;
    this.valueEnd = this.valueStart + valueLength;
    this.next = this.valueEnd;
    return this.valueEnd <= b.length;
  }

  /** A copy of the row's key. */
  key(): Buffer {
    return Buffer.from(this.bytes.subarray(this.keyStart, this.keyEnd));
  }

  /** The key as the memory tier names it (latin1 of its bytes). */
  keyId(): string {
    return this.bytes.toString('latin1', this.keyStart, this.keyEnd);
  }

  /** A copy of the row's value (inlined values only). */
  value(): Buffer {
    return Buffer.from(this.bytes.subarray(this.valueStart, this.valueEnd));
  }
}

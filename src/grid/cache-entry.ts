import type { StoredEntry } from '../store/store';
import type { Pages } from '../util/pages';

/**
 * An entry as the engine holds it: the stored fields (`created` is the time of the last write, as
 * the original resets it on every write) plus its ETag, computed once.
 */
export interface CacheEntry extends StoredEntry {
  etag: string;
}

export function isExpired(e: StoredEntry, now: number): boolean {
  return (e.lifespan >= 0 && e.created + e.lifespan <= now) || (e.maxIdle >= 0 && e.lastUsed + e.maxIdle <= now);
}

/** Mortal entries carry Last-Modified / Expires on reads (docs/reference/data-plane.md#reads). */
export function isMortal(e: StoredEntry): boolean {
  return e.lifespan >= 0 || e.maxIdle >= 0;
}

/**
 * An entry as a scan hands it over: its value's bytes somewhere in `bytes`, a buffer the scan may
 * reuse for the next entry; `key()` and `value()` give buffers to keep.
 */
export interface ScannedEntry {
  readonly bytes: Buffer;
  readonly valueStart: number;
  readonly valueEnd: number;
  key(): Buffer;
  value(): Buffer;
}

/** A whole entry as a `ScannedEntry` (memory tiers, values read one by one). */
export class WholeEntry implements ScannedEntry {
  bytes: Buffer = Buffer.alloc(0);
  valueStart = 0;
  valueEnd = 0;
  private keyBytes: Buffer = this.bytes;

  of(key: Buffer, value: Buffer): this {
    this.keyBytes = key;
    this.bytes = value;
    this.valueEnd = value.length;
    return this;
  }

  key(): Buffer {
    return this.keyBytes;
  }

  value(): Buffer {
    return this.bytes;
  }
}

/** Pages of whole entries as the query matcher reads them; one object is reused, as the memory tier's walk does (a match copies what it keeps). */
export async function* scannedPages(entries: Pages<{ key: Buffer; value: Buffer }>): Pages<ScannedEntry> {
  const whole = new WholeEntry();
  for await (const page of entries) yield (function* () { for (const e of page) yield whole.of(e.key, e.value); })();
}

import {
  EntryExistsError, EntryNotFoundError, NotModifiedError, PreconditionFailedError, TranscoderNotFoundError,
} from '../errors';
import type { CacheEntry } from '../grid/cache-entry';
import { isMortal } from '../grid/cache-entry';
import type { CacheHandle } from '../grid/cache-manager';
import { resolveExpiry } from '../model/expiration';
import { essence, type MediaType } from '../model/media-type';
import { evaluateRead, type ReadPreconditions } from '../model/preconditions';
import { isConvertible } from '../model/transcoding';
import { expiresAt } from '../store/store';
import type { Clock } from '../util/clock';
import { storageTypes } from './storage-types';

export interface WriteRequest {
  key: Buffer;
  value: Buffer;
  /** Content-Type of the body; undefined = `*∕*` (stored as is). */
  contentType: MediaType | undefined;
  ttlHeader?: string;
  idleHeader?: string;
  ifNoneMatch?: string;
}

export interface ReadResult {
  entry: CacheEntry;
  lastModified: number | undefined;
}

/** Entry operations with the rules of spec 1 "Entry operations" and behavior-notes §5. */
export class EntryService {
  constructor(private readonly clock: Clock) {}

  /** The live entry, once its last write is durable; 404 when absent, 304/412 by preconditions. */
  async read(h: CacheHandle, key: Buffer, pre: ReadPreconditions, minFresh?: number): Promise<ReadResult> {
    const pending = h.cache.pendingCommit(key);
    // a failed commit was refused to its writer and dropped from memory; the read goes on
    if (pending) await pending.promise.catch(() => undefined);
    const entry = h.cache.get(key);
    if (!entry) throw new EntryNotFoundError();
    if (minFresh !== undefined) {
      const at = expiresAt(entry);
      if (at !== null && at - this.clock.now() < minFresh * 1000) throw new EntryNotFoundError();
    }
    const lastModified = isMortal(entry) ? entry.created : undefined;
    const outcome = evaluateRead(entry.etag, lastModified, pre);
    if (outcome === 'not-modified') throw new NotModifiedError();
    if (outcome === 'failed') throw new PreconditionFailedError();
    return { entry, lastModified };
  }

  /** Absolute expiry of an entry, or null when it cannot expire. */
  expiresAt(e: CacheEntry): number | null {
    return expiresAt(e);
  }

  /** PUT: create or replace; 304 when If-None-Match equals the current ETag (nothing written). */
  async put(h: CacheHandle, req: WriteRequest): Promise<CacheEntry> {
    const valueType = this.checkWritable(h, req.contentType);
    if (req.ifNoneMatch !== undefined && h.cache.peek(req.key)?.etag === req.ifNoneMatch) throw new NotModifiedError();
    const { entry, commit } = h.cache.put(req.key, req.value, valueType, this.expiry(h, req));
    if (commit) await commit.promise;
    return entry;
  }

  /** POST: store only when absent; 409 `An entry already exists` otherwise, value untouched. */
  async putIfAbsent(h: CacheHandle, req: WriteRequest): Promise<CacheEntry> {
    const valueType = this.checkWritable(h, req.contentType);
    const result = h.cache.putIfAbsent(req.key, req.value, valueType, this.expiry(h, req));
    if (!result) throw new EntryExistsError();
    if (result.commit) await result.commit.promise;
    return result.entry;
  }

  /** DELETE: If-None-Match, when sent, must equal the ETag (behavior-notes §5.4). */
  async remove(h: CacheHandle, key: Buffer, ifNoneMatch: string | undefined): Promise<void> {
    const current = h.cache.peek(key);
    if (!current) throw new EntryNotFoundError();
    if (ifNoneMatch !== undefined && ifNoneMatch !== current.etag) throw new PreconditionFailedError();
    const { commit } = h.cache.remove(key);
    if (commit) await commit.promise;
  }

  private checkWritable(h: CacheHandle, contentType: MediaType | undefined): string | null {
    if (!contentType) return null;
    const storage = storageTypes(h).value;
    if (!isConvertible(essence(contentType), essence(storage))) throw new TranscoderNotFoundError(contentType.raw, storage.raw);
    return contentType.raw;
  }

  private expiry(h: CacheHandle, req: WriteRequest) {
    const s = h.cache.settings;
    return resolveExpiry({ lifespan: s.lifespanMs, maxIdle: s.maxIdleMs }, req.ttlHeader, req.idleHeader);
  }
}


import { EntryExistsError, EntryNotFoundError, NotModifiedError, PreconditionFailedError } from '../errors';
import type { KeyOwners } from '../grid/cache-data';
import type { CacheEntry } from '../grid/cache-entry';
import { isMortal } from '../grid/cache-entry';
import { resolveExpiry } from '../model/expiration';
import { NO_FLAGS, type OpFlags } from '../model/flags';
import { essence, JAVA_OBJECT, type MediaType, parseMediaType } from '../model/media/media-type';
import { evaluateRead, type ReadPreconditions } from '../model/preconditions';
import type { ProtobufTypes } from '../model/protobuf/protostream-json';
import { keepsBodyAsSent, type StorageForm } from '../model/media/storage-form';
import { keepsBytes } from '../model/media/transcoding';
import { hasContentCodec } from '../model/media/content-codecs';
import { toStoredKey } from '../model/media/key-codec';
import { expiresAt } from '../store/store';
import { then } from '../util/maybe-promise';
import type { Clock } from '../util/clock';
import { storageTypes } from './storage-types';
import { type CacheView, handleOf } from './cache-view';
import type { ValueConverter } from './off-loop/value-converter';

export interface WriteRequest {
  key: Buffer;
  value: Buffer;
  /** Content-Type of the body; undefined = `*∕*` (stored as is). */
  contentType: MediaType | undefined;
  /** `timeToLiveSeconds` / `maxIdleTimeSeconds` as sent; undefined when absent or not a number (the cache's default applies). */
  timeToLiveSeconds?: number;
  maxIdleTimeSeconds?: number;
  /** An ETag: a PUT answers 304 when it equals the current one. */
  ifNoneMatch?: string;
  /** The request's `flags` header, parsed (src/model/flags.ts); applied by the cache. */
  flags?: OpFlags;
}

export interface ReadResult {
  entry: CacheEntry;
  lastModified: number | undefined;
  /** The value in the negotiated representation (the stored bytes themselves when no conversion applies). */
  body: Buffer;
  etag: string;
}

/** Entry operations with the rules of docs/reference/data-plane.md#entry-paths and docs/reference/media-types.md#media-types. */
export class EntryService {
  /** Body types a storage type keeps byte for byte, with nothing to decode or check (the hot path). */
  private readonly storedAsSent = new LastPair();

  /**
   * The types serve key conversions, `values` those of values (at once, or on the worker when
   * large).
   */
  constructor(private readonly clock: Clock, private readonly types: ProtobufTypes, private readonly values: ValueConverter) {}

  /**
   * The live entry, once its last write is durable, in the representation `target` asks for.
   * Answered at once unless that write is still in the open batch: then once its commit returns.
   * `flags` are the request's (SKIP_CACHE_LOAD, SKIP_STATISTICS apply to a read).
   */
  read(cache: CacheView, key: Buffer, flags: OpFlags, pre: ReadPreconditions, minFresh?: number, target?: MediaType): ReadResult | Promise<ReadResult> {
    return then(handleOf(cache).data.get(key, flags), (entry) => this.present(cache, this.fresh(entry, minFresh), pre, target));
  }

  /** `GET /caches/{c}/{key}?action=distribution`: whether the key is held, once its last write is durable; touches nothing. */
  async containsKey(cache: CacheView, key: Buffer): Promise<boolean> {
    return (await handleOf(cache).data.peek(key, NO_FLAGS)) !== undefined;
  }

  /**
   * The engine nodes that hold `key` (`?extended`, `?action=distribution`: docs/scale-out.md,
   * "Owners and health"); undefined where this node holds every entry.
   */
  owners(cache: CacheView, key: Buffer): Promise<KeyOwners> | undefined {
    return handleOf(cache).data.placement?.owners(key);
  }

  /** Absolute expiry of an entry, or null when it cannot expire. */
  expiresAt(e: CacheEntry): number | null {
    return expiresAt(e);
  }

  /**
   * PUT: create or replace; 304 when If-None-Match equals the current ETag (nothing written).
   * The entry at once for a cache without persistence, else once its commit has finished.
   */
  put(cache: CacheView, req: WriteRequest): CacheEntry | Promise<CacheEntry> {
    return then(this.toStorage(cache, req), ({ value, valueType }) =>
      then(handleOf(cache).data.put(req.key, value, valueType, this.expiry(cache, req), req.flags ?? NO_FLAGS, req.ifNoneMatch), (written) => {
        if (!written) throw new NotModifiedError();
        return written;
      }));
  }

  /** POST: store only when absent; 409 `An entry already exists` otherwise, value untouched. */
  putIfAbsent(cache: CacheView, req: WriteRequest): CacheEntry | Promise<CacheEntry> {
    return then(this.toStorage(cache, req), ({ value, valueType }) =>
      then(handleOf(cache).data.putIfAbsent(req.key, value, valueType, this.expiry(cache, req), req.flags ?? NO_FLAGS), (written) => {
        if (!written) throw new EntryExistsError();
        return written;
      }));
  }

  /** DELETE: If-None-Match, when sent, must equal the ETag (docs/reference/data-plane.md#deletes). */
  async remove(cache: CacheView, key: Buffer, ifNoneMatch: string | undefined, flags: OpFlags = NO_FLAGS): Promise<void> {
    const outcome = await handleOf(cache).data.remove(key, flags, ifNoneMatch);
    if (outcome === 'absent') throw new EntryNotFoundError();
    if (outcome === 'etag-differs') throw new PreconditionFailedError();
  }

  /**
   * The key the cache stores for a path segment read in `keyType` (docs/reference/media-types.md#keys, last
   * bullet); 400 ISPN000492 when that type does not convert to the key storage type.
   */
  storedKey(cache: CacheView, segment: string, keyType: MediaType): Buffer {
    return toStoredKey(Buffer.from(segment, 'utf8'), keyType, storageTypes(cache).key, this.types);
  }

  /** The entry read, unless there is none or it expires within `minFresh` seconds (Cache-Control: min-fresh). */
  private fresh(entry: CacheEntry | undefined, minFresh: number | undefined): CacheEntry {
    if (!entry) throw new EntryNotFoundError();
    if (minFresh !== undefined) {
      const at = expiresAt(entry);
      if (at !== null && at - this.clock.now() < minFresh * 1000) throw new EntryNotFoundError();
    }
    return entry;
  }

  /**
   * The entry as `target` (no parsing or copy where the bytes stay as they are: the hot path), its
   * preconditions checked once the body, and so its ETag, is known.
   */
  private present(cache: CacheView, entry: CacheEntry, pre: ReadPreconditions, target: MediaType | undefined): ReadResult | Promise<ReadResult> {
    const lastModified = isMortal(entry) ? entry.created : undefined;
    const answer = (body: Buffer, etag: string): ReadResult => {
      const outcome = evaluateRead(etag, lastModified, pre);
      if (outcome === 'not-modified') throw new NotModifiedError();
      if (outcome === 'failed') throw new PreconditionFailedError();
      return { entry, lastModified, body, etag };
    };
    const storage = storageTypes(cache).value;
    if (!target || keepsStored(storage, target)) return answer(entry.value, entry.etag);
    return then(this.values.read(entry.value, storedType(storage, entry.valueType), target), (c) => answer(c.body, c.etag));
  }

  /**
   * The body as the cache stores it (docs/reference/media-types.md#write-conversion): no Content-Type stores it as
   * sent, and so does a type the storage keeps byte for byte (remembered for the next write);
   * anything else is decoded, checked and converted (model/media/storage-form.ts), on the worker when large.
   */
  private toStorage(cache: CacheView, req: WriteRequest): { value: Buffer; valueType: string | null } | Promise<StorageForm> {
    const ct = req.contentType;
    if (!ct) return { value: req.value, valueType: null };
    const storage = storageTypes(cache).value;
    if (this.storedAsSent.holds(ct, storage)) return { value: req.value, valueType: ct.raw };
    if (keepsBodyAsSent(ct, storage)) {
      this.storedAsSent.remember(ct, storage);
      return { value: req.value, valueType: ct.raw };
    }
    return this.values.store(req.value, ct, storage);
  }

  private expiry(cache: CacheView, req: WriteRequest) {
    const s = cache.settings;
    return resolveExpiry({ lifespan: s.lifespanMs, maxIdle: s.maxIdleMs }, req.timeToLiveSeconds, req.maxIdleTimeSeconds);
  }
}

/** Reading the storage type itself (a read without Accept), or a type with the same bytes: the stored value as it is. */
function keepsStored(storage: MediaType, target: MediaType): boolean {
  return target === storage ? !hasContentCodec(target) : keepsBytes(storage, target) && !hasContentCodec(target);
}

/** The outcome of a write, once it is acknowledged: at once without a commit to wait for. */
/**
 * The last pair of media type objects found to hold: request types parsed from the same header
 * text are the same object (src/http/negotiate.ts), so a run of like writes checks once.
 */
class LastPair {
  private from: MediaType | undefined;
  private to: MediaType | undefined;

  holds(from: MediaType, to: MediaType): boolean {
    return from === this.from && to === this.to;
  }

  remember(from: MediaType, to: MediaType): void {
    this.from = from;
    this.to = to;
  }
}

/** A Java-object entry remembers its class in its value type; other entries read as the storage type. */
function storedType(storage: MediaType, valueType: string | null): MediaType {
  if (valueType === null || essence(storage) !== JAVA_OBJECT) return storage;
  const t = parseMediaType(valueType);
  return essence(t) === JAVA_OBJECT ? t : storage;
}

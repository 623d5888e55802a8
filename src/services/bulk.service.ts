import type { CacheEntry } from '../grid/cache-entry';
import type { CacheHandle } from '../grid/cache-manager';
import { encodeHex } from '../model/content-codecs';
import { fromStoredKey, storedKeyText } from '../model/key-codec';
import { listingJson, type Representation } from '../model/listing-json';
import { APPLICATION_UNKNOWN, essence, JAVA_OBJECT, JSON_TYPE, type MediaType, OCTET_STREAM, PROTOSTREAM, TEXT_PLAIN } from '../model/media-type';
import type { ProtobufTypes } from '../model/protostream-json';
import { isConvertible } from '../model/transcoding';
import { expiresAt } from '../store/store';
import { storageTypes } from './storage-types';
import type { ValueConverter } from './value-converter';

export interface EntriesOptions {
  limit: number;
  metadata: boolean;
  contentNegotiation: boolean;
}

const CHUNK = 64 * 1024;

/** Whole-cache reads, produced as JSON text in chunks so a big cache never becomes one string. */
export class BulkService {
  /** `types`: the schema registry, for keys; `values` writes each value (on the worker when large). */
  constructor(private readonly types: ProtobufTypes, private readonly values: ValueConverter) {}

  /** `?action=keys`: a JSON array of the keys as text (the key storage type converted to text/plain). */
  async *keysJson(h: CacheHandle, limit: number): AsyncGenerator<string> {
    await h.cache.settled();
    const storage = storageTypes(h).key;
    yield* chunked(['['], this.take(h, limit, (e, first) => (first ? '' : ',') + JSON.stringify(this.keyText(e.key, storage))), [']']);
  }

  /** Every live key as `target` (v1 key listing). */
  async *keys(h: CacheHandle, target: MediaType): AsyncGenerator<Buffer> {
    await h.cache.settled();
    for (const e of entriesOf(h)) yield this.keyAs(h, e.key, target);
  }

  /** One stored key as `target` (listings, entry events); ISPN000492 when it cannot convert. */
  keyAs(h: CacheHandle, key: Buffer, target: MediaType): Buffer {
    return fromStoredKey(key, storageTypes(h).key, target, this.types);
  }

  /** A stored key as `target` text for events; one with no such form (text that is not JSON) as text. */
  keyString(h: CacheHandle, key: Buffer, target: MediaType): string {
    const storage = storageTypes(h).key;
    try {
      return fromStoredKey(key, storage, target, this.types).toString('utf8');
    } catch {
      return this.keyText(key, storage);
    }
  }

  /** A stored key as text; a key that does not convert (a broken protostream key) is shown as hex. */
  private keyText(key: Buffer, storage: MediaType): string {
    try {
      return storedKeyText(key, storage, this.types);
    } catch {
      return encodeHex(key);
    }
  }

  /** `?action=entries`: a JSON array of `{key, value[, metadata…]}`. */
  async *entriesJson(h: CacheHandle, opts: EntriesOptions): AsyncGenerator<string> {
    await h.cache.settled();
    const { key: keyRep, value: valueRep } = this.representations(h, opts.contentNegotiation);
    const t = storageTypes(h);
    const keyProto = essence(t.key) === PROTOSTREAM ? this.types : undefined;
    const valueProto = essence(t.value) === PROTOSTREAM;
    const keyJava = essence(t.key) === JAVA_OBJECT;
    yield* chunked(['['], this.take(h, opts.limit, (e, first) => {
      const key = keyJava && keyRep === 'text' ? JSON.stringify(this.keyText(e.key, t.key)) : listingJson(e.key, keyRep, keyProto);
      const item = (value: string) => `${first ? '' : ','}{"key":${key},"value":${value}${opts.metadata ? metadataFields(e) : ''}}`;
      const value = this.values.listing(e.value, valueRep, valueProto);
      return typeof value === 'string' ? item(value) : value.then(item);
    }), [']']);
  }

  /** The media types the entries listing reports in `key-content-type` / `value-content-type`. */
  entriesMediaTypes(h: CacheHandle, contentNegotiation: boolean): { key: string; value: string } {
    const r = this.representations(h, contentNegotiation);
    const t = storageTypes(h);
    const name = (rep: Representation, storage: string) =>
      rep === 'json' ? JSON_TYPE : rep === 'text' ? TEXT_PLAIN : `${storage === APPLICATION_UNKNOWN ? OCTET_STREAM : storage}; encoding=hex`;
    return { key: name(r.key, essence(t.key)), value: name(r.value, essence(t.value)) };
  }

  private representations(h: CacheHandle, contentNegotiation: boolean): { key: Representation; value: Representation } {
    const t = storageTypes(h);
    return { key: pick(essence(t.key), contentNegotiation), value: pick(essence(t.value), contentNegotiation) };
  }

  private *take<T>(h: CacheHandle, limit: number, format: (e: CacheEntry, first: boolean) => T): Generator<T> {
    let n = 0;
    for (const e of entriesOf(h)) {
      if (limit >= 0 && n >= limit) return;
      yield format(e, n === 0);
      n++;
    }
  }
}

/** The live entries a listing shows: the cache's, or those of the contents kept outside it. */
function entriesOf(h: CacheHandle): Iterable<CacheEntry> {
  return h.contents ? h.contents.entries() : h.cache.entries();
}

/**
 * CacheResourceV2.getMediaType: protostream is JSON; otherwise text, and with content negotiation
 * text when the storage converts to it, then JSON, then hex; unconfigured storage is hex.
 */
function pick(storage: string, contentNegotiation: boolean): Representation {
  if (storage === PROTOSTREAM) return 'json';
  if (!contentNegotiation) return 'text';
  if (storage === APPLICATION_UNKNOWN) return 'hex';
  if (isConvertible(storage, TEXT_PLAIN)) return 'text';
  if (isConvertible(storage, JSON_TYPE)) return 'json';
  return 'hex';
}

function metadataFields(e: CacheEntry): string {
  const mortal = e.lifespan >= 0 || e.maxIdle >= 0;
  const ttl = e.lifespan >= 0 ? Math.floor(e.lifespan / 1000) : -1;
  const idle = e.maxIdle >= 0 ? Math.floor(e.maxIdle / 1000) : -1;
  return `,"timeToLiveSeconds":${ttl},"maxIdleTimeSeconds":${idle},"created":${mortal ? e.created : -1},` +
    `"lastUsed":${mortal ? e.lastUsed : -1},"expireTime":${expiresAt(e) ?? -1}`;
}

/**
 * Joins small strings into chunks of about 64 KiB, yielding to the event loop between chunks; an
 * item still being converted (a large value, on the worker) is waited for in its place.
 */
async function* chunked(head: string[], items: Iterable<string | Promise<string>>, tail: string[]): AsyncGenerator<string> {
  let buf = head.join('');
  for (const item of items) {
    buf += typeof item === 'string' ? item : await item;
    if (buf.length >= CHUNK) {
      yield buf;
      buf = '';
      await new Promise<void>((r) => setImmediate(r));
    }
  }
  yield buf + tail.join('');
}

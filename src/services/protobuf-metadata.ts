import { ProtobufMetadataError } from '../errors';
import type { EntryEvent } from '../grid/entry-events';
import { type CacheEntry, type ScannedEntry, scannedPages } from '../grid/cache-entry';
import type { CacheData, RemoveOutcome } from '../grid/cache-data';
import { etagOf } from '../model/etag';
import { type MediaType, parseMediaType, TEXT_PLAIN } from '../model/media/media-type';
import type { Clock } from '../util/clock';
import { Listeners } from '../util/listeners';
import { onePage, type Pages } from '../util/pages';
import type { SchemaService } from './schema.service';
import type { ValueConverter } from './off-loop/value-converter';

export const PROTOBUF_METADATA = '___protobuf_metadata';

const TEXT = parseMediaType(TEXT_PLAIN);
const PROTO = '.proto';
const ERRORS = '.errors';

/** The keys of `___protobuf_metadata`: Java Strings, stored in the cache's key storage type. */
export interface MetadataKeys {
  nameOf(key: Buffer): string;
  keyOf(name: string): Buffer;
}

/**
 * The entries of `___protobuf_metadata` (docs/reference/management-plane.md#protobuf-metadata-cache,
 * ProtobufMetadataManagerInterceptor): `<name>.proto` keys are the schema files, `<name>.proto.errors`
 * their errors and `.errors` the list of files with errors; the schema service is the only store.
 * Its handle carries this as its data, so the entry API, listings, size, clear and events reach
 * the schema files the way they reach any cache's entries.
 */
export class ProtobufMetadataCache implements CacheData {
  readonly listeners = new Listeners<EntryEvent>();

  /** `values` reads a written value as a Java String (on the worker when large). */
  constructor(private readonly schemas: SchemaService, private readonly clock: Clock, private readonly values: ValueConverter,
    private readonly names: MetadataKeys) {
    // its listeners hear schema changes as the original's entry events
    this.onEntryEvent((type, name) => {
      if (this.listeners.size) this.listeners.emit({ type, key: this.names.keyOf(name) });
    });
  }

  get(key: Buffer): CacheEntry | undefined {
    const text = this.textOf(this.names.nameOf(key));
    return text === undefined ? undefined : this.entry(key, text);
  }

  peek(key: Buffer): CacheEntry | undefined {
    return this.get(key);
  }

  /** A value with no media type is text, as the original's REST endpoint reads it. */
  async put(key: Buffer, value: Buffer, valueType: string | null, _expiry: unknown, _flags: unknown, unlessEtag?: string): Promise<CacheEntry | undefined> {
    const name = this.names.nameOf(key);
    const text = await this.textToStore(name, value, valueType);
    if (unlessEtag !== undefined && this.get(key)?.etag === unlessEtag) return undefined;
    await this.schemas.save(name, text);
    return this.entry(key, text);
  }

  async putIfAbsent(key: Buffer, value: Buffer, valueType: string | null): Promise<CacheEntry | undefined> {
    const name = this.names.nameOf(key);
    const text = await this.textToStore(name, value, valueType);
    if (this.schemas.has(name)) return undefined;
    await this.schemas.save(name, text);
    return this.entry(key, text);
  }

  async remove(key: Buffer, _flags: unknown, ifEtag?: string): Promise<RemoveOutcome> {
    const name = this.names.nameOf(key);
    const current = this.get(key);
    if (!current) return 'absent';
    if (ifEtag !== undefined && ifEtag !== current.etag) return 'etag-differs';
    if (!name.endsWith(PROTO)) throw new ProtobufMetadataError(`ISPN028014: The '${PROTOBUF_METADATA}' cache does not support commands of type RemoveCommand`);
    await this.schemas.remove(name);
    return 'removed';
  }

  /** Each schema file, `<file>.errors` for each file with errors, and `.errors` when any has (the original's keys). */
  size(): Promise<number> {
    return Promise.resolve(this.keyNames().length);
  }

  /** As the original's interceptor: every schema file is unregistered. */
  async clear(): Promise<void> {
    for (const s of this.schemas.list()) await this.schemas.remove(s.name);
  }

  /** The schema files as the query matcher reads entries (the cache is not queryable: its values are no entities). */
  scan(): Pages<ScannedEntry> {
    return scannedPages(this.entries());
  }

  entries(): Pages<CacheEntry> {
    return onePage(Promise.resolve(), () => this.keyNames().map((name) => this.entry(this.names.keyOf(name), this.textOf(name)!)));
  }

  keys(): Pages<Buffer> {
    return onePage(Promise.resolve(), () => this.keyNames().map((name) => this.names.keyOf(name)));
  }

  /** The value as the Java String a schema file must be; ISPN028009/028008 for another key or value. */
  private async textToStore(name: string, value: Buffer, valueType: string | null): Promise<string> {
    if (!name.endsWith(PROTO)) throw new ProtobufMetadataError(`ISPN028009: The key must be a String ending with ".proto" : ${name}`);
    const type: MediaType = valueType === null ? TEXT : parseMediaType(valueType);
    const v = await this.values.javaValue(value, type);
    if (v.type !== 'java.lang.String') {
      throw new ProtobufMetadataError(`ISPN028008: The value must be a String : class ${v.type === 'byte[]' ? '[B' : v.type}`);
    }
    return v.value;
  }

  /**
   * Tells `emit` of the entry events a schema change makes in the original's cache, where the
   * files and their errors are entries: the file's own event, and the `<file>.errors` and `.errors`
   * keys that appear, change or go (a removal clears the error keys before the file goes).
   */
  private onEntryEvent(emit: (type: EntryEvent['type'], name: string) => void): void {
    this.schemas.onFileChange((change) => {
      const file = change.type === 'removed' ? 'cache-entry-removed' : change.existed ? 'cache-entry-modified' : 'cache-entry-created';
      if (change.type === 'saved') emit(file, change.name);
      const before = errorKeys(change.errorsBefore);
      const after = errorKeys(change.errorsAfter);
      for (const [name, text] of after) {
        const old = before.get(name);
        if (old === undefined) emit('cache-entry-created', name);
        else if (old !== text) emit('cache-entry-modified', name);
      }
      for (const name of before.keys()) if (!after.has(name)) emit('cache-entry-removed', name);
      if (change.type === 'removed') emit(file, change.name);
    });
  }

  private keyNames(): string[] {
    const files = this.schemas.list();
    const failing = files.filter((s) => s.error).map((s) => s.name);
    return [...files.map((s) => s.name), ...failing.map((n) => n + ERRORS), ...(failing.length ? [ERRORS] : [])];
  }

  private textOf(name: string): string | undefined {
    if (name === ERRORS) {
      const failing = this.schemas.list().filter((s) => s.error).map((s) => s.name);
      return failing.length ? failing.join('\n') : undefined;
    }
    if (name.endsWith(PROTO + ERRORS)) return this.schemas.errorOf(name.slice(0, -ERRORS.length));
    if (!name.endsWith(PROTO) || !this.schemas.has(name)) return undefined;
    return this.schemas.content(name);
  }

  private entry(key: Buffer, text: string): CacheEntry {
    const value = Buffer.from(text, 'utf8');
    const now = this.clock.now();
    return { key, value, valueType: TEXT_PLAIN, created: now, lastUsed: now, lifespan: -1, maxIdle: -1, etag: etagOf(value) };
  }
}

/** The error keys of the cache for these errors by file: `<file>.errors` each, then `.errors`, the failing files' list. */
function errorKeys(errors: ReadonlyMap<string, string>): Map<string, string> {
  const failing = [...errors.keys()].sort();
  const keys = new Map(failing.map((name) => [name + ERRORS, errors.get(name)!]));
  if (failing.length) keys.set(ERRORS, failing.join('\n'));
  return keys;
}

import { EntryExistsError, EntryNotFoundError, PreconditionFailedError, ProtobufMetadataError } from '../errors';
import type { EntryEvent } from '../grid/entry-events';
import type { CacheEntry } from '../grid/cache-entry';
import type { CacheContents } from '../grid/cache-manager';
import { etagOf } from '../model/etag';
import { type MediaType, parseMediaType, TEXT_PLAIN } from '../model/media-type';
import type { Clock } from '../util/clock';
import type { SchemaService } from './schema.service';
import type { ValueConverter } from './value-converter';

export const PROTOBUF_METADATA = '___protobuf_metadata';

const TEXT = parseMediaType(TEXT_PLAIN);
const PROTO = '.proto';
const ERRORS = '.errors';

/**
 * The `___protobuf_metadata` cache seen through the entry API (docs/reference/management-plane.md#protobuf-metadata-cache,
 * ProtobufMetadataManagerInterceptor): `<name>.proto` keys are the schema files, `<name>.proto.errors`
 * their errors and `.errors` the list of files with errors; the schema service is the only store.
 */
export class ProtobufMetadataCache {
  /** `values` reads the written value as a Java String (on the worker when large). */
  constructor(private readonly schemas: SchemaService, private readonly clock: Clock, private readonly values: ValueConverter) {}

  /** `name`: the key as the Java String it is; `key`: the stored key the entry carries. */
  read(name: string, key: Buffer): CacheEntry {
    const text = this.textOf(name);
    if (text === undefined) throw new EntryNotFoundError();
    return this.entry(key, text);
  }

  async write(name: string, req: { key: Buffer; value: Buffer; contentType: MediaType | undefined }, ifAbsent: boolean): Promise<CacheEntry> {
    if (!name.endsWith(PROTO)) throw new ProtobufMetadataError(`ISPN028009: The key must be a String ending with ".proto" : ${name}`);
    const v = await this.values.javaValue(req.value, req.contentType ?? TEXT);
    if (v.type !== 'java.lang.String') {
      throw new ProtobufMetadataError(`ISPN028008: The value must be a String : class ${v.type === 'byte[]' ? '[B' : v.type}`);
    }
    if (ifAbsent && this.schemas.has(name)) throw new EntryExistsError();
    await this.schemas.save(name, v.value);
    return this.entry(req.key, v.value);
  }

  async remove(name: string, key: Buffer, ifNoneMatch: string | undefined): Promise<void> {
    const current = this.read(name, key);
    if (ifNoneMatch !== undefined && ifNoneMatch !== current.etag) throw new PreconditionFailedError();
    if (!name.endsWith(PROTO)) throw new ProtobufMetadataError(`ISPN028014: The '${PROTOBUF_METADATA}' cache does not support commands of type RemoveCommand`);
    await this.schemas.remove(name);
  }

  /**
   * What listings, size and clear see (the original's cache holds exactly these keys): each schema
   * file, `<file>.errors` for each file with errors, and `.errors` when any has. `storedKey` turns a
   * key name into the cache's stored key.
   */
  contents(storedKey: (name: string) => Buffer): CacheContents {
    return {
      entries: () => this.keyNames().map((name) => this.entry(storedKey(name), this.textOf(name)!)),
      size: () => this.keyNames().length,
      // as the original's interceptor: every schema file is unregistered
      clear: async () => {
        for (const s of this.schemas.list()) await this.schemas.remove(s.name);
      },
    };
  }

  /**
   * Tells `emit` of the entry events a schema change makes in the original's cache, where the
   * files and their errors are entries: the file's own event, and the `<file>.errors` and `.errors`
   * keys that appear, change or go (a removal clears the error keys before the file goes).
   */
  onEntryEvent(emit: (type: EntryEvent['type'], name: string) => void): () => void {
    return this.schemas.onFileChange((change) => {
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

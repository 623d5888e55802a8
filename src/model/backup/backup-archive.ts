import { decodeName, encodeName } from '../name-encoding';
import { WireWriter, readFields } from '../protobuf/protobuf-wire';
import type { StoredEntry } from '../stored-entry';

/**
 * The archive's layout and byte formats (docs/reference/management-plane.md#backup-archive; docs/backup-format.md). Pure: no I/O.
 */
export const MANIFEST = 'manifest.properties';
/** The Infinispan version whose archive layout this follows; a restore needs major ≥ 12. */
export const ARCHIVE_VERSION = '15.0.0';
export const MIN_ARCHIVE_MAJOR = 12;
/**
 * Manifest property `key-format`: `storage` when keys are stored in their cache's key storage
 * type; archives of grid 0.1.0 lack it, and their keys are converted on restore (model/media/legacy-keys).
 */
export const KEY_FORMAT = 'key-format';
export const KEYS_IN_STORAGE_TYPE = 'storage';
/**
 * Manifest property `consistency` (docs/backup-format.md#guarantees): what instant the archive's
 * entries are of — `point-in-time` (the SQLite engine: every resource at one instant) or
 * `per-page` (the redis engine: each page of a segment's entries consistent, the pages read one
 * after another). Informational: a restore reads either, and an archive without it (older ones,
 * all from the SQLite engine) is point-in-time.
 */
export const CONSISTENCY = 'consistency';
export type Consistency = 'point-in-time' | 'per-page';

export function containerDir(container: string): string {
  return `containers/${encodeName(container)}`;
}

/** Where each part lies; every name in a path is written by `encodeName` (docs/backup-format.md, Layout). */
export const archivePaths = {
  containerProperties: (c: string) => `${containerDir(c)}/container.properties`,
  globalConfig: (c: string) => `${containerDir(c)}/global.xml`,
  cacheConfig: (c: string, cache: string) => `${containerDir(c)}/caches/${encodeName(cache)}/${encodeName(cache)}.xml`,
  cacheData: (c: string, cache: string) => `${containerDir(c)}/caches/${encodeName(cache)}/${encodeName(cache)}.dat`,
  template: (c: string, t: string) => `${containerDir(c)}/templates/${encodeName(t)}.xml`,
  counters: (c: string) => `${containerDir(c)}/counters/counters.dat`,
  schema: (c: string, s: string) => `${containerDir(c)}/proto-schemas/${encodeName(s)}`,
  task: (c: string, t: string) => `${containerDir(c)}/tasks/${encodeName(t)}`,
};

/** Why an entry name is refused (zip-slip and friends), or undefined when it is acceptable. */
export function checkEntryName(name: string): string | undefined {
  if (name === '') return 'empty entry name';
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) return `absolute path '${name}'`;
  if (name.includes('\\')) return `backslash in '${name}'`;
  if (/[\u0000-\u001f]/.test(name)) return `control character in '${name}'`;
  const segments = name.replace(/\/$/, '').split('/');
  if (segments.some((s) => s === '..' || s === '.' || s === '')) return `relative or empty segment in '${name}'`;
  return undefined;
}

/** `key=value` lines; values are comma lists of encoded names, so no escaping is needed. */
export function formatProperties(props: Record<string, string>): string {
  return Object.entries(props).map(([k, v]) => `${k}=${v}\n`).join('');
}

export function parseProperties(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith('!')) continue;
    const at = line.search(/[=:]/);
    if (at < 0) out.set(line, '');
    else out.set(line.slice(0, at).trim(), line.slice(at + 1).trim());
  }
  return out;
}

export function formatNameList(names: readonly string[]): string {
  return names.map(encodeName).join(',');
}

/** The names of a property list; undefined when one is not a valid encoded name. */
export function parseNameList(value: string | undefined): string[] | undefined {
  if (value === undefined || value === '') return [];
  const names = value.split(',').map((s) => decodeName(s.trim()));
  return names.every((n): n is string => n !== undefined) ? names : undefined;
}

/** One cache entry as archived: key and value bytes, value media type, times (ms since epoch), limits (ms, -1 = none). */
export type ArchivedEntry = StoredEntry;

export interface ArchivedCounter {
  name: string;
  /** The counter's configuration as `GET /counters/{name}/config` answers it (JSON). */
  configuration: string;
  value: bigint;
}

/** A length prefix above this is refused as corrupt (no record needs it; it would exhaust memory). */
export const MAX_RECORD_BYTES = 256 * 1024 * 1024;

/** `[4-byte big-endian length][message]`: the framing of `.dat` files. */
export function frame(message: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt32BE(message.length);
  return Buffer.concat([head, message]);
}

/** CacheBackupEntry: 1 key, 2 value, 3 metadata (EntryMetadata), 5 created, 6 lastUsed. */
export function encodeEntry(e: ArchivedEntry): Buffer {
  const metadata = new WireWriter().varint(1, BigInt(e.lifespan)).varint(2, BigInt(e.maxIdle));
  if (e.valueType !== null) metadata.bytes(3, Buffer.from(e.valueType, 'utf8'));
  return new WireWriter()
    .bytes(1, e.key).bytes(2, e.value).bytes(3, metadata.finish())
    .varint(5, BigInt(e.created)).varint(6, BigInt(e.lastUsed))
    .finish();
}

/** Throws (InvalidContentError) on malformed bytes; a missing key or value is malformed too. */
export function decodeEntry(bytes: Buffer): ArchivedEntry {
  let key: Buffer | undefined;
  let value: Buffer | undefined;
  const e = { valueType: null as string | null, created: -1, lastUsed: -1, lifespan: -1, maxIdle: -1 };
  for (const f of readFields(bytes)) {
    if (f.field === 1 && f.wireType === 2) key = Buffer.from(f.value);
    else if (f.field === 2 && f.wireType === 2) value = Buffer.from(f.value);
    else if (f.field === 5 && f.wireType === 0) e.created = toNumber(f.value);
    else if (f.field === 6 && f.wireType === 0) e.lastUsed = toNumber(f.value);
    else if (f.field === 3 && f.wireType === 2) {
      for (const m of readFields(f.value)) {
        if (m.field === 1 && m.wireType === 0) e.lifespan = toNumber(m.value);
        else if (m.field === 2 && m.wireType === 0) e.maxIdle = toNumber(m.value);
        else if (m.field === 3 && m.wireType === 2) e.valueType = m.value.toString('utf8');
      }
    }
  }
  if (!key || !value) throw new Error('entry without key or value');
  return { key, value, ...e };
}

/** CounterBackupEntry: 1 name, 2 configuration (JSON), 3 value (int64). */
export function encodeCounter(c: ArchivedCounter): Buffer {
  return new WireWriter().bytes(1, Buffer.from(c.name, 'utf8')).bytes(2, Buffer.from(c.configuration, 'utf8')).varint(3, c.value).finish();
}

export function decodeCounter(bytes: Buffer): ArchivedCounter {
  let name: string | undefined;
  let configuration: string | undefined;
  let value = 0n;
  for (const f of readFields(bytes)) {
    if (f.field === 1 && f.wireType === 2) name = f.value.toString('utf8');
    else if (f.field === 2 && f.wireType === 2) configuration = f.value.toString('utf8');
    else if (f.field === 3 && f.wireType === 0) value = BigInt.asIntN(64, f.value);
  }
  if (name === undefined || configuration === undefined) throw new Error('counter without name or configuration');
  return { name, configuration, value };
}

function toNumber(v: bigint): number {
  return Number(BigInt.asIntN(64, v));
}

/**
 * Splits a stream of `.dat` bytes into records as they arrive, without holding more than one
 * record; a length prefix above MAX_RECORD_BYTES or trailing bytes are errors.
 */
export class FrameReader {
  private pending: Buffer[] = [];
  private size = 0;
  /** Bytes the record being collected needs (header included), once its header is known. */
  private needed = 0;

  push(chunk: Buffer): Buffer[] {
    this.pending.push(chunk);
    this.size += chunk.length;
    if (this.needed > 0 && this.size < this.needed) return [];
    const buf = this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending);
    const out: Buffer[] = [];
    let pos = 0;
    this.needed = 0;
    while (buf.length - pos >= 4) {
      const length = buf.readUInt32BE(pos);
      if (length > MAX_RECORD_BYTES) throw new Error(`record of ${length} bytes`);
      if (buf.length - pos - 4 < length) {
        this.needed = 4 + length;
        break;
      }
      out.push(buf.subarray(pos + 4, pos + 4 + length));
      pos += 4 + length;
    }
    const rest = buf.subarray(pos);
    this.pending = rest.length ? [rest] : [];
    this.size = rest.length;
    return out;
  }

  end(): void {
    if (this.size !== 0) throw new Error('truncated record');
  }
}

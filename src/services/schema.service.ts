import { SchemaDataMissingError, SchemaExistsError, SchemaNotFoundError } from '../errors';
import { addDescriptors } from '../model/protobuf/proto-descriptors';
import type { RegisteredTypes, TypeRegistry } from '../grid/type-registry';
import type { ProtoFile } from '../model/protobuf/proto-files';
import { checkResourceName } from '../model/resource-name';
import { checkProtoSize, checkProtoTotal, type ProtoLimits } from '../model/protobuf/proto-limits';
import type { SchemaRecord } from '../store/records';
import type { Store } from '../store/store';
import type { Clock } from '../util/clock';
import { lazy } from '../util/lazy';
import { Listeners } from '../util/listeners';
import type { OffLoop } from './off-loop/off-loop';
import type { ProtoCheckResult, ProtoFileSize } from './off-loop/off-loop.jobs';

const pb = lazy(() => require('protobufjs') as typeof import('protobufjs'));

export interface SchemaError { message: string; cause: string }
export interface SchemaStatus { name: string; error: SchemaError | null }

/** One file saved or removed, once stored, with the errors of every file before and after. */
export interface SchemaFileChange {
  type: 'saved' | 'removed';
  name: string;
  /** The file was there before (a save replaced it). */
  existed: boolean;
  errorsBefore: ReadonlyMap<string, string>;
  errorsAfter: ReadonlyMap<string, string>;
}

/** How long the registry builds the type tree before it gives other requests a turn. */
const SLICE_MS = 8;

/** `.proto` is appended to names that lack it (docs/reference/management-plane.md#schemas). */
export function schemaName(name: string): string {
  return name.endsWith('.proto') ? name : `${name}.proto`;
}

/** What the last validation found, beside the types it gave the registry. */
interface Checked {
  /** Every stored file's declarations and bytes (the `schema-total-*` limits add them up). */
  sizes: Map<string, ProtoFileSize>;
  errors: Map<string, string>;
}

const NOTHING: Checked = { sizes: new Map(), errors: new Map() };

/**
 * Protobuf schemas (docs/reference/management-plane.md#schemas): persistent files, validated
 * together after every change so that registering a missing dependency clears its dependents'
 * errors. The types of the valid files go to the engine's type registry (src/grid/type-registry.ts),
 * which the codecs, queries and indexes read.
 *
 * Parsing grows with the files (and protobufjs is quadratic in a message's fields), so each file
 * is first held to the `schema-*` limits, all files are validated on the worker thread, and the
 * type tree the codecs use is rebuilt here from plain descriptors a few milliseconds at a time.
 * Changes apply one at a time and become visible together once the new tree is complete. Every
 * change rebuilds the tree of all the files while the old one still serves, so what one change
 * costs — time on the worker, the heap the garbage collector walks here — is bounded by the
 * container's totals (`schema-total-declarations`, `schema-total-bytes`), not by one file's.
 */
export class SchemaService {
  private files = new Map<string, SchemaRecord>();
  private checked: Checked = NOTHING;
  private changes: Promise<unknown> = Promise.resolve();
  private readonly fileChanges = new Listeners<SchemaFileChange>();

  constructor(
    private readonly registry: TypeRegistry,
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly offLoop: OffLoop,
    private readonly limits: ProtoLimits,
  ) {}

  /** Reads and validates the stored schemas; the server listens once this is done. */
  async start(): Promise<void> {
    const stored = new Map(this.store.schemas.list().map((r) => [r.name, r]));
    await this.serialized(() => this.apply(stored));
  }

  /** Another node changed the stored files: validates them again, in turn with this node's own changes. */
  reload(): Promise<void> {
    return this.serialized(async () => {
      const stored = new Map(this.store.schemas.list().map((r) => [r.name, r]));
      const errorsBefore = this.checked.errors;
      const before = this.files;
      await this.apply(stored);
      for (const [name, r] of stored) {
        if (before.get(name)?.content !== r.content) this.fileChanges.emit({ type: 'saved', name, existed: before.has(name), errorsBefore, errorsAfter: this.checked.errors });
      }
      for (const name of before.keys()) {
        if (!stored.has(name)) this.fileChanges.emit({ type: 'removed', name, existed: true, errorsBefore, errorsAfter: this.checked.errors });
      }
    });
  }

  list(): SchemaStatus[] {
    return [...this.files.keys()].sort().map((n) => this.status(n));
  }

  content(name: string): string {
    const r = this.files.get(schemaName(name));
    if (!r) throw new SchemaNotFoundError();
    return r.content;
  }

  /** `?action=detailed` [HEAD]: no cache is indexed by this server, so `caches` is empty. */
  detailed(name: string): SchemaStatus & { content: string; caches: string[] } {
    const content = this.content(name);
    const { error } = this.status(schemaName(name));
    return { name: schemaName(name), content, caches: [], error };
  }

  /** POST: 201 when new, 409 when the name exists (nothing written). */
  create(name: string, content: string): Promise<SchemaStatus> {
    return this.write(name, content, true);
  }

  /** PUT (and writes to `___protobuf_metadata`): create or replace; an invalid file is stored with its error. */
  save(name: string, content: string): Promise<SchemaStatus> {
    return this.write(name, content, false);
  }

  remove(name: string): Promise<void> {
    const n = schemaName(name);
    return this.serialized(async () => {
      if (!this.files.has(n)) throw new SchemaNotFoundError();
      const next = new Map(this.files);
      next.delete(n);
      const errorsBefore = this.checked.errors;
      await this.apply(next);
      await this.store.write({ kind: 'schema.delete', name: n }).promise;
      this.fileChanges.emit({ type: 'removed', name: n, existed: true, errorsBefore, errorsAfter: this.checked.errors });
    });
  }

  has(name: string): boolean {
    return this.files.has(name);
  }

  /** `?action=types`: every message and enum full name of the valid schemas. */
  types(): string[] {
    return this.registry.names();
  }

  /** Each file saved or removed, told once the change is stored (`___protobuf_metadata` listeners). */
  onFileChange(fn: (change: SchemaFileChange) => void): () => void {
    return this.fileChanges.add(fn);
  }

  /** Text of `<file>.errors` in `___protobuf_metadata`, undefined when the file is valid. */
  errorOf(name: string): string | undefined {
    return this.checked.errors.get(name);
  }

  private write(name: string, content: string, mustBeNew: boolean): Promise<SchemaStatus> {
    if (content === '') return Promise.reject(new SchemaDataMissingError());
    const n = schemaName(name);
    try {
      checkResourceName('schema', n);
      // the size is checked here, so that an oversized file is not even copied to the worker
      checkProtoSize(n, content, this.limits);
    } catch (err) {
      return Promise.reject(err);
    }
    return this.serialized(async () => {
      if (mustBeNew && this.files.has(n)) throw new SchemaExistsError();
      const replaced = this.checked.sizes.get(n) ?? { declarations: 0, bytes: 0 };
      const bytes = { others: this.totalBytes() - replaced.bytes, replaced: replaced.bytes };
      checkProtoTotal(n, Buffer.byteLength(content, 'utf8'), bytes, this.limits.schemaTotalBytes, 'bytes');
      const now = this.clock.now();
      const record = { name: n, content, createdAt: this.files.get(n)?.createdAt ?? now, updatedAt: now };
      const next = new Map(this.files);
      next.set(n, record);
      const existed = this.files.has(n);
      const errorsBefore = this.checked.errors;
      await this.apply(next, { name: n, replaced: replaced.declarations });
      await this.store.write({ kind: 'schema.upsert', record }).promise;
      this.fileChanges.emit({ type: 'saved', name: n, existed, errorsBefore, errorsAfter: this.checked.errors });
      return this.status(n);
    });
  }

  private status(name: string): SchemaStatus {
    const cause = this.checked.errors.get(name);
    return { name, error: cause === undefined ? null : { message: `Schema ${name} has errors`, cause } };
  }

  private totalBytes(): number {
    let sum = 0;
    for (const s of this.checked.sizes.values()) sum += s.bytes;
    return sum;
  }

  /** Validates `files` on the worker, builds their type tree here in slices, then makes both current. */
  private async apply(files: Map<string, SchemaRecord>, changed?: { name: string; replaced: number }): Promise<void> {
    if (files.size === 0) {
      this.files = files;
      this.checked = NOTHING;
      this.registry.replace();
      return;
    }
    const sorted = sortedFiles(files);
    const check = await this.offLoop.run('proto.check', { files: sorted, changed, limits: this.limits });
    const types = await buildTypes(check, sorted);
    this.files = files;
    this.checked = { sizes: new Map(check.sizes), errors: new Map(check.errors) };
    this.registry.replace(types);
  }

  private serialized<T>(change: () => Promise<T>): Promise<T> {
    const run = this.changes.then(change, change);
    this.changes = run.catch(() => undefined);
    return run;
  }
}

function sortedFiles(files: Map<string, SchemaRecord>): ProtoFile[] {
  return [...files.values()].sort((a, b) => (a.name < b.name ? -1 : 1)).map(({ name, content }) => ({ name, content }));
}

/** The type tree of the valid files, built a few milliseconds at a time. */
async function buildTypes(check: ProtoCheckResult, files: ProtoFile[]): Promise<RegisteredTypes> {
  const root = new (pb().Root)();
  let sliceStart = performance.now();
  for (const _step of addDescriptors(root, check.descriptors)) {
    if (performance.now() - sliceStart < SLICE_MS) continue;
    await new Promise((resolve) => setImmediate(resolve));
    sliceStart = performance.now();
  }
  return { root, names: check.types, typeIds: new Map(check.typeIds), files };
}

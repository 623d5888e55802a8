import type { Enum, Root, Type } from 'protobufjs';
import { SchemaDataMissingError, SchemaExistsError, SchemaNotFoundError } from '../errors';
import { checkProtoFiles, findType, typeNames } from '../model/proto-files';
import type { ProtobufTypes } from '../model/protostream-json';
import type { SchemaRecord } from '../store/records';
import type { Store } from '../store/store';
import type { Clock } from '../util/clock';

export interface SchemaError { message: string; cause: string }
export interface SchemaStatus { name: string; error: SchemaError | null }

/** `.proto` is appended to names that lack it (behavior-notes §7). */
export function schemaName(name: string): string {
  return name.endsWith('.proto') ? name : `${name}.proto`;
}

/**
 * Protobuf schemas (spec 1 "Protobuf schemas", behavior-notes §7): persistent files, validated
 * together after every change so that registering a missing dependency clears its dependents'
 * errors. Also the type registry the protostream codecs read.
 */
export class SchemaService implements ProtobufTypes {
  private readonly files = new Map<string, SchemaRecord>();
  private errors = new Map<string, string>();
  private root: Root | undefined;
  private typeIds = new Map<string, number>();
  private typeNamesById = new Map<number, string>();

  constructor(private readonly store: Store, private readonly clock: Clock) {
    for (const r of store.schemas.list()) this.files.set(r.name, r);
    this.revalidate();
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
  async create(name: string, content: string): Promise<SchemaStatus> {
    if (this.files.has(schemaName(name))) throw new SchemaExistsError();
    return this.save(name, content);
  }

  /** PUT (and writes to `___protobuf_metadata`): create or replace; an invalid file is stored with its error. */
  async save(name: string, content: string): Promise<SchemaStatus> {
    if (content === '') throw new SchemaDataMissingError();
    const n = schemaName(name);
    const now = this.clock.now();
    const record = { name: n, content, createdAt: this.files.get(n)?.createdAt ?? now, updatedAt: now };
    this.files.set(n, record);
    this.revalidate();
    await this.store.write({ kind: 'schema.upsert', record }).promise;
    return this.status(n);
  }

  async remove(name: string): Promise<void> {
    const n = schemaName(name);
    if (!this.files.delete(n)) throw new SchemaNotFoundError();
    this.revalidate();
    await this.store.write({ kind: 'schema.delete', name: n }).promise;
  }

  has(name: string): boolean {
    return this.files.has(name);
  }

  /** `?action=types`: every message and enum full name of the valid schemas. */
  types(): string[] {
    return this.root ? typeNames(this.root) : [];
  }

  find(name: string): Type | Enum | undefined {
    return this.root && findType(this.root, name);
  }

  typeIdOf(name: string): number | undefined {
    return this.typeIds.get(name);
  }

  nameOfTypeId(id: number): string | undefined {
    return this.typeNamesById.get(id);
  }

  /** Text of `<file>.errors` in `___protobuf_metadata`, undefined when the file is valid. */
  errorOf(name: string): string | undefined {
    return this.errors.get(name);
  }

  private status(name: string): SchemaStatus {
    const cause = this.errors.get(name);
    return { name, error: cause === undefined ? null : { message: `Schema ${name} has errors`, cause } };
  }

  private revalidate(): void {
    const check = checkProtoFiles([...this.files.values()].sort((a, b) => (a.name < b.name ? -1 : 1)));
    this.errors = check.errors;
    this.root = check.root;
    this.typeIds = check.typeIds;
    this.typeNamesById = new Map([...check.typeIds].map(([n, id]) => [id, n]));
  }
}

import type { Enum, Root, Type } from 'protobufjs';
import { findType, type ProtoFile } from '../model/protobuf/proto-files';
import type { ProtobufTypes } from '../model/protobuf/protostream-json';
import { Listeners } from '../util/listeners';

/** The types of a set of valid schema files, as the schema service builds them. */
export interface RegisteredTypes {
  root: Root | undefined;
  /** Every message and enum full name. */
  names: string[];
  typeIds: ReadonlyMap<string, number>;
  /** The schema files these types were built from, sorted as they were checked (invalid ones too: building skips them). */
  files: ProtoFile[];
}

/** The files of the current types and a key that changes with them (another thread rebuilds the same types from them). */
export interface TypesSnapshot {
  key: string;
  files: ProtoFile[];
}

const NONE: RegisteredTypes = { root: undefined, names: [], typeIds: new Map(), files: [] };

/** Registries made in this process (one per container): their snapshot keys differ. */
let registries = 0;

/**
 * The protobuf types of one container, as the engine reads them: the codecs, the query engine and
 * the indexes look types up here. Replaced whole when the schemas change (the schema service
 * decides what is valid, docs/reference/management-plane.md#schemas); readers that keep what they
 * looked up drop it when told of a change, or a deleted schema's type tree stays in memory.
 */
export class TypeRegistry implements ProtobufTypes {
  private current = NONE;
  private typeNamesById = new Map<number, string>();
  private currentVersion = 0;
  private lastSnapshot: TypesSnapshot | undefined;
  private readonly changed = new Listeners<void>();
  private readonly id = ++registries;

  /** Makes `types` the current types (none when omitted); every `onChange` listener hears of it. */
  replace(types: RegisteredTypes = NONE): void {
    this.current = types;
    this.typeNamesById = new Map([...types.typeIds].map(([name, id]) => [id, name]));
    this.currentVersion++;
    this.changed.emit();
  }

  find(name: string): Type | Enum | undefined {
    return this.current.root && findType(this.current.root, name);
  }

  typeIdOf(name: string): number | undefined {
    return this.current.typeIds.get(name);
  }

  nameOfTypeId(id: number): string | undefined {
    return this.typeNamesById.get(id);
  }

  /** Every message and enum full name of the current types. */
  names(): string[] {
    return this.current.names;
  }

  /** Changes whenever the types do (the query engine keeps its lookups per version). */
  get version(): number {
    return this.currentVersion;
  }

  onChange(fn: () => void): () => void {
    return this.changed.add(fn);
  }

  /** The files of the current types and a key that changes with them (value conversions on the worker). */
  snapshot(): TypesSnapshot {
    const key = `${this.id}:${this.currentVersion}`;
    if (this.lastSnapshot?.key !== key) this.lastSnapshot = { key, files: this.current.files };
    return this.lastSnapshot;
  }
}

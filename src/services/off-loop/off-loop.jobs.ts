import type { TypesSnapshot } from '../../grid/type-registry';
import type { CacheDefinition, ConfigFormat, ConfigLimits } from '../../model/cache-config';
import { formatCacheConfig, parseCacheConfig } from '../../model/cache-config';
import { etagOf } from '../../model/etag';
import type { JavaValue } from '../../model/java/java-value';
import { listingJson } from '../../model/media/listing-json';
import type { MediaType } from '../../model/media/media-type';
import { describeRoot, type ProtoDescriptor } from '../../model/protobuf/proto-descriptors';
import { checkProtoFiles, type ProtoFile, typeNames, typesOfFiles } from '../../model/protobuf/proto-files';
import { checkProtoTotal, countProtoDeclarations, type ProtoLimits } from '../../model/protobuf/proto-limits';
import { NO_TYPES, type ProtobufTypes } from '../../model/protobuf/protostream-json';
import { type StorageForm, toStorageForm } from '../../model/media/storage-form';
import { toJava, transcode } from '../../model/media/transcoding';

export interface ConfigJob {
  text: string;
  format: ConfigFormat;
  limits: ConfigLimits;
}

export interface ProtoCheckJob {
  files: ProtoFile[];
  /**
   * The file being written (one of `files`), checked against the limits first (400 when over),
   * and the declarations of the version it replaces (0 when new).
   */
  changed?: { name: string; replaced: number };
  limits: ProtoLimits;
}

export interface ProtoFileSize { declarations: number; bytes: number }

export interface ProtoCheckResult {
  /** Of every file, valid or not: what the totals of the container are made of. */
  sizes: Array<[string, ProtoFileSize]>;
  errors: Array<[string, string]>;
  typeIds: Array<[string, number]>;
  types: string[];
  descriptors: ProtoDescriptor[];
}

/** A value to convert (value-converter.ts); `schemas` only when protostream is read or written. */
export interface ValueJob {
  bytes: Uint8Array;
  schemas?: TypesSnapshot;
}

/** A converted value and its ETag, hashed where it was converted. */
export interface ConvertedValue {
  body: Buffer;
  etag: string;
}

/**
 * Work whose cost grows with what a client sends or what the server stores, run on a worker
 * thread (src/services/off-loop/off-loop.ts) so the event loop stays free. Plain data in and out.
 */
export const OFF_LOOP_JOBS = {
  'config.parse': (job: ConfigJob): CacheDefinition => parseCacheConfig(job.text, job.format, job.limits),

  'config.convert': (job: ConfigJob & { to: ConfigFormat; pretty: boolean }): string => {
    const definition = parseCacheConfig(job.text, job.format, job.limits);
    return formatCacheConfig(definition, definition.name, job.to, job.pretty);
  },

  'proto.check': (job: ProtoCheckJob): ProtoCheckResult => {
    const sizes = checkProtoSizes(job);
    const check = checkProtoFiles(job.files);
    return {
      sizes,
      errors: [...check.errors],
      typeIds: [...check.typeIds],
      types: typeNames(check.root),
      descriptors: describeRoot(check.root),
    };
  },

  'value.convert': (job: ValueJob & { from: MediaType; to: MediaType }): ConvertedValue => {
    const body = transcode(asBuffer(job.bytes), job.from, job.to, typesOf(job.schemas));
    return { body, etag: etagOf(body) };
  },

  'value.store': (job: ValueJob & { contentType: MediaType; storage: MediaType }): StorageForm =>
    toStorageForm(asBuffer(job.bytes), job.contentType, job.storage, typesOf(job.schemas)),

  'value.listing': (job: ValueJob): string => listingJson(asBuffer(job.bytes), 'json', typesOf(job.schemas)),

  'value.java': (job: ValueJob & { type: MediaType }): JavaValue => toJava(asBuffer(job.bytes), job.type, typesOf(job.schemas)),
} as const;

/** Bytes arrive from another thread as a plain Uint8Array: the same memory, as a Buffer. */
export function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * The worker's copies of the containers' type registries, rebuilt from the files when their key
 * is new; the last few are kept (one per container that converts large protostream values).
 */
const registries = new Map<string, ProtobufTypes>();
const KEPT_REGISTRIES = 4;

function typesOf(snapshot: TypesSnapshot | undefined): ProtobufTypes {
  if (!snapshot) return NO_TYPES;
  let types = registries.get(snapshot.key);
  if (!types) {
    types = typesOfFiles(snapshot.files);
    registries.set(snapshot.key, types);
    if (registries.size > KEPT_REGISTRIES) registries.delete(registries.keys().next().value!);
  }
  return types;
}

/** Counts every file's declarations; the file being written must fit its own limits and the totals. */
function checkProtoSizes({ files, changed, limits }: ProtoCheckJob): Array<[string, ProtoFileSize]> {
  const changedFile = changed && files.find((f) => f.name === changed.name);
  const changedDeclarations = changedFile && countProtoDeclarations(changedFile.name, changedFile.content, limits);
  const sizes = files.map((f): [string, ProtoFileSize] => [f.name, {
    declarations: f === changedFile ? changedDeclarations! : countProtoDeclarations(f.name, f.content),
    bytes: Buffer.byteLength(f.content, 'utf8'),
  }]);
  if (changed && changedDeclarations !== undefined) {
    const others = sizes.reduce((sum, [name, s]) => (name === changed.name ? sum : sum + s.declarations), 0);
    checkProtoTotal(changed.name, changedDeclarations, { others, replaced: changed.replaced }, limits.schemaTotalDeclarations, 'declarations');
  }
  return sizes;
}

export type OffLoopJobs = typeof OFF_LOOP_JOBS;
export type OffLoopKind = keyof OffLoopJobs;

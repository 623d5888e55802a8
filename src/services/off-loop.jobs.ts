import type { CacheDefinition, ConfigFormat, ConfigLimits } from '../model/cache-config';
import { formatCacheConfig, parseCacheConfig } from '../model/cache-config';
import { describeRoot, type ProtoDescriptor } from '../model/proto-descriptors';
import { checkProtoFiles, type ProtoFile, typeNames } from '../model/proto-files';
import { checkProtoTotal, countProtoDeclarations, type ProtoLimits } from '../model/proto-limits';

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

/**
 * Work whose cost grows with what a client sends or what the server stores, run on a worker
 * thread (src/services/off-loop.ts) so the event loop stays free. Plain data in and out.
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
} as const;

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

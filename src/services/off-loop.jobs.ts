import type { CacheDefinition, ConfigFormat, ConfigLimits } from '../model/cache-config';
import { formatCacheConfig, parseCacheConfig } from '../model/cache-config';
import { describeRoot, type ProtoDescriptor } from '../model/proto-descriptors';
import { checkProtoFiles, type ProtoFile, typeNames } from '../model/proto-files';
import { checkProtoLimits, type ProtoLimits } from '../model/proto-limits';

export interface ConfigJob {
  text: string;
  format: ConfigFormat;
  limits: ConfigLimits;
}

export interface ProtoCheckJob {
  files: ProtoFile[];
  /** The file being written, checked against the limits first (400 when over). */
  changed?: ProtoFile;
  limits: ProtoLimits;
}

export interface ProtoCheckResult {
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
    if (job.changed) checkProtoLimits(job.changed.name, job.changed.content, job.limits);
    const check = checkProtoFiles(job.files);
    return {
      errors: [...check.errors],
      typeIds: [...check.typeIds],
      types: typeNames(check.root),
      descriptors: describeRoot(check.root),
    };
  },
} as const;

export type OffLoopJobs = typeof OFF_LOOP_JOBS;
export type OffLoopKind = keyof OffLoopJobs;

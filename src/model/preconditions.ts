import { WrongDateFormatError } from '../errors';

export type PreconditionOutcome = 'proceed' | 'not-modified' | 'failed';

export interface ReadPreconditions {
  ifNoneMatch?: string;
  ifMatch?: string;
  ifModifiedSince?: string;
  ifUnmodifiedSince?: string;
}

function parseDate(text: string): number {
  const t = Date.parse(text);
  if (Number.isNaN(t)) throw new WrongDateFormatError(text);
  return t;
}

/**
 * Conditional GET/HEAD, evaluated in the original's order (docs/reference/data-plane.md#conditional-reads): If-None-Match,
 * If-Match, If-Unmodified-Since, If-Modified-Since. ETags compare as exact strings; dates at second
 * granularity and only for entries that have a Last-Modified.
 */
export function evaluateRead(etag: string, lastModified: number | undefined, p: ReadPreconditions): PreconditionOutcome {
  if (p.ifNoneMatch !== undefined && p.ifNoneMatch === etag) return 'not-modified';
  if (p.ifMatch !== undefined && p.ifMatch !== etag) return 'failed';
  const unmodifiedSince = p.ifUnmodifiedSince !== undefined ? parseDate(p.ifUnmodifiedSince) : undefined;
  const modifiedSince = p.ifModifiedSince !== undefined ? parseDate(p.ifModifiedSince) : undefined;
  if (lastModified === undefined) return 'proceed';
  const modifiedSecond = Math.floor(lastModified / 1000) * 1000;
  if (unmodifiedSince !== undefined && unmodifiedSince < modifiedSecond) return 'failed';
  if (modifiedSince !== undefined && modifiedSince >= modifiedSecond) return 'not-modified';
  return 'proceed';
}

import { WrongDateFormatError } from '../errors';

export type PreconditionOutcome = 'proceed' | 'not-modified' | 'failed';

/**
 * A date header as the edge read it: epoch ms, or the text that is no date. An unreadable date is
 * refused only where the conditions are evaluated (docs/reference/data-plane.md#conditional-reads),
 * so a missing entry is still 404 and a matching If-None-Match still 304.
 */
export type HeaderDate = number | { unreadable: string };

export interface ReadPreconditions {
  /** ETags compare as exact strings: the header's whole text. */
  ifNoneMatch?: string;
  ifMatch?: string;
  ifModifiedSince?: HeaderDate;
  ifUnmodifiedSince?: HeaderDate;
}

function dateOf(d: HeaderDate): number {
  if (typeof d === 'number') return d;
  throw new WrongDateFormatError(d.unreadable);
}

/**
 * Conditional GET/HEAD, evaluated in the original's order (docs/reference/data-plane.md#conditional-reads): If-None-Match,
 * If-Match, If-Unmodified-Since, If-Modified-Since. ETags compare as exact strings; dates at second
 * granularity and only for entries that have a Last-Modified.
 */
export function evaluateRead(etag: string, lastModified: number | undefined, p: ReadPreconditions): PreconditionOutcome {
  if (p.ifNoneMatch !== undefined && p.ifNoneMatch === etag) return 'not-modified';
  if (p.ifMatch !== undefined && p.ifMatch !== etag) return 'failed';
  const unmodifiedSince = p.ifUnmodifiedSince !== undefined ? dateOf(p.ifUnmodifiedSince) : undefined;
  const modifiedSince = p.ifModifiedSince !== undefined ? dateOf(p.ifModifiedSince) : undefined;
  if (lastModified === undefined) return 'proceed';
  const modifiedSecond = Math.floor(lastModified / 1000) * 1000;
  if (unmodifiedSince !== undefined && unmodifiedSince < modifiedSecond) return 'failed';
  if (modifiedSince !== undefined && modifiedSince >= modifiedSecond) return 'not-modified';
  return 'proceed';
}

import { NotAcceptableError } from '../errors';
import { essence, MATCH_ALL, type MediaType, parseMediaType, parseMediaTypeList } from '../model/media/media-type';
import { negotiateValue, type Negotiated } from '../model/media/negotiation';

/**
 * Content-Type / Key-Content-Type of a request; undefined when absent (`*∕*`). The same header
 * text as the last one gives the same object (media types are never modified), so a run of like
 * requests parses once and callers may remember answers per object.
 */
export function requestMediaType(header: string | undefined): MediaType | undefined {
  if (header === undefined) return undefined;
  if (header === lastHeader) return lastType;
  const type = header.trim() === '' ? undefined : parseMediaType(header);
  lastHeader = header;
  lastType = type;
  return type;
}

let lastHeader: string | undefined;
let lastType: MediaType | undefined;

/** The response type and conversion target of an entry read (docs/reference/media-types.md#read-negotiation; model/media/negotiation). */
export function negotiateValueType(acceptHeader: string | undefined, storage: MediaType, configured: string | undefined): Negotiated {
  return negotiateValue(acceptHeader, storage, configured);
}

/**
 * Picks among a fixed list of formats (configuration endpoints): `*∕*` → the first; unparseable
 * Accept → 400; none offered → 406 `ISPN012007`.
 */
export function negotiateAmong<T extends string>(acceptHeader: string | undefined, offered: Record<string, T>): T {
  return pickAmong(acceptHeader, offered).format;
}

/** The same, with the Accept entry that chose the format (undefined for `*∕*`), for its parameters. */
export function pickAmong<T extends string>(acceptHeader: string | undefined, offered: Record<string, T>): { format: T; accepted: MediaType | undefined } {
  const accepted = parseMediaTypeList(acceptHeader && acceptHeader.trim() !== '' ? acceptHeader : MATCH_ALL);
  const first = Object.values(offered)[0];
  for (const m of accepted) {
    if (essence(m) === MATCH_ALL) return { format: first, accepted: undefined };
    const hit = offered[essence(m)];
    if (hit) return { format: hit, accepted: m };
  }
  throw new NotAcceptableError(acceptHeader);
}

/**
 * Whether a request's Content-Type is `wanted` (parameters ignored). Koa's `ctx.is` also asks for
 * a Content-Length or Transfer-Encoding, which an HTTP/2 request with a body need not carry.
 */
export function contentTypeIs(header: string | undefined, wanted: string): boolean {
  try {
    const m = requestMediaType(header);
    return m !== undefined && essence(m) === wanted;
  } catch {
    return false;
  }
}

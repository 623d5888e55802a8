import { InvalidMediaTypeError, NotAcceptableError } from '../errors';
import {
  essence, formatMediaType, JAVA_OBJECT, JSON_TYPE, MATCH_ALL, type MediaType, OCTET_STREAM, parseMediaType, parseMediaTypeList, PROTOSTREAM,
  TEXT_PLAIN,
} from '../model/media-type';
import { isConvertible } from '../model/transcoding';

/** Content-Type / Key-Content-Type of a request; undefined when absent (`*∕*`). */
export function requestMediaType(header: string | undefined): MediaType | undefined {
  return header === undefined || header.trim() === '' ? undefined : parseMediaType(header);
}

/**
 * The response type for a stored value (behavior-notes §4.4): the first Accept entry the storage
 * type converts to; `*∕*` becomes text for Java objects, JSON for protostream, else the configured
 * type or octet-stream. Unparseable Accept: 406 `Data format not supported`.
 */
export function negotiateValueType(acceptHeader: string | undefined, storage: MediaType, configured: string | undefined): string {
  const from = essence(storage);
  if (acceptHeader === undefined || acceptHeader === MATCH_ALL) return matchAllType(from, configured);
  let accepted: MediaType[];
  try {
    accepted = parseMediaTypeList(acceptHeader.trim() !== '' ? acceptHeader : MATCH_ALL);
  } catch (err) {
    if (err instanceof InvalidMediaTypeError) throw new NotAcceptableError(undefined);
    throw err;
  }
  const pick = accepted.find((m) => isConvertible(from, essence(m)));
  if (!pick) throw new NotAcceptableError(acceptHeader);
  return essence(pick) === MATCH_ALL ? matchAllType(from, configured) : formatMediaType(pick);
}

function matchAllType(from: string, configured: string | undefined): string {
  if (from === JAVA_OBJECT) return TEXT_PLAIN;
  if (from === PROTOSTREAM) return JSON_TYPE;
  return configured ?? OCTET_STREAM;
}

/**
 * Picks among a fixed list of formats (configuration endpoints): `*∕*` → the first; unparseable
 * Accept → 400; none offered → 406 `ISPN012007`.
 */
export function negotiateAmong<T extends string>(acceptHeader: string | undefined, offered: Record<string, T>): T {
  const accepted = parseMediaTypeList(acceptHeader && acceptHeader.trim() !== '' ? acceptHeader : MATCH_ALL);
  const first = Object.values(offered)[0];
  for (const m of accepted) {
    if (essence(m) === MATCH_ALL) return first;
    const hit = offered[essence(m)];
    if (hit) return hit;
  }
  throw new NotAcceptableError(acceptHeader);
}

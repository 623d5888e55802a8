import { InvalidMediaTypeError, NotAcceptableError } from '../../errors';
import { essence, formatMediaType, JAVA_OBJECT, JSON_TYPE, MATCH_ALL, type MediaType, OCTET_STREAM, parseMediaType, parseMediaTypeList, PROTOSTREAM, TEXT_PLAIN } from './media-type';
import { isConvertible } from './transcoding';

/** What a read answers: the response Content-Type and the media type the value is converted to. */
export interface Negotiated {
  contentType: string;
  target: MediaType;
}

const TEXT = parseMediaType(TEXT_PLAIN);
const JSON_MT = parseMediaType(JSON_TYPE);

/**
 * Accept negotiation for entry reads (docs/reference/media-types.md#read-negotiation): the first Accept entry (by q-weight)
 * the storage type converts to; `*∕*` becomes text for Java objects, JSON for protostream, else
 * the stored bytes under the configured type or octet-stream. Unparseable Accept: 406
 * `Data format not supported`; nothing convertible: 406 `ISPN012007`.
 */
export function negotiateValue(acceptHeader: string | undefined, storage: MediaType, configured: string | undefined): Negotiated {
  if (acceptHeader === undefined || acceptHeader === MATCH_ALL) return matchAll(storage, configured);
  const from = essence(storage);
  let accepted: MediaType[];
  try {
    accepted = parseMediaTypeList(acceptHeader.trim() !== '' ? acceptHeader : MATCH_ALL);
  } catch (err) {
    if (err instanceof InvalidMediaTypeError) throw new NotAcceptableError(undefined);
    throw err;
  }
  const pick = accepted.find((m) => isConvertible(from, essence(m)));
  if (!pick) throw new NotAcceptableError(acceptHeader);
  return essence(pick) === MATCH_ALL ? matchAll(storage, configured) : { contentType: formatMediaType(pick), target: pick };
}

function matchAll(storage: MediaType, configured: string | undefined): Negotiated {
  const from = essence(storage);
  if (from === JAVA_OBJECT) return { contentType: TEXT_PLAIN, target: TEXT };
  if (from === PROTOSTREAM) return { contentType: JSON_TYPE, target: JSON_MT };
  return { contentType: configured ?? OCTET_STREAM, target: storage };
}

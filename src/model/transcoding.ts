import {
  APPLICATION_UNKNOWN, FORM_URLENCODED, JAVA_OBJECT, JSON_TYPE, MATCH_ALL, OCTET_STREAM, PROTOSTREAM, TEXT_PLAIN, XML_TYPE,
} from './media-type';

/**
 * Which pairs of media types the server converts between (behavior-notes §4.3). This slice of the
 * registry only covers conversions that keep the bytes as they are: the byte-like group and the
 * text formats that read raw bytes as-is. Transcoders that change bytes (JSON ⇄ protostream,
 * Java types) come with the data-formats issue; until then those pairs answer as unsupported.
 */
const BYTE_GROUP = [JAVA_OBJECT, OCTET_STREAM, FORM_URLENCODED, TEXT_PLAIN, APPLICATION_UNKNOWN];

const PAIRS: ReadonlyArray<readonly [string, readonly string[]]> = [
  [APPLICATION_UNKNOWN, BYTE_GROUP],
  [OCTET_STREAM, BYTE_GROUP],
  [TEXT_PLAIN, BYTE_GROUP],
  [FORM_URLENCODED, BYTE_GROUP],
  [JAVA_OBJECT, BYTE_GROUP],
  [JSON_TYPE, [JAVA_OBJECT, OCTET_STREAM, TEXT_PLAIN, FORM_URLENCODED, APPLICATION_UNKNOWN]],
  [XML_TYPE, [JAVA_OBJECT, OCTET_STREAM, TEXT_PLAIN, FORM_URLENCODED, APPLICATION_UNKNOWN]],
  [PROTOSTREAM, []],
];

const SUPPORTED = new Set<string>();
for (const [a, others] of PAIRS) {
  for (const b of others) {
    SUPPORTED.add(`${a}|${b}`);
    SUPPORTED.add(`${b}|${a}`);
  }
}

/** Whether a value stored as `from` can be produced as `to` (type/subtype only). */
export function isConvertible(from: string, to: string): boolean {
  if (from === MATCH_ALL || to === MATCH_ALL || from === to) return true;
  return SUPPORTED.has(`${from}|${to}`);
}

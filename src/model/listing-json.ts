import { encodeHex } from './content-codecs';
import { protostreamToJson, type ProtobufTypes } from './protostream-json';

/** How keys or values are written into the entries listing (behavior-notes §6.11). */
export type Representation = 'json' | 'text' | 'hex';

/**
 * One stored key or value as the JSON the entries listing holds: protostream as its canonical
 * JSON (hex when it does not decode), other JSON as it is (`null` when empty), text as a JSON
 * string, anything else as a JSON string of `0x` hex.
 */
export function listingJson(bytes: Buffer, rep: Representation, protostream?: ProtobufTypes): string {
  if (rep === 'json' && protostream) {
    try {
      return protostreamToJson(bytes, protostream);
    } catch {
      return JSON.stringify(encodeHex(bytes));
    }
  }
  if (rep === 'json') return bytes.length ? bytes.toString('utf8') : 'null';
  if (rep === 'hex') return JSON.stringify(encodeHex(bytes));
  return JSON.stringify(bytes.toString('utf8'));
}

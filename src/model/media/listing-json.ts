import { encodeHex } from './content-codecs';
import { protostreamToJson, type ProtobufTypes } from '../protobuf/protostream-json';

/** How keys or values are written into the entries listing (docs/reference/data-plane.md#entries-listing). */
export type Representation = 'json' | 'text' | 'hex';

/** Bytes of a value rendered at a time: a 10 MB value is written in pieces, never as one string. */
const PIECE_BYTES = 64 * 1024;

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
  return [...listingPieces(bytes, rep)].join('');
}

/**
 * A key or value that is not protostream as `listingJson` writes it, in pieces of at most
 * PIECE_BYTES of it: each piece is cheap, so a caller may pause between them.
 */
export function* listingPieces(bytes: Buffer, rep: Representation): Generator<string> {
  if (rep === 'json') {
    if (bytes.length === 0) return void (yield 'null');
    for (const piece of textPieces(bytes)) yield piece.toString('utf8');
    return;
  }
  if (rep === 'hex') {
    yield '"0x';
    for (let at = 0; at < bytes.length; at += PIECE_BYTES) yield bytes.toString('hex', at, Math.min(bytes.length, at + PIECE_BYTES));
    return void (yield '"');
  }
  yield '"';
  for (const piece of textPieces(bytes)) yield JSON.stringify(piece.toString('utf8')).slice(1, -1);
  yield '"';
}

/**
 * UTF-8 bytes cut before a character's first byte, so that the pieces decode to exactly the text
 * the whole decodes to (malformed sequences included: none spans a lead byte, and none is longer
 * than 4 bytes).
 */
function* textPieces(bytes: Buffer): Generator<Buffer> {
  let at = 0;
  while (bytes.length - at > PIECE_BYTES) {
    let end = at + PIECE_BYTES;
    for (let back = 0; back < 3 && (bytes[end] & 0xc0) === 0x80; back++) end--;
    if ((bytes[end] & 0xc0) === 0x80) end = at + PIECE_BYTES;
    yield bytes.subarray(at, end);
    at = end;
  }
  yield bytes.subarray(at);
}

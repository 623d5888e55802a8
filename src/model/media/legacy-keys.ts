import { isUtf8 } from 'node:buffer';
import { essence, JAVA_OBJECT, JSON_TYPE, type MediaType, PROTOSTREAM } from './media-type';
import { jsonToProtostream, type ProtobufTypes } from '../protobuf/protostream-json';
import { unwrap, wrapScalar } from '../protobuf/wrapped-message';

/**
 * Keys written before keys were converted to the key storage type (grid ≤ 0.1.0) kept the path
 * segment's bytes for text and JSON keys whatever the storage. This maps such a key to the key the
 * server now stores for it, or undefined when the key stays as it is. A key is rewritten only when
 * its bytes cannot be a key of the new form, so a key already converted is never touched again:
 * - protostream storage: bytes that are not a WrappedMessage were text or JSON keys; canonical
 *   protostream JSON (the console's `{"_type":"string","_value":"k"}`) becomes its message, other
 *   UTF-8 text a WrappedMessage string, anything else WrappedMessage bytes;
 * - Java object storage: bytes that are not a scalar WrappedMessage become the String (or byte[])
 *   they were;
 * - JSON storage: UTF-8 text that is not JSON becomes a JSON string;
 * - text, octet-stream and unconfigured storage: every old key is already its new form.
 */
export function convertLegacyKey(key: Buffer, storage: MediaType, types: ProtobufTypes): Buffer | undefined {
  switch (essence(storage)) {
    case PROTOSTREAM: return isWrapped(key, false) ? undefined : fromJsonKey(key, types) ?? wrapText(key);
    case JAVA_OBJECT: return isWrapped(key, true) ? undefined : wrapText(key);
    case JSON_TYPE: return key.length === 0 || isJson(key) || !isUtf8(key) ? undefined : Buffer.from(JSON.stringify(key.toString('utf8')), 'utf8');
    default: return undefined;
  }
}

/** Whether a storage type's keys may need `convertLegacyKey` at all. */
export function mayHoldLegacyKeys(storage: MediaType): boolean {
  return [PROTOSTREAM, JAVA_OBJECT, JSON_TYPE].includes(essence(storage));
}

function isWrapped(key: Buffer, scalarOnly: boolean): boolean {
  try {
    const w = unwrap(key);
    return !scalarOnly || w.kind === 'scalar';
  } catch {
    return false;
  }
}

function wrapText(key: Buffer): Buffer {
  return isUtf8(key) ? wrapScalar({ type: 'java.lang.String', value: key.toString('utf8') }) : wrapScalar({ type: 'byte[]', value: key });
}

/** The console's JSON key of a protostream cache, when it converts (an unknown `_type` does not). */
function fromJsonKey(key: Buffer, types: ProtobufTypes): Buffer | undefined {
  const text = key.toString('utf8');
  if (!text.startsWith('{') || !isUtf8(key)) return undefined;
  try {
    const doc = JSON.parse(text) as unknown;
    if (!doc || typeof doc !== 'object' || typeof (doc as Record<string, unknown>)._type !== 'string') return undefined;
    return jsonToProtostream(text, types);
  } catch {
    return undefined;
  }
}

function isJson(key: Buffer): boolean {
  try {
    JSON.parse(key.toString('utf8'));
    return isUtf8(key);
  } catch {
    return false;
  }
}

import { excerpt, InvalidContentError, TranscoderNotFoundError, UnsupportedJavaClassError } from '../../errors';
import { type Charset, recode, resolveCharset, UTF_8 } from './charsets';
import { decodeContent, encodeContent, hasContentCodec } from './content-codecs';
import { deserializeJava, serializeJava } from '../java/java-serialization';
import { formatJavaText, javaBytes, javaInteger, parseJavaText, type JavaValue } from '../java/java-value';
import { marshallJBoss, unmarshallJBoss } from '../java/jboss-marshalling';
import {
  APPLICATION_UNKNOWN, essence, FORM_URLENCODED, JAVA_OBJECT, JAVA_SERIALIZED, JBOSS_MARSHALLING, JSON_TYPE, MATCH_ALL, type MediaType,
  OCTET_STREAM, parseMediaType, PROTOSTREAM, TEXT_PLAIN, XML_TYPE,
} from './media-type';
import { jsonToProtostream, protostreamToJava, protostreamToJson, type ProtobufTypes } from '../protobuf/protostream-json';
import { unwrap, wrapScalar } from '../protobuf/wrapped-message';
import { fromXml, textToXml, toXml } from './xml-scalars';

/**
 * The transcoder registry (docs/reference/media-types.md#transcoders): which pairs convert, and how. Values travel as
 * bytes; a conversion through Java objects goes through `JavaValue` (String, primitive wrappers
 * and byte[] only). `application/unknown` is opaque: converting from or to it keeps the bytes.
 */
const GROUP = [JAVA_OBJECT, OCTET_STREAM, FORM_URLENCODED, TEXT_PLAIN];
const TEXTISH = new Set([OCTET_STREAM, FORM_URLENCODED, TEXT_PLAIN]);

const TRANSCODERS: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['DefaultTranscoder', GROUP],
  [APPLICATION_UNKNOWN, GROUP],
  [PROTOSTREAM, [OCTET_STREAM, TEXT_PLAIN, JAVA_OBJECT, JSON_TYPE, APPLICATION_UNKNOWN]],
  [JSON_TYPE, [JAVA_OBJECT, OCTET_STREAM, JAVA_SERIALIZED, TEXT_PLAIN, FORM_URLENCODED, APPLICATION_UNKNOWN]],
  [XML_TYPE, [JAVA_OBJECT, OCTET_STREAM, TEXT_PLAIN, FORM_URLENCODED, APPLICATION_UNKNOWN]],
  [JAVA_SERIALIZED, [JAVA_OBJECT, APPLICATION_UNKNOWN]],
  [JBOSS_MARSHALLING, [JAVA_OBJECT, APPLICATION_UNKNOWN, JSON_TYPE]],
];

const SUPPORTED = new Set<string>();
for (const [a, others] of TRANSCODERS) {
  for (const b of others) {
    if (a === 'DefaultTranscoder') {
      for (const c of others) SUPPORTED.add(`${b}|${c}`);
      continue;
    }
    SUPPORTED.add(`${a}|${b}`);
    SUPPORTED.add(`${b}|${a}`);
  }
}

/** Whether a value of media type `from` can be produced as `to` (type/subtype only; docs/reference/media-types.md#transcoders). */
export function isConvertible(from: string, to: string): boolean {
  if (from === MATCH_ALL || to === MATCH_ALL || from === to) return true;
  return SUPPORTED.has(`${from}|${to}`);
}

/** The pairs where the bytes stay as they are, so the hot path never copies or parses. */
export function keepsBytes(from: MediaType, to: MediaType): boolean {
  return keepsFormat(essence(from), essence(to)) && charsetChange(from, to) === undefined;
}

function keepsFormat(from: string, to: string): boolean {
  if (from === to || OPAQUE.has(from) || OPAQUE.has(to)) return true;
  return TEXTISH.has(to) && (TEXTISH.has(from) || from === JSON_TYPE || from === XML_TYPE);
}

const OPAQUE = new Set([MATCH_ALL, APPLICATION_UNKNOWN]);
const TEXT = parseMediaType(TEXT_PLAIN);

/** The charset text of media type `m` is in: text/plain's `charset` (UTF-8 when none); UTF-8 for every other type. */
export function textCharset(m: MediaType): Charset {
  return essence(m) === TEXT_PLAIN && m.params.charset !== undefined ? resolveCharset(m.params.charset) : UTF_8;
}

/**
 * The charsets a conversion reads and writes text in, when they differ (DefaultTranscoder
 * convertTextToText, docs/reference/media-types.md#charsets); undefined when no text is recoded: neither side
 * is text/plain, a side is opaque, the target is octet-stream (text keeps its bytes there), or both
 * name the same charset. An unknown charset is a 400 (UnsupportedCharsetError) unless both sides
 * carry the same parameter, which the original never converts (its MediaType equality).
 */
export function charsetChange(from: MediaType, to: MediaType): readonly [Charset, Charset] | undefined {
  const f = essence(from);
  const t = essence(to);
  if (f !== TEXT_PLAIN && t !== TEXT_PLAIN) return undefined;
  if (OPAQUE.has(f) || OPAQUE.has(t) || t === OCTET_STREAM) return undefined;
  if (f === t && from.params.charset === to.params.charset) return undefined;
  const source = textCharset(from);
  const target = textCharset(to);
  return source === target ? undefined : [source, target];
}

/**
 * Converts content of media type `from` to `to` (keys and values alike); ISPN000492 when no
 * transcoder exists (callers map it to 406 on reads). Content encodings (`encoding=hex|base64`,
 * form-urlencoded) are undone first and applied last, as the original's AbstractTranscoder does.
 */
export function transcode(bytes: Buffer, from: MediaType, to: MediaType, types: ProtobufTypes): Buffer {
  if (!isConvertible(essence(from), essence(to))) throw new TranscoderNotFoundError(from.raw, to.raw);
  if (!hasContentCodec(from) && !hasContentCodec(to)) return convert(bytes, from, to, types);
  if (essence(from) === essence(to) && from.params.encoding === to.params.encoding && !charsetChange(from, to)) return bytes;
  const decoded = decodeContent(bytes, from);
  return encodeContent(convert(decoded.bytes, decoded.type, to, types), to);
}

/**
 * Text changes charset around the conversion: read in the source's charset first, written in the
 * target's last, so every format conversion in between sees UTF-8 text.
 */
function convert(bytes: Buffer, from: MediaType, to: MediaType, types: ProtobufTypes): Buffer {
  const change = charsetChange(from, to);
  if (!change) return convertFormat(bytes, from, to, types);
  const [source, target] = change;
  if (essence(from) === TEXT_PLAIN && essence(to) === TEXT_PLAIN) return recode(bytes, source, target);
  const out = convertFormat(recode(bytes, source, UTF_8), asUtf8(from), asUtf8(to), types);
  return recode(out, UTF_8, target);
}

function asUtf8(m: MediaType): MediaType {
  return essence(m) === TEXT_PLAIN ? TEXT : m;
}

function convertFormat(bytes: Buffer, from: MediaType, to: MediaType, types: ProtobufTypes): Buffer {
  const f = essence(from);
  const t = essence(to);
  if (keepsFormat(f, t)) return bytes;
  if (t === JSON_TYPE && TEXTISH.has(f)) return textToJson(bytes);
  if (t === XML_TYPE && TEXTISH.has(f)) return textToXml(bytes.toString('utf8'));
  if (f === PROTOSTREAM && t === JSON_TYPE) return Buffer.from(protostreamToJson(bytes, types), 'utf8');
  if (f === JSON_TYPE && t === PROTOSTREAM) return jsonToProtostream(bytes.toString('utf8'), types);
  if (f === PROTOSTREAM && t === OCTET_STREAM) {
    const w = unwrap(bytes);
    return w.kind === 'scalar' && w.value.type === 'byte[]' ? w.value.value : bytes;
  }
  return fromJava(toJava(bytes, from, types), to);
}

/** Bytes of media type `from` as a Java value (what the original's decoders produce). */
export function toJava(bytes: Buffer, from: MediaType, types: ProtobufTypes): JavaValue {
  switch (essence(from)) {
    case JAVA_OBJECT: return from.params.type === undefined ? javaBytes(bytes) : parseJavaText(bytes.toString('utf8'), from.params.type);
    case OCTET_STREAM: return javaBytes(bytes);
    case JSON_TYPE: return jsonToJava(bytes.toString('utf8'));
    case XML_TYPE: return fromXml(bytes.toString('utf8'));
    case JAVA_SERIALIZED: return deserializeJava(bytes);
    case JBOSS_MARSHALLING: return unmarshallJBoss(bytes);
    case PROTOSTREAM: return protostreamToJava(bytes, types);
    default: return { type: 'java.lang.String', value: textCharset(from).decode(bytes) };
  }
}

export function fromJava(v: JavaValue, to: MediaType): Buffer {
  switch (essence(to)) {
    case JSON_TYPE: return javaToJson(v);
    case XML_TYPE: return toXml(v);
    case JAVA_SERIALIZED: return serializeJava(v);
    case JBOSS_MARSHALLING: return marshallJBoss(v);
    case PROTOSTREAM: return wrapScalar(v);
    default: return recode(formatJavaText(v), UTF_8, textCharset(to));
  }
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Text becomes JSON only when it is JSON already (JsonTranscoder.convertTextToJson); empty stays empty. */
function textToJson(bytes: Buffer): Buffer {
  const text = bytes.toString('utf8');
  if (bytes.length > 0 && !isJson(text)) throw new InvalidContentError(`Invalid JSON content: ${excerpt(text)}`);
  return bytes;
}

/** Numbers and booleans as JSON literals; text kept when it is JSON, else a JSON string; bytes must be JSON. */
function javaToJson(v: JavaValue): Buffer {
  if (v.type === 'byte[]') return textToJson(v.value);
  if (v.type === 'java.lang.String' || v.type === 'java.lang.Character') {
    return Buffer.from(isJson(v.value) ? v.value : JSON.stringify(v.value), 'utf8');
  }
  return formatJavaText(v);
}

function jsonToJava(text: string): JavaValue {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return { type: 'java.lang.String', value: text };
  }
  if (typeof doc === 'string') return { type: 'java.lang.String', value: doc };
  if (typeof doc === 'boolean') return { type: 'java.lang.Boolean', value: doc };
  if (typeof doc === 'number') {
    if (!Number.isInteger(doc)) return { type: 'java.lang.Double', value: doc };
    return javaInteger(Math.abs(doc) < 2 ** 31 ? 'java.lang.Integer' : 'java.lang.Long', BigInt(doc));
  }
  const type = doc && typeof doc === 'object' && !Array.isArray(doc) ? (doc as Record<string, unknown>)._type : undefined;
  throw new UnsupportedJavaClassError(typeof type === 'string' ? type : Array.isArray(doc) ? 'java.util.ArrayList' : 'java.util.LinkedHashMap');
}

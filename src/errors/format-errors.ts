import { excerpt } from './client-text';
import { GridError } from './grid-error';

/** Protobuf schemas and protostream content (docs/reference/media-types.md#protostream-json, docs/reference/management-plane.md#schemas). */
export class SchemaNotFoundError extends GridError {
  constructor() { super(404, 'SCHEMA_NOT_FOUND', ''); }
}

export class SchemaExistsError extends GridError {
  constructor() { super(409, 'SCHEMA_EXISTS', ''); }
}

export class SchemaDataMissingError extends GridError {
  constructor() { super(400, 'SCHEMA_DATA_MISSING', 'Schema data not sent in the request'); }
}

/** JSON names a `_type` no registered schema declares (CacheResourceV2Test.testLazySearchMapping). */
export class UnknownTypeError extends GridError {
  constructor(name: string) { super(400, 'UNKNOWN_TYPE', `Unknown type name : ${excerpt(name)}`); }
}

/** A Java payload of a class this server does not decode; nothing is ever instantiated from client bytes. */
export class UnsupportedJavaClassError extends GridError {
  constructor(className: string) { super(400, 'UNSUPPORTED_JAVA_CLASS', `Class '${excerpt(className)}' blocked by deserialization allow list`); }
}

/** Content that does not parse as the media type it claims (JSON, XML, protostream, Java streams). */
export class InvalidContentError extends GridError {
  constructor(message: string) { super(400, 'INVALID_CONTENT', message); }
}

/**
 * Rules of the `___protobuf_metadata` cache (ProtobufMetadataManagerInterceptor): the original's
 * text, but 400 where the original answers 500 — a key or value the client chose is its mistake.
 */
export class ProtobufMetadataError extends GridError {
  constructor(message: string) { super(400, 'PROTOBUF_METADATA', message); }
}

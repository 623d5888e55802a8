import { excerpt } from './client-text';
import { defineError } from './define-error';

/** Protobuf schemas and protostream content (docs/reference/media-types.md#protostream-json, docs/reference/management-plane.md#schemas). */
export class SchemaNotFoundError extends defineError({ code: 'SCHEMA_NOT_FOUND', status: 404 }) {}

export class SchemaExistsError extends defineError({ code: 'SCHEMA_EXISTS', status: 409 }) {}

export class SchemaDataMissingError extends defineError({
  code: 'SCHEMA_DATA_MISSING', status: 400, text: () => 'Schema data not sent in the request',
}) {}

/** JSON names a `_type` no registered schema declares (CacheResourceV2Test.testLazySearchMapping). */
export class UnknownTypeError extends defineError({
  code: 'UNKNOWN_TYPE', status: 400,
  text: (name: string) => `Unknown type name : ${excerpt(name)}`,
}) {}

/** A Java payload of a class this server does not decode; nothing is ever instantiated from client bytes. */
export class UnsupportedJavaClassError extends defineError({
  code: 'UNSUPPORTED_JAVA_CLASS', status: 400,
  text: (className: string) => `Class '${excerpt(className)}' blocked by deserialization allow list`,
}) {}

/** Content that does not parse as the media type it claims (JSON, XML, protostream, Java streams). */
export class InvalidContentError extends defineError({
  code: 'INVALID_CONTENT', status: 400,
  text: (message: string) => message,
  summary: 'why the content does not parse as the media type it claims (JSON, XML, protostream, Java streams); `ISPN012043: Invalid request content`',
}) {}

/**
 * Rules of the `___protobuf_metadata` cache (ProtobufMetadataManagerInterceptor): the original's
 * text, but 400 where the original answers 500 — a key or value the client chose is its mistake.
 */
export class ProtobufMetadataError extends defineError({
  code: 'PROTOBUF_METADATA', status: 400,
  text: (message: string) => message,
  summary: "the original's text (`ISPN028008`, `ISPN028009`, `ISPN028014`) on a key, value or command the `___protobuf_metadata` cache refuses",
}) {}

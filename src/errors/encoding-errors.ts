import { defineError } from './define-error';

/** A media type header the client sent cannot be parsed (commons MediaType, docs/reference/media-types.md#media-type-syntax). */
export class InvalidMediaTypeError extends defineError({
  code: 'INVALID_MEDIA_TYPE', status: 400,
  text: (message: string) => message,
  summary: "why the media type does not parse, the original's text (`ISPN000929`, `ISPN000930`, `ISPN000935`…)",
}) {}

/** A key or value whose bytes do not fit the media type they claim (hex, base64, numbers). */
export class EncodingError extends defineError({
  code: 'ENCODING_ERROR', status: 400,
  text: (message: string) => message,
  summary: 'why the bytes do not fit the media type they claim (hex, base64, a number)',
}) {}

/**
 * A `charset` parameter grid cannot read or write (java.nio UnsupportedCharsetException, an
 * IllegalArgumentException: 400 with the charset's name as the whole message).
 */
export class UnsupportedCharsetError extends defineError({
  code: 'UNSUPPORTED_CHARSET', status: 400,
  text: (name: string) => name,
  summary: "the charset's name, alone",
}) {}

import { GridError } from './grid-error';

/** A media type header the client sent cannot be parsed (commons MediaType, docs/reference/media-types.md#media-type-syntax). */
export class InvalidMediaTypeError extends GridError {
  constructor(message: string) { super(400, 'INVALID_MEDIA_TYPE', message); }
}

/** A key or value whose bytes do not fit the media type they claim (hex, base64, numbers). */
export class EncodingError extends GridError {
  constructor(message: string) { super(400, 'ENCODING_ERROR', message); }
}

/**
 * A `charset` parameter grid cannot read or write (java.nio UnsupportedCharsetException, an
 * IllegalArgumentException: 400 with the charset's name as the whole message).
 */
export class UnsupportedCharsetError extends GridError {
  constructor(name: string) { super(400, 'UNSUPPORTED_CHARSET', name); }
}

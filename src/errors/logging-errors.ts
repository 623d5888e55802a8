import { defineError } from './define-error';

export class MissingArgumentsError extends defineError({
  code: 'MISSING_ARGUMENTS', status: 400, ispn: 'ISPN012044',
  text: (names: string[]) => `Missing at least one argument in '[${names.join(', ')}]'`,
  summary: "`Missing at least one argument in '[…, …]'`",
}) {}

export class InvalidLevelError extends defineError({
  code: 'INVALID_LEVEL', status: 400, ispn: 'ISPN080036',
  text: (level: string) => `Invalid level \`${level}\``,
}) {}

export class UnknownAppenderError extends defineError({
  code: 'UNKNOWN_APPENDER', status: 400, ispn: 'ISPN080035',
  text: (appender: string) => `Unknown appender \`${appender}\``,
}) {}

/** DELETE of a logger that was never configured: 404 with the logger's name as body (docs/reference/management-plane.md#logging). */
export class LoggerNotFoundError extends defineError({
  code: 'LOGGER_NOT_FOUND', status: 404,
  text: (name: string) => name,
  summary: "the logger's name, alone",
}) {}

import { GridError } from './grid-error';

export class MissingArgumentsError extends GridError {
  constructor(names: string[]) { super(400, 'MISSING_ARGUMENTS', `ISPN012044: Missing at least one argument in '[${names.join(', ')}]'`); }
}

export class InvalidLevelError extends GridError {
  constructor(level: string) { super(400, 'INVALID_LEVEL', `ISPN080036: Invalid level \`${level}\``); }
}

export class UnknownAppenderError extends GridError {
  constructor(appender: string) { super(400, 'UNKNOWN_APPENDER', `ISPN080035: Unknown appender \`${appender}\``); }
}

/** DELETE of a logger that was never configured: 404 with the logger's name as body (docs/reference/management-plane.md#logging). */
export class LoggerNotFoundError extends GridError {
  constructor(name: string) { super(404, 'LOGGER_NOT_FOUND', name); }
}

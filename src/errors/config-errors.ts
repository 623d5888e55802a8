import { GridError } from './grid-error';

/** A cache configuration the client sent cannot be used (400, the parser's message). */
export class InvalidConfigurationError extends GridError {
  constructor(message: string) { super(400, 'INVALID_CONFIGURATION', message); }
}

/** `PUT /caches/{name}` with a change the running cache cannot take (behavior-notes §6.4). */
export class IncompatibleConfigurationError extends GridError {
  constructor(kind: string, problems: string[]) {
    super(400, 'INCOMPATIBLE_CONFIGURATION',
      [`ISPN000963: Invalid configuration in '${kind}'`, ...problems.map((p) => `    ${p}`)].join('\n'));
  }
}

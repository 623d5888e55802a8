import { GridError } from './grid-error';

/**
 * A resource declared in a configuration file cannot be read, or cannot be made to match the data
 * dir (docs/configuration.md, Declared resources). Raised at start only: the CLI prints the one-line
 * message, which names the file, the resource and, for a difference, the attribute, and exits 2.
 */
export class DeclarationError extends GridError {
  constructor(message: string) {
    super(400, 'INVALID_DECLARATION', message);
  }
}

/** The data dir holds the resource with another value of one of its attributes. */
export class DeclaredResourceDiffersError extends GridError {
  constructor(message: string) {
    super(409, 'DECLARED_RESOURCE_DIFFERS', message);
  }
}

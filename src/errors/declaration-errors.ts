import { defineError } from './define-error';

/**
 * A resource declared in a configuration file cannot be read, or cannot be made to match the data
 * dir (docs/configuration.md, Declared resources). Raised at start only: the CLI prints the one-line
 * message, which names the file, the resource and, for a difference, the attribute, and exits 2.
 */
export class DeclarationError extends defineError({
  code: 'INVALID_DECLARATION', status: 400,
  text: (message: string) => message,
  summary: 'at start only: the file, the resource and what is wrong with it',
}) {}

/** The data dir holds the resource with another value of one of its attributes. */
export class DeclaredResourceDiffersError extends defineError({
  code: 'DECLARED_RESOURCE_DIFFERS', status: 409,
  text: (message: string) => message,
  summary: 'at start only: the resource and the attribute whose value differs from the data dir',
}) {}

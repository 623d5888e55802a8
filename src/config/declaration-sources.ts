import { extname } from 'node:path';
import { ConfigError } from './server-config-error';

/** A configuration file's format, by its extension: `.json`, `.xml`, anything else YAML. */
export type FileFormat = 'json' | 'xml' | 'yaml';

/**
 * A configuration file that declares caches, templates, counters, schemas or roles: grid's own
 * (those keys beside the server settings) or the original's `infinispan` document. The text is
 * read once here; src/model/declarations reads the resources out of it (docs/configuration.md,
 * Declared resources).
 */
export interface DeclarationSource {
  path: string;
  format: FileFormat;
  text: string;
}

/** What the file may say about declared resources that differ from the data dir. */
export type UpdateDeclared = 'never' | 'mutable';

/** Keys of grid's own configuration file that declare resources rather than set the server. */
export const DECLARATION_KEYS: ReadonlySet<string> = new Set(['caches', 'templates', 'counters', 'schemas', 'roles']);

/** The root of the original's declarative format. */
export const INFINISPAN_ROOT = 'infinispan';

export function fileFormatOf(path: string): FileFormat {
  const ext = extname(path).toLowerCase();
  return ext === '.json' ? 'json' : ext === '.xml' ? 'xml' : 'yaml';
}

export function parseUpdateDeclared(text: string, what: string): UpdateDeclared {
  if (text !== 'never' && text !== 'mutable') throw new ConfigError(`${what}: '${text}' must be 'never' or 'mutable'`);
  return text;
}

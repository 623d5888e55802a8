import { type ConfigFormat, NO_CONFIG_LIMITS } from '../cache-config';
import { ConfigBudget } from '../cache-config/config-limits';
import { camelToKebab } from '../cache-config/naming';
import { readJsonDocument } from '../cache-config/read-json-config';
import { readXmlDocument } from '../cache-config/read-xml-config';
import { readYamlDocument } from '../cache-config/read-yaml-config';
import { type Declarations, mergeDeclarations, within } from './declarations';
import { type FileReader, readObjectDeclarations } from './read-object-declarations';
import { readXmlDeclarations } from './read-xml-declarations';

export type { FileReader } from './read-object-declarations';

export interface DeclarationText {
  path: string;
  format: ConfigFormat;
  text: string;
}

/**
 * What the configuration files declare, merged in their order. The files are the operator's,
 * read once at start: they are held to no `config-*` limit (those bound what clients send).
 */
export function readDeclarations(sources: readonly DeclarationText[], files: FileReader): Declarations {
  return mergeDeclarations(sources.map((s) => within(s.path, () => readOne(s, files))));
}

function readOne({ path, format, text }: DeclarationText, files: FileReader): Declarations {
  const budget = new ConfigBudget(NO_CONFIG_LIMITS);
  if (format === 'xml') {
    const { root, locator } = readXmlDocument(text, budget);
    return readXmlDeclarations(root, locator, path, files);
  }
  const { value, locator } = format === 'json' ? readJsonDocument(text) : readYamlDocument(text, budget);
  return readObjectDeclarations(value, { toName: format === 'json' ? (k) => k : camelToKebab, locator, budget }, path, files);
}

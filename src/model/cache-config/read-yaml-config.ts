import type { Document } from 'yaml';
// loaded on first use: most servers never see YAML, and start-up time is module compilation
let yamlModule: typeof import('yaml') | undefined;
const yaml = (): typeof import('yaml') => (yamlModule ??= require('yaml') as typeof import('yaml'));
import { InvalidConfigurationError } from '../../errors';
import { camelToKebab } from './naming';
import type { RawDocument } from './raw-config';
import { readObjectConfig } from './read-object-config';
import { KeyLocator } from './text-location';

// Anchors and aliases have no use in a cache definition and are how "billion laughs" documents
// are built, so any of them rejects the document before it is expanded.
function rejectAnchors(document: Document.Parsed): void {
  yaml().visit(document, (_key, node) => {
    if (yaml().isAlias(node)) throw new InvalidConfigurationError('YAML aliases are not allowed in a configuration');
    if (typeof node === 'object' && node !== null && 'anchor' in node && node.anchor) {
      throw new InvalidConfigurationError('YAML anchors are not allowed in a configuration');
    }
    return undefined;
  });
}

/** YAML names are camelCase (`maxCount`); kebab-case keys are accepted as they are. */
export function readYamlConfig(text: string): RawDocument {
  const document = yaml().parseDocument(text);
  if (document.errors.length > 0) throw new InvalidConfigurationError(document.errors[0].message);
  rejectAnchors(document);
  const parsed: unknown = document.toJS({ maxAliasCount: 0 });
  return readObjectConfig(parsed, { toName: camelToKebab, locator: new KeyLocator(text, 'yaml') });
}

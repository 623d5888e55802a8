// loaded on first use: most servers never see YAML, and start-up time is module compilation
let yamlModule: typeof import('yaml') | undefined;
const yaml = (): typeof import('yaml') => (yamlModule ??= require('yaml') as typeof import('yaml'));
import { kebabToCamel } from './naming';
import { toPlainObject, type PlainObject } from './write-object-config';
import { toXml, toXmlDocument } from './write-xml-config';
import type { CacheDefinition, ConfigFormat } from './types';

const keepName = (name: string): string => name;

function toYaml(value: PlainObject): string {
  return yaml().stringify(value, { defaultStringType: 'QUOTE_DOUBLE', defaultKeyType: 'PLAIN', nullStr: '~' });
}

function toJson(value: PlainObject, pretty: boolean): string {
  return pretty ? JSON.stringify(value, null, 2) : JSON.stringify(value);
}

function wrap(name: string | undefined, body: PlainObject): PlainObject {
  return name === undefined ? body : { [name]: body };
}

/**
 * One definition as `GET /caches/{n}?action=config` and `?action=convert` answer it
 * (docs/reference/management-plane.md#config-output): JSON `{"<name>":{"<kind>":{..}}}` (unnamed: `{"<kind>":{..}}`), XML the declaration and
 * the bare cache element, YAML the JSON shape in camelCase. Non-boolean values are written as strings.
 */
export function formatCacheConfig(def: CacheDefinition, name: string | undefined, format: ConfigFormat, pretty: boolean): string {
  const { root } = def;
  if (format === 'xml') return toXml(root, name, pretty);
  if (format === 'yaml') return toYaml(wrap(name, { [kebabToCamel(root.name)]: toPlainObject(root, kebabToCamel) }));
  return toJson(wrap(name, { [root.name]: toPlainObject(root, keepName) }), pretty);
}

/**
 * A full declarative document holding one named definition, as the config event stream and
 * backups write it (docs/reference/management-plane.md#config-events): `infinispan` → `cache-container` → `caches` → name → kind
 * (XML: declaration and namespace first, the name as an attribute of the kind).
 */
export function formatCacheDocument(def: CacheDefinition, name: string, format: ConfigFormat, pretty: boolean): string {
  const { root } = def;
  if (format === 'xml') return toXmlDocument(root, name, pretty);
  if (format === 'yaml') {
    const cache = { [kebabToCamel(root.name)]: toPlainObject(root, kebabToCamel) };
    return toYaml({ infinispan: { cacheContainer: { caches: { [name]: cache } } } });
  }
  const cache = { [root.name]: toPlainObject(root, keepName) };
  return toJson({ infinispan: { 'cache-container': { caches: { [name]: cache } } } }, pretty);
}

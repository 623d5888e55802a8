import { EmptyConfigurationError } from '../../errors';
import { ConfigBudget, type ConfigLimits, NO_CONFIG_LIMITS, own } from './config-limits';
import { toCacheDefinition } from './build-config-tree';
import type { RawDocument } from './raw-config';
import { readJsonConfig } from './read-json-config';
import { readXmlConfig } from './read-xml-config';
import { readYamlConfig } from './read-yaml-config';
import type { CacheDefinition, ConfigFormat } from './types';

const READERS: Readonly<Record<ConfigFormat, (text: string, budget: ConfigBudget) => RawDocument>> = {
  json: readJsonConfig,
  xml: readXmlConfig,
  yaml: readYamlConfig,
};

/**
 * Parses and validates one cache (or template) definition; throws InvalidConfigurationError (400).
 * Linear in the text; `limits` caps size, element and attribute counts and depth (a client's
 * document), definitions the server wrote itself are read without them.
 */
export function parseCacheConfig(text: string, format: ConfigFormat, limits: ConfigLimits = NO_CONFIG_LIMITS): CacheDefinition {
  const budget = new ConfigBudget(limits);
  budget.checkSize(text);
  if (text.trim() === '') throw new EmptyConfigurationError();
  return toCacheDefinition(READERS[format](text, budget));
}

const BY_MEDIA_TYPE: Readonly<Record<string, ConfigFormat>> = {
  'application/json': 'json',
  'application/xml': 'xml',
  'application/yaml': 'yaml',
  'application/x-yaml': 'yaml',
  'text/yaml': 'yaml',
};

/**
 * The declarative format of a request body from its Content-Type (docs/reference/management-plane.md#cache-create): bare
 * `text/plain` is sniffed (`<` XML, `{` JSON, otherwise YAML); `text/plain` with parameters and any
 * other type give undefined (see `isTextWithParameters` for how the callers tell them apart).
 */
export function detectConfigFormat(contentType: string | undefined, body: string): ConfigFormat | undefined {
  if (contentType === undefined) return undefined;
  const mediaType = contentType.split(';')[0].trim().toLowerCase();
  const known = own(BY_MEDIA_TYPE, mediaType);
  if (known !== undefined) return known;
  if (mediaType !== 'text/plain' || isTextWithParameters(contentType)) return undefined;
  const first = body.trimStart().charAt(0);
  if (first === '<') return 'xml';
  if (first === '{') return 'json';
  return 'yaml';
}

/**
 * `text/plain` with parameters (`text/plain; charset=utf-8`): the original's 415 check lets it
 * through (type/subtype match), then its ConfigurationReader sniffs only a bare `text/plain` and
 * refuses this one (docs/reference/management-plane.md#cache-create).
 */
export function isTextWithParameters(contentType: string): boolean {
  const [type, ...parameters] = contentType.split(';');
  return type.trim().toLowerCase() === 'text/plain' && parameters.some((p) => p.trim() !== '');
}

/** A Content-Type as Java's MediaType.toString writes it: `type/subtype; name=value; …`. */
export function javaMediaTypeText(contentType: string): string {
  const [type, ...parameters] = contentType.split(';');
  return [type.trim(), ...parameters.map((p) => p.trim()).filter((p) => p !== '')].join('; ');
}

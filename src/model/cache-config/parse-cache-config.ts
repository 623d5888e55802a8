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
 * A configuration body's Content-Type, read once where the request arrives
 * (docs/reference/management-plane.md#cache-create): a declarative format; bare `text/plain`, whose
 * format is recognised from the text; `text/plain` with parameters (`text/plain; charset=utf-8`),
 * which the original's 415 check lets through (type/subtype match) and its ConfigurationReader then
 * refuses; or any other type. `text` is the header as sent, for the error texts.
 */
export interface ConfigType {
  kind: ConfigFormat | 'text' | 'text-with-parameters' | 'other';
  text: string;
}

export function parseConfigType(contentType: string): ConfigType {
  const [type, ...parameters] = contentType.split(';');
  const essence = type.trim().toLowerCase();
  const known = own(BY_MEDIA_TYPE, essence);
  if (known !== undefined) return { kind: known, text: contentType };
  if (essence !== 'text/plain') return { kind: 'other', text: contentType };
  return { kind: parameters.some((p) => p.trim() !== '') ? 'text-with-parameters' : 'text', text: contentType };
}

/** The format of a body sent as `type`: its own, or recognised from the text for bare `text/plain`; undefined for anything else. */
export function configFormatOf(type: ConfigType, body: string): ConfigFormat | undefined {
  if (type.kind === 'text') return sniffConfigFormat(body);
  if (type.kind === 'text-with-parameters' || type.kind === 'other') return undefined;
  return type.kind;
}

/** The format of a bare `text/plain` body (or one without a type): `<` XML, `{` JSON, otherwise YAML. */
export function sniffConfigFormat(body: string): ConfigFormat {
  const first = body.trimStart().charAt(0);
  if (first === '<') return 'xml';
  if (first === '{') return 'json';
  return 'yaml';
}

/** A Content-Type as Java's MediaType.toString writes it: `type/subtype; name=value; …`. */
export function javaMediaTypeText(contentType: string): string {
  const [type, ...parameters] = contentType.split(';');
  return [type.trim(), ...parameters.map((p) => p.trim()).filter((p) => p !== '')].join('; ');
}

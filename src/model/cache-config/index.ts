export type { CacheDefinition, CacheSettings, ConfigFormat } from './types';
export { configFormatOf, type ConfigType, parseCacheConfig, parseConfigType, javaMediaTypeText, sniffConfigFormat } from './parse-cache-config';
export { formatCacheConfig, formatCacheDocument } from './format-cache-config';
export { CONFIG_NAMESPACE } from './write-xml-config';
export { toCacheSettings } from './cache-settings';
export { checkStartable } from './start-checks';
export { type AttributeDifference, differentAttributes, findDifferences, findIncompatibleChanges, incompatibleAttributes } from './compare-cache-config';
export { inheritFrom } from './inherit-config';
export { BUILTIN_TEMPLATES } from './builtin-templates';
export {
  type MutableAttribute, type MutableValue, MutableValueError, findMutableAttribute, mutableAttributesOf,
  mutableValueOf, mutableValueText, withAliases, withMutableAttribute,
} from './mutable-attributes';
export { isCacheKind, isTemplateKind, toBaseKind, toTemplateKind } from './cache-kinds';
export { findChild, findChildren } from './config-element';
export { parseDurationMs, parseSizeBytes } from './quantities';
export { type ConfigLimits, NO_CONFIG_LIMITS } from './config-limits';
export { defaultCacheAttributes } from './default-attributes';

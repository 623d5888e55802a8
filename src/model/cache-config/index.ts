export type {
  CacheDefinition, CacheKind, CacheMode, CacheSettings, ConfigElement, ConfigFormat, ConfigValue,
  StorageType, WhenFull,
} from './types';
export { parseCacheConfig, detectConfigFormat, isTextWithParameters, javaMediaTypeText } from './parse-cache-config';
export { formatCacheConfig, formatCacheDocument } from './format-cache-config';
export { CONFIG_NAMESPACE } from './write-xml-config';
export { toCacheSettings } from './cache-settings';
export { checkStartable } from './start-checks';
export { findDifferences, findIncompatibleChanges } from './compare-cache-config';
export { BUILTIN_TEMPLATES } from './builtin-templates';
export {
  MUTABLE_ATTRIBUTES, type MutableAttribute, type MutableValue, MutableValueError, findMutableAttribute, mutableAttributesOf,
  mutableValueOf, mutableValueText, withAliases, withMutableAttribute,
} from './mutable-attributes';
export { CACHE_KINDS, isCacheKind, isTemplateKind, toBaseKind, toTemplateKind } from './cache-kinds';
export { cloneCacheDefinition, createElement, findChild, findChildren, findDescendant } from './config-element';
export { parseDurationMs, parseSizeBytes } from './quantities';
export { type ConfigLimits, NO_CONFIG_LIMITS } from './config-limits';
export { type DefaultAttributes, defaultCacheAttributes } from './default-attributes';

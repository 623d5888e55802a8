import { createElement } from './config-element';
import type { CacheDefinition, CacheKind, ConfigElement, ConfigValue } from './types';

function deepFreeze(element: ConfigElement): ConfigElement {
  Object.values(element.attributes).forEach((value) => Array.isArray(value) && Object.freeze(value));
  Object.freeze(element.attributes);
  element.children.forEach(deepFreeze);
  Object.freeze(element.children);
  return Object.freeze(element);
}

function template(kind: CacheKind, mode?: 'SYNC' | 'ASYNC'): CacheDefinition {
  const attributes: Record<string, ConfigValue> = mode === undefined ? { statistics: true } : { mode, statistics: true };
  return Object.freeze({ root: deepFreeze(createElement(kind, attributes)) });
}

/**
 * The templates every container has (docs/reference/management-plane.md#builtin-templates): that cache mode with statistics on.
 * Shared and frozen; creating a cache from one copies it (cloneCacheDefinition).
 */
export const BUILTIN_TEMPLATES: Readonly<Record<string, CacheDefinition>> = Object.freeze({
  'org.infinispan.LOCAL': template('local-cache'),
  'org.infinispan.REPL_SYNC': template('replicated-cache', 'SYNC'),
  'org.infinispan.REPL_ASYNC': template('replicated-cache', 'ASYNC'),
  'org.infinispan.DIST_SYNC': template('distributed-cache', 'SYNC'),
  'org.infinispan.DIST_ASYNC': template('distributed-cache', 'ASYNC'),
  'org.infinispan.INVALIDATION_SYNC': template('invalidation-cache', 'SYNC'),
  'org.infinispan.INVALIDATION_ASYNC': template('invalidation-cache', 'ASYNC'),
});

import type { CacheKind } from './types';

export const CACHE_KINDS: readonly CacheKind[] = ['local-cache', 'distributed-cache', 'replicated-cache', 'invalidation-cache'];

const TEMPLATE_SUFFIX = '-configuration';

/** `distributed-cache` and its template form `distributed-cache-configuration` are both kinds. */
export function isCacheKind(name: string): boolean {
  return toBaseKind(name) !== undefined;
}

export function isTemplateKind(name: string): boolean {
  return name.endsWith(TEMPLATE_SUFFIX) && isCacheKind(name);
}

export function toBaseKind(name: string): CacheKind | undefined {
  const base = name.endsWith(TEMPLATE_SUFFIX) ? name.slice(0, -TEMPLATE_SUFFIX.length) : name;
  return CACHE_KINDS.find((kind) => kind === base);
}

/** The template form of a kind: `local-cache` → `local-cache-configuration` (template kinds stay as they are). */
export function toTemplateKind(name: string): string {
  return isCacheKind(name) && !isTemplateKind(name) ? name + TEMPLATE_SUFFIX : name;
}

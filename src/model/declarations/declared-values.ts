import { DeclarationError } from '../../errors';
import { isCacheKind, isTemplateKind, type CacheDefinition } from '../cache-config';
import { toCacheDefinition } from '../cache-config/build-config-tree';
import type { RawDocument } from '../cache-config/raw-config';
import { parseCounterConfig } from '../counter-config';
import type { DeclaredCache, DeclaredCounter, DeclaredRole } from './declarations';
import { within } from './declarations';

export const COUNTER_KINDS: ReadonlySet<string> = new Set(['strong-counter', 'weak-counter']);

/**
 * A cache or template read from a file: validated by the same schema as a `POST /caches` body, so
 * an unknown element or attribute fails with the same message. `asTemplate` makes a cache kind
 * the template kind (grid's `templates:`).
 */
export function toDeclaredCache(raw: RawDocument, source: string, asTemplate = false): DeclaredCache {
  const name = raw.name ?? raw.root.attributes.find((a) => a.name === 'name')?.value;
  if (typeof name !== 'string' || name === '') throw new DeclarationError(`a ${raw.root.name} without a name`);
  return within(`cache '${name}'`, () => {
    const root = asTemplate && isCacheKind(raw.root.name) && !isTemplateKind(raw.root.name) ? { ...raw.root, name: `${raw.root.name}-configuration` } : raw.root;
    const definition: CacheDefinition = toCacheDefinition({ root });
    return { name, template: isTemplateKind(root.name), definition, source };
  });
}

/** A counter's attributes, checked as a `POST /counters/{name}` body is. */
export function toDeclaredCounter(name: unknown, kind: string, attributes: Record<string, unknown>, source: string): DeclaredCounter {
  if (typeof name !== 'string' || name === '') throw new DeclarationError(`a ${kind} without a name`);
  return within(`counter '${name}'`, () => {
    const { name: _ignored, ...rest } = attributes;
    return { name, config: parseCounterConfig(JSON.stringify({ [kind]: rest })), source };
  });
}

/** Permissions as a list or separated by blanks or commas (`READ WRITE`, the original's form). */
export function toDeclaredRole(name: string, permissions: unknown, source: string): DeclaredRole {
  const list = Array.isArray(permissions) ? permissions.map(String) : typeof permissions === 'string' ? permissions.split(/[\s,]+/) : undefined;
  const names = list?.map((p) => p.trim()).filter((p) => p !== '');
  if (!names?.length) throw new DeclarationError(`role '${name}': name its permissions (e.g. ALL_READ MONITOR)`);
  return { name, permissions: names, source };
}

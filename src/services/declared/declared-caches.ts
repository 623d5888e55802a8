import { DeclaredResourceDiffersError, InvalidConfigurationError } from '../../errors';
import type { CacheManager } from '../../grid/cache-manager';
import {
  type AttributeDifference, type CacheDefinition, differentAttributes, incompatibleAttributes, inheritFrom, isTemplateKind,
} from '../../model/cache-config';

/** What starting with a declared resource did to it (docs/configuration.md, Declared resources). */
export type DeclareOutcome = 'created' | 'unchanged' | 'updated';

export const UPDATE_HINT = 'change the file, remove it from the data dir, or allow updates with update-declared: mutable';

/**
 * A cache or template declared in a configuration file, at start (docs/configuration.md, Declared
 * resources): created when missing by the same engine calls, with the same checks, as `POST
 * /caches`; left alone when equal. A difference is an error naming the attribute, unless `update`
 * allows what the REST API allows on an existing one: a template replaced, a cache's mutable
 * attributes changed (as `PUT`).
 */
export async function declareCache(manager: CacheManager, name: string, declared: CacheDefinition, update: boolean): Promise<DeclareOutcome> {
  const definition = inherit(manager, name, declared);
  if (isTemplateKind(definition.root.name)) {
    const existing = manager.findTemplate(name);
    const differences = existing ? differentAttributes(existing, definition) : [];
    if (existing && differences.length === 0) return 'unchanged';
    if (existing && !update) throw declaredDiffers('template', name, differences, UPDATE_HINT);
    await manager.defineTemplate(name, definition);
    return existing ? 'updated' : 'created';
  }
  const h = manager.named(name);
  if (!h) {
    await manager.create(name, definition, { volatile: false });
    return 'created';
  }
  const differences = differentAttributes(h.definition, definition);
  if (differences.length === 0) return 'unchanged';
  if (!update) throw declaredDiffers('cache', name, differences, UPDATE_HINT);
  const immutable = incompatibleAttributes(h.definition, definition);
  if (immutable.length) throw declaredDiffers('cache', name, immutable, 'it cannot change on an existing cache, only mutable attributes can (remove the cache first)');
  await manager.update(name, definition);
  return 'updated';
}

/**
 * `configuration="<template>"`: the template's values beneath the definition's own, the template
 * being one the container has (declared before, stored, or built in). The original's ISPN000374 when
 * there is no such template, ISPN000375 when the name is a cache's.
 */
function inherit(manager: CacheManager, name: string, definition: CacheDefinition): CacheDefinition {
  const base = definition.root.attributes.configuration;
  if (typeof base !== 'string' || base === '') return definition;
  const template = manager.findTemplate(base);
  if (template) return inheritFrom(template, definition);
  if (manager.named(base)) throw new InvalidConfigurationError(`ISPN000375: No such template/configuration '${base}'`);
  throw new InvalidConfigurationError(`ISPN000374: No such template '${base}' when declaring '${name}'`);
}

/** One line: the resource, the first attribute that differs with both values, and what to do. */
export function declaredDiffers(what: string, name: string, differences: readonly AttributeDifference[], hint: string): DeclaredResourceDiffersError {
  const [first] = differences;
  const more = differences.length > 1 ? ` (and ${differences.length - 1} more)` : '';
  return new DeclaredResourceDiffersError(
    `${what} '${name}' differs from the data dir: '${first.attribute}' is '${first.existing}' there, '${first.updated}' in the file${more}; ${hint}`);
}

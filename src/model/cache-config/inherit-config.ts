import { own } from './config-limits';
import { findChildren } from './config-element';
import { rootSpecOf } from './schema-layout';
import type { ElementSpec } from './schema-spec';
import type { CacheDefinition, ConfigElement, ConfigValue } from './types';

/**
 * A definition naming a template with `configuration=` gets the template's values beneath its own,
 * as the original reads the template into the builder before it parses the definition: an
 * attribute the definition sets wins, elements merge attribute by attribute, and elements that may
 * repeat add up (an item keyed like one of the template's, a backup of the same site, replaces it).
 * What the template sets that the definition's kind has no place for (a distributed template's
 * `owners` under a local cache) is left out, so the result is valid for the definition's kind.
 */
export function inheritFrom(template: CacheDefinition, definition: CacheDefinition): CacheDefinition {
  const spec = rootSpecOf(definition.root.name);
  if (!spec) return definition;
  return { ...definition, root: merge(spec, template.root, definition.root) };
}

function merge(spec: ElementSpec, base: ConfigElement | undefined, mine: ConfigElement): ConfigElement {
  const attributes: Record<string, ConfigValue> = {};
  const names = [...Object.keys(spec.attributes), ...Object.keys(base?.attributes ?? {}), ...Object.keys(mine.attributes)];
  for (const name of names) {
    if (Object.prototype.hasOwnProperty.call(attributes, name)) continue;
    const known = own(spec.attributes, name) !== undefined || spec.anyAttributes === true;
    const value = own(mine.attributes, name) ?? (known && base ? own(base.attributes, name) : undefined);
    if (value !== undefined) attributes[name] = Array.isArray(value) ? [...value] : value;
  }
  const children: ConfigElement[] = [];
  for (const [name, childSpec] of Object.entries(spec.children)) {
    const inherited = findChildren(base, name);
    const written = findChildren(mine, name);
    if (!childSpec.repeatable) {
      const item = written[0] ?? inherited[0];
      if (item) children.push(merge(childSpec, written[0] ? inherited[0] : undefined, item));
      continue;
    }
    const key = childSpec.mapKey;
    const keys = new Set(key === undefined ? [] : written.map((c) => c.attributes[key]));
    for (const item of inherited) if (key === undefined || !keys.has(item.attributes[key])) children.push(merge(childSpec, undefined, item));
    for (const item of written) children.push(merge(childSpec, undefined, item));
  }
  return { name: mine.name, attributes, children };
}

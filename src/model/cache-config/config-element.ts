import type { CacheDefinition, ConfigElement, ConfigValue } from './types';

export function createElement(
  name: string,
  attributes: Record<string, ConfigValue> = {},
  children: ConfigElement[] = [],
): ConfigElement {
  return { name, attributes, children };
}

export function findChild(element: ConfigElement | undefined, name: string): ConfigElement | undefined {
  return element?.children.find((child) => child.name === name);
}

export function findChildren(element: ConfigElement | undefined, name: string): ConfigElement[] {
  return element ? element.children.filter((child) => child.name === name) : [];
}

/** Follows a path of child names from `element`, e.g. `['encoding', 'key']`. */
export function findDescendant(element: ConfigElement | undefined, path: readonly string[]): ConfigElement | undefined {
  return path.reduce<ConfigElement | undefined>((current, name) => findChild(current, name), element);
}

export function cloneElement(element: ConfigElement): ConfigElement {
  const attributes: Record<string, ConfigValue> = {};
  for (const [name, value] of Object.entries(element.attributes)) {
    attributes[name] = Array.isArray(value) ? [...value] : value;
  }
  return { name: element.name, attributes, children: element.children.map(cloneElement) };
}

export function cloneCacheDefinition(definition: CacheDefinition): CacheDefinition {
  const root = cloneElement(definition.root);
  return definition.name === undefined ? { root } : { root, name: definition.name };
}

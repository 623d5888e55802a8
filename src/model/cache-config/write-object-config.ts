import { own } from './config-limits';
import { MAP_ITEM_PARENTS } from './schema-layout';
import type { ConfigElement, ConfigValue } from './types';

export type PlainObject = { [key: string]: PlainValue };
export type PlainValue = string | boolean | string[] | PlainObject | PlainObject[];

function valueOf(value: ConfigValue): PlainValue {
  return Array.isArray(value) ? [...value] : value;
}

/**
 * The JSON/YAML shape of an element: attributes as fields (non-boolean values stay text, so
 * numbers come out as strings, as the original writes them), children as nested objects,
 * repeated children as arrays, backups as a map keyed by site. `toKey` spells the names.
 */
export function toPlainObject(element: ConfigElement, toKey: (name: string) => string): PlainObject {
  const result: PlainObject = {};
  for (const [name, value] of Object.entries(element.attributes)) result[toKey(name)] = valueOf(value);
  const mapItem = own(MAP_ITEM_PARENTS, element.name);
  const repeated = new Map<string, PlainObject[]>();
  for (const child of element.children) {
    const keyValue = mapItem?.child === child.name ? child.attributes[mapItem.key] : undefined;
    if (mapItem && typeof keyValue === 'string') {
      const { [mapItem.key]: _key, ...attributes } = child.attributes;
      result[keyValue] = { [toKey(child.name)]: toPlainObject({ ...child, attributes }, toKey) };
      continue;
    }
    const items = repeated.get(child.name) ?? [];
    items.push(toPlainObject(child, toKey));
    repeated.set(child.name, items);
  }
  for (const [name, items] of repeated) result[toKey(name)] = items.length === 1 ? items[0] : items;
  return result;
}

// JSON and YAML follow the XML structure: objects are elements, scalars are attributes, arrays of
// scalars are list attributes (docs/reference/management-plane.md#config-formats). A definition is bare `{"<kind>": {..}}`, named
// `{"<name>": {"<kind>": {..}}}`, or a full `{"infinispan": {"cache-container": {"caches": {..}}}}`.
import { CacheCountError, InvalidConfigurationError } from '../../errors';
import { isCacheKind } from './cache-kinds';
import { reservedNameError, unknownElementError } from './config-messages';
import { type ConfigBudget, own } from './config-limits';
import type { RawDocument, RawElement } from './raw-config';
import { MAP_ITEM_PARENTS } from './schema-layout';
import type { KeyLocator, TextLocation } from './text-location';

type PlainObject = Record<string, unknown>;

export interface ReadContext {
  toName: (key: string) => string;
  locator: KeyLocator;
  budget: ConfigBudget;
}

function isPlainObject(value: unknown): value is PlainObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isScalar(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

function notAnElement(name: string, location: TextLocation): InvalidConfigurationError {
  return new InvalidConfigurationError(`Element '${name}' at [${location[0]},${location[1]}] must be an object`);
}

// Every element counts against the limits before its body is read, so depth and size are
// refused before they cost anything (and before the recursion could exhaust the stack).
export function readElement(name: string, body: unknown, location: TextLocation, ctx: ReadContext, depth: number): RawElement {
  ctx.budget.element(depth);
  const element: RawElement = { name, attributes: [], children: [], location };
  if (body === null) return element;
  if (!isPlainObject(body)) throw notAnElement(name, location);
  const mapItem = own(MAP_ITEM_PARENTS, name);
  for (const [key, value] of Object.entries(body)) {
    const keyLocation = ctx.locator.next(key);
    if (key === '__proto__') throw reservedNameError(key, keyLocation);
    const keyName = ctx.toName(key);
    if (mapItem && isPlainObject(value) && Object.keys(value).length === 1 && ctx.toName(Object.keys(value)[0]) === mapItem.child) {
      // `"backups": {"NYC": {"backup": {..}}}`: the map key is the item's site, not a name to convert.
      const [itemKey, itemBody] = Object.entries(value)[0];
      const item = readElement(mapItem.child, itemBody, ctx.locator.next(itemKey), ctx, depth + 1);
      item.attributes.unshift({ name: mapItem.key, value: key, location: keyLocation });
      element.children.push(item);
      continue;
    }
    readEntry(element, keyName, value, keyLocation, ctx, depth);
  }
  return element;
}

function readEntry(element: RawElement, name: string, value: unknown, location: TextLocation, ctx: ReadContext, depth: number): void {
  if (value === null || isPlainObject(value)) {
    element.children.push(readElement(name, value, location, ctx, depth + 1));
    return;
  }
  if (isScalar(value)) {
    ctx.budget.attribute();
    element.attributes.push({ name, value, location });
    return;
  }
  if (Array.isArray(value) && value.every(isScalar)) {
    ctx.budget.attribute(Math.max(value.length, 1));
    element.attributes.push({ name, value: value.map(String), location });
    return;
  }
  if (Array.isArray(value) && value.every(isPlainObject)) {
    for (const item of value) element.children.push(readElement(name, item, location, ctx, depth + 1));
    return;
  }
  throw new InvalidConfigurationError(`Unsupported value for '${name}' at [${location[0]},${location[1]}]`);
}

function singleEntry(body: PlainObject): [string, unknown] {
  const entries = Object.entries(body);
  if (entries.length !== 1) throw new CacheCountError(entries.length);
  return entries[0];
}

/** `{"<kind>": {..}}` under a name (a map of caches): the cache's raw tree, named. */
export function readNamed(name: string, body: unknown, ctx: ReadContext): RawDocument {
  if (!isPlainObject(body)) throw new CacheCountError(0);
  const [kindKey, kindBody] = singleEntry(body);
  const kindLocation = ctx.locator.next(kindKey);
  const kind = ctx.toName(kindKey);
  if (!isCacheKind(kind)) throw unknownElementError(kind, kindLocation);
  return { root: readElement(kind, kindBody, kindLocation, ctx, 1), name };
}

function childNamed(body: unknown, name: string, ctx: ReadContext): unknown {
  if (!isPlainObject(body)) return undefined;
  const key = Object.keys(body).find((k) => ctx.toName(k) === name);
  if (key === undefined) return undefined;
  ctx.locator.next(key);
  return body[key];
}

// Global parts of the container (name, statistics, transport...) say nothing about the cache.
function readFullDocument(body: unknown, ctx: ReadContext): RawDocument {
  const caches = childNamed(childNamed(body, 'cache-container', ctx), 'caches', ctx);
  if (!isPlainObject(caches)) throw new CacheCountError(0);
  const [name, definition] = singleEntry(caches);
  const location = ctx.locator.next(name);
  if (name === '__proto__') throw reservedNameError(name, location);
  return readNamed(name, definition, ctx);
}

/** Turns a parsed JSON or YAML value into the raw element tree of one cache definition. */
export function readObjectConfig(parsed: unknown, ctx: ReadContext): RawDocument {
  if (!isPlainObject(parsed)) throw new InvalidConfigurationError('A cache configuration must be an object');
  const [key, body] = singleEntry(parsed);
  const location = ctx.locator.next(key);
  if (key === '__proto__') throw reservedNameError(key, location);
  const name = ctx.toName(key);
  if (name === 'infinispan') return readFullDocument(body, ctx);
  if (isCacheKind(name)) return { root: readElement(name, body, location, ctx, 1) };
  if (isPlainObject(body) && Object.keys(body).length === 1 && isCacheKind(ctx.toName(Object.keys(body)[0]))) {
    return readNamed(key, body, ctx);
  }
  throw unknownElementError(name, location);
}

// The attributes of a running cache that `?action=set-mutable-attribute` may change, under the
// dotted names the original reports (docs/reference/management-plane.md#mutable-attributes: the path of configuration elements,
// then the attribute), mapped onto grid's declarative tree. The original's names follow its
// configuration classes, not the XML layout: `remote-timeout` is written on the cache element but
// named `clustering.remote-timeout`, the `statistics` attribute is `jmx-statistics.statistics`.
import { toBaseKind } from './cache-kinds';
import { toCacheSettings } from './cache-settings';
import { cloneCacheDefinition, findChild } from './config-element';
import { parseDurationMs, parseSizeBytes } from './quantities';
import { rootSpecOf } from './schema-layout';
import type { ElementSpec } from './schema-spec';
import type { CacheDefinition, CacheKind, ConfigElement, ConfigValue } from './types';

/** The original's type names (`Class.getSimpleName().toLowerCase()`). */
export type MutableType = 'set' | 'timequantity' | 'long' | 'string' | 'boolean';

/** What `get-mutable-attributes&full=true` shows of one attribute. */
export type MutableValue = string | number | boolean | string[] | null;

export interface MutableAttribute {
  /** The dotted name clients use. */
  readonly name: string;
  /** Elements below the cache element in grid's tree, then the attribute. */
  readonly element: readonly string[];
  readonly attribute: string;
  readonly type: MutableType;
  /** The value the original reports when the definition does not set it. */
  readonly fallback: MutableValue;
  /** Cache kinds that have the attribute; all when absent. */
  readonly kinds?: readonly CacheKind[];
}

const STATE_TRANSFER: readonly CacheKind[] = ['distributed-cache', 'replicated-cache'];

const attr = (name: string, element: string[], attribute: string, type: MutableType, fallback: MutableValue,
  kinds?: readonly CacheKind[]): MutableAttribute => ({ name, element, attribute, type, fallback, ...(kinds ? { kinds } : {}) });

/** In the order the original walks its configuration (root attributes first, then elements). */
export const MUTABLE_ATTRIBUTE_SPECS: readonly MutableAttribute[] = [
  attr('aliases', [], 'aliases', 'set', []),
  // every kind, as the original's clustering configuration belongs to every cache (docs/compatibility.md)
  attr('clustering.remote-timeout', [], 'remote-timeout', 'timequantity', '15s'),
  attr('clustering.state-transfer.timeout', ['state-transfer'], 'timeout', 'timequantity', '4m', STATE_TRANSFER),
  attr('expiration.lifespan', ['expiration'], 'lifespan', 'timequantity', '-1'),
  attr('expiration.max-idle', ['expiration'], 'max-idle', 'timequantity', '-1'),
  attr('expiration.interval', ['expiration'], 'interval', 'timequantity', '1m'),
  attr('indexing.indexed-entities', ['indexing'], 'indexed-entities', 'set', []),
  attr('jmx-statistics.statistics', [], 'statistics', 'boolean', false),
  attr('locking.acquire-timeout', ['locking'], 'acquire-timeout', 'timequantity', '10s'),
  attr('memory.max-count', ['memory'], 'max-count', 'long', -1),
  attr('memory.max-size', ['memory'], 'max-size', 'string', null),
  attr('security.authorization.roles', ['security', 'authorization'], 'roles', 'set', []),
  attr('tracing.enabled', ['tracing'], 'enabled', 'boolean', true),
  attr('tracing.categories', ['tracing'], 'categories', 'set', ['container']),
  attr('transaction.stop-timeout', ['transaction'], 'stop-timeout', 'timequantity', '30s'),
];

/**
 * Schema paths (below the kind) a compatible update may change: the mutable attributes above,
 * in the form `findIncompatibleChanges` compares (docs/reference/management-plane.md#cache-update).
 */
export const MUTABLE_ATTRIBUTES: ReadonlySet<string> = new Set(
  MUTABLE_ATTRIBUTE_SPECS.map((a) => [...a.element, a.attribute].join('.')),
);

/** The mutable attributes of this definition's cache kind, in the original's order. */
export function mutableAttributesOf(def: CacheDefinition): MutableAttribute[] {
  const kind = toBaseKind(def.root.name) ?? 'local-cache';
  return MUTABLE_ATTRIBUTE_SPECS.filter((a) => a.kinds === undefined || a.kinds.includes(kind));
}

/** The attribute called `name` for this definition, or undefined when it is not mutable (or unknown). */
export function findMutableAttribute(def: CacheDefinition, name: string): MutableAttribute | undefined {
  return mutableAttributesOf(def).find((a) => a.name === name);
}

function elementAt(def: CacheDefinition, path: readonly string[]): ConfigElement | undefined {
  return path.reduce<ConfigElement | undefined>((e, name) => findChild(e, name), def.root);
}

/** The current value, typed as the original reports it with `full=true`. */
export function mutableValueOf(def: CacheDefinition, a: MutableAttribute): MutableValue {
  const written = elementAt(def, a.element)?.attributes[a.attribute];
  if (written === undefined) return Array.isArray(a.fallback) ? [...a.fallback] : a.fallback;
  switch (a.type) {
    case 'set': return Array.isArray(written) ? [...written] : [String(written)];
    case 'long': return Number(written);
    case 'boolean': return written === true;
    default: return String(written);
  }
}

/** The value as `get-mutable-attribute` answers it: Java's `String.valueOf` of the value (`[a, b]` for sets). */
export function mutableValueText(value: MutableValue): string {
  if (Array.isArray(value)) return `[${value.join(', ')}]`;
  return String(value);
}

/** Thrown by `withMutableAttribute` for a value the attribute's type refuses. */
export class MutableValueError extends Error {}

/** The text of `attribute-value` (several values joined by a space) as the attribute's tree value. */
function parseValue(a: MutableAttribute, text: string): ConfigValue {
  const bad = (reason: string) => new MutableValueError(
    `ISPN000686: Attribute '${a.attribute}' of element '${a.element.at(-1) ?? 'cache'}' has an illegal value '${text}': ${reason}`,
  );
  const trimmed = text.trim();
  switch (a.type) {
    case 'set': return [...new Set(trimmed.split(/\s+/).filter((item) => item !== ''))];
    case 'boolean':
      if (trimmed.toLowerCase() !== 'true' && trimmed.toLowerCase() !== 'false') throw bad('expected true or false');
      return trimmed.toLowerCase() === 'true';
    case 'long':
      if (!/^[+-]?\d{1,18}$/.test(trimmed)) throw bad('expected an integer');
      return String(Number(trimmed));
    case 'timequantity':
      if (parseDurationMs(trimmed) === undefined) throw bad(`Cannot parse time quantity ${trimmed}`);
      return trimmed;
    case 'string':
      if (parseSizeBytes(trimmed) === undefined) throw bad(`Cannot parse bytes quantity ${trimmed}`);
      return trimmed;
  }
}

/** Finds or creates `name` under `parent`, keeping the schema's child order. */
function childFor(parent: ConfigElement, parentSpec: ElementSpec, name: string): { element: ConfigElement; spec: ElementSpec } {
  const spec = parentSpec.children[name];
  const existing = findChild(parent, name);
  if (existing) return { element: existing, spec };
  // A new element keeps the values its absence meant (an <indexing> added for its entities must not turn indexing on).
  const attributes: Record<string, ConfigValue> = {};
  for (const [attribute, s] of Object.entries(spec.attributes)) if (s.absentDefault !== undefined) attributes[attribute] = s.absentDefault;
  const element: ConfigElement = { name, attributes, children: [] };
  const order = Object.keys(parentSpec.children);
  const at = parent.children.findIndex((c) => order.indexOf(c.name) > order.indexOf(name));
  parent.children.splice(at === -1 ? parent.children.length : at, 0, element);
  return { element, spec };
}

/** Sets (or, with undefined, removes) one attribute, keeping the schema's attribute order so the tree stays canonical. */
function setAttribute(element: ConfigElement, spec: ElementSpec, name: string, value: ConfigValue | undefined): void {
  const next: Record<string, ConfigValue> = {};
  for (const key of [...Object.keys(spec.attributes), ...Object.keys(element.attributes)]) {
    const v = key === name ? value : element.attributes[key];
    if (!(key in next) && v !== undefined) next[key] = v;
  }
  element.attributes = next;
}

/** A copy of `def` with the attribute set to `value` (a tree value, already typed). */
export function withAttributeValue(def: CacheDefinition, a: MutableAttribute, value: ConfigValue): CacheDefinition {
  const copy = cloneCacheDefinition(def);
  let spec = rootSpecOf(copy.root.name);
  if (!spec) throw new MutableValueError(`Unknown cache kind '${copy.root.name}'`);
  let element = copy.root;
  for (const name of a.element) ({ element, spec } = childFor(element, spec, name));
  const unset = Array.isArray(value) && value.length === 0 && Array.isArray(a.fallback) && a.fallback.length === 0;
  setAttribute(element, spec, a.attribute, unset ? undefined : value);
  return copy;
}

/**
 * A copy of `def` with the attribute set from the text of `attribute-value`. As in the original,
 * a memory bound can be changed but not introduced or switched: `max-count` only on a cache bounded
 * by count, `max-size` only on one bounded by size.
 */
export function withMutableAttribute(def: CacheDefinition, a: MutableAttribute, text: string): CacheDefinition {
  if (a.element[0] === 'memory') checkMemoryBound(def, a.attribute);
  return withAttributeValue(def, a, parseValue(a, text));
}

function checkMemoryBound(def: CacheDefinition, attribute: string): void {
  const memory = findChild(def.root, 'memory');
  if (memory && memory.children.length > 0) {
    throw new MutableValueError(`Cannot change ${attribute}: the memory bound is written in the pre-11 form; update the configuration instead`);
  }
  const settings = toCacheSettings(def);
  if (attribute === 'max-count' && settings.maxCount <= 0) {
    throw new MutableValueError('Cannot change max-count: the cache is not bounded by a number of entries (max-count)');
  }
  if (attribute === 'max-size' && settings.maxSize === undefined) {
    throw new MutableValueError('Cannot change max-size: the cache is not bounded by a size in bytes (max-size)');
  }
}

const ALIASES = MUTABLE_ATTRIBUTE_SPECS[0];

/** A copy of `def` whose `aliases` are exactly `aliases`. */
export function withAliases(def: CacheDefinition, aliases: readonly string[]): CacheDefinition {
  return withAttributeValue(def, ALIASES, [...aliases]);
}

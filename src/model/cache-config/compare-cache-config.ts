import { own } from './config-limits';
import { toCacheSettings } from './cache-settings';
import { parseDurationMs, parseSizeBytes } from './quantities';
import { MUTABLE_ATTRIBUTES } from './mutable-attributes';
import { rootSpecOf } from './schema-layout';
import type { AttributeSpec, ElementSpec, ValueKind } from './schema-spec';
import type { CacheDefinition, ConfigElement, ConfigValue } from './types';

type Effective = ConfigValue | null;

// Root attributes not compared one by one: the name is the caller's, `configuration` names the
// template the definition was resolved from, and `mode` is part of the cache mode compared first.
const ROOT_IGNORED = new Set(['name', 'configuration', 'mode']);

/** One attribute whose effective value differs: `attribute` is the dotted path from the kind (`local-cache.memory.max-count`). */
export interface AttributeDifference {
  attribute: string;
  existing: string;
  updated: string;
}

function difference(kind: string, path: readonly string[], existing: string, updated: string): AttributeDifference {
  return { attribute: [kind, ...path].join('.'), existing, updated };
}

function incompatible(d: AttributeDifference): string {
  return `ISPN000961: Incompatible attribute '${d.attribute}' existing value='${d.existing}', new value='${d.updated}'`;
}

function display(value: Effective): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? `[${value.join(', ')}]` : String(value);
}

function effective(spec: AttributeSpec | undefined, element: ConfigElement | undefined, name: string): Effective {
  const explicit = element?.attributes[name];
  if (explicit !== undefined) return explicit;
  if (!spec) return null;
  if (!element) return spec.absentDefault ?? spec.defaultFrom?.({}) ?? spec.default ?? null;
  return spec.defaultFrom?.(element.attributes) ?? spec.default ?? null;
}

/** Equal as the running cache would see them: 5s equals 5000, 1KB equals 1000, lists are sets. */
function sameValue(kind: ValueKind | undefined, a: Effective, b: Effective): boolean {
  if (a === null || b === null) return a === b;
  if (Array.isArray(a) || Array.isArray(b)) {
    const left = [...(Array.isArray(a) ? a : [a])].sort();
    const right = [...(Array.isArray(b) ? b : [b])].sort();
    return left.length === right.length && left.every((item, i) => item === right[i]);
  }
  if (kind === 'duration') return parseDurationMs(String(a)) === parseDurationMs(String(b));
  if (kind === 'size') return parseSizeBytes(String(a)) === parseSizeBytes(String(b));
  if (kind === 'integer' || kind === 'number') return Number(a) === Number(b);
  return a === b;
}

class Comparison {
  readonly problems: AttributeDifference[] = [];

  constructor(private readonly kind: string, private readonly skipMutable: boolean) {}

  element(spec: ElementSpec, a: ConfigElement | undefined, b: ConfigElement | undefined, path: string[]): void {
    const names = new Set([...Object.keys(a?.attributes ?? {}), ...Object.keys(b?.attributes ?? {})]);
    // An element on one side only still differs where its presence alone sets a value (indexing.enabled).
    if ((a === undefined) !== (b === undefined)) {
      for (const [name, attributeSpec] of Object.entries(spec.attributes)) {
        if (attributeSpec.absentDefault !== undefined) names.add(name);
      }
    }
    for (const name of names) {
      if (path.length === 0 && ROOT_IGNORED.has(name)) continue;
      const attributeSpec = own(spec.attributes, name);
      const before = effective(attributeSpec, a, name);
      const after = effective(attributeSpec, b, name);
      const dotted = [...path, name].join('.');
      if (sameValue(attributeSpec?.kind, before, after) || (this.skipMutable && MUTABLE_ATTRIBUTES.has(dotted))) continue;
      this.problems.push(difference(this.kind, [...path, name], display(before), display(after)));
    }
    for (const [childName, childSpec] of Object.entries(spec.children)) {
      this.children(childName, childSpec, a, b, path);
    }
  }

  private children(name: string, spec: ElementSpec, a: ConfigElement | undefined, b: ConfigElement | undefined, path: string[]): void {
    const left = this.keyed(name, spec, a);
    const right = this.keyed(name, spec, b);
    for (const key of new Set([...left.keys(), ...right.keys()])) {
      const childPath = spec.repeatable ? [...path, key] : [...path, name];
      const before = left.get(key);
      const after = right.get(key);
      if (spec.significant && (before === undefined) !== (after === undefined)) {
        this.problems.push(difference(this.kind, childPath, before ? name : 'null', after ? name : 'null'));
        continue;
      }
      this.element(spec, before, after, childPath);
    }
  }

  // Repeated children pair up by their key attribute (backups by site), else by position.
  private keyed(name: string, spec: ElementSpec, parent: ConfigElement | undefined): Map<string, ConfigElement> {
    const found = (parent?.children ?? []).filter((child) => child.name === name);
    if (!spec.repeatable) return new Map(found.slice(0, 1).map((child) => [name, child]));
    return new Map(found.map((child, i) => {
      const key = spec.mapKey === undefined ? undefined : child.attributes[spec.mapKey];
      return [typeof key === 'string' ? key : `${name}[${i}]`, child];
    }));
  }
}

/**
 * The changes `updated` makes to `existing` that a running cache cannot take
 * (docs/reference/management-plane.md#cache-update, docs/reference/management-plane.md#config-compare): every attribute outside MUTABLE_ATTRIBUTES whose effective value differs, a store or backup
 * added or removed, and a different cache mode. Empty when the update is allowed.
 */
export function findIncompatibleChanges(existing: CacheDefinition, updated: CacheDefinition): string[] {
  return incompatibleAttributes(existing, updated).map(incompatible);
}

/** `findIncompatibleChanges`, one item per attribute. */
export function incompatibleAttributes(existing: CacheDefinition, updated: CacheDefinition): AttributeDifference[] {
  return compare(existing, updated, true);
}

/**
 * Every difference between two definitions as the running caches would see them, mutable
 * attributes included (`POST /caches?action=compare`, docs/reference/management-plane.md#config-compare): empty when they are
 * equal. Names are not part of a definition; a template and a cache of the same shape differ.
 */
export function findDifferences(a: CacheDefinition, b: CacheDefinition): string[] {
  return differentAttributes(a, b).map(incompatible);
}

/** `findDifferences`, one item per attribute. */
export function differentAttributes(a: CacheDefinition, b: CacheDefinition): AttributeDifference[] {
  if (a.root.name !== b.root.name) return [difference(a.root.name, [], a.root.name, b.root.name)];
  return compare(a, b, false);
}

function compare(existing: CacheDefinition, updated: CacheDefinition, skipMutable: boolean): AttributeDifference[] {
  const kind = existing.root.name;
  const before = toCacheSettings(existing).cacheMode;
  const after = toCacheSettings(updated).cacheMode;
  // The cache mode (kind plus SYNC/ASYNC) is the original's clustering.cache-mode attribute.
  if (before !== after) return [difference(kind, ['clustering', 'cache-mode'], before, after)];
  const spec = rootSpecOf(kind);
  if (!spec) return [];
  const comparison = new Comparison(kind, skipMutable);
  comparison.element(spec, existing.root, updated.root, []);
  return comparison.problems;
}

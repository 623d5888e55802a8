import { toBaseKind } from './cache-kinds';
import { CACHE_SPECS } from './schema';
import type { ElementSpec } from './schema-spec';

export interface MapItemLayout {
  child: string;
  key: string;
}

function collectMapItems(spec: ElementSpec, name: string, into: Record<string, MapItemLayout>): void {
  for (const [childName, child] of Object.entries(spec.children)) {
    if (child.mapKey !== undefined) into[name] = { child: childName, key: child.mapKey };
    collectMapItems(child, childName, into);
  }
}

/** Elements whose repeated children JSON and YAML write as a map keyed by an attribute (backups → backup by site). */
export const MAP_ITEM_PARENTS: Readonly<Record<string, MapItemLayout>> = (() => {
  const into: Record<string, MapItemLayout> = {};
  for (const [kind, spec] of Object.entries(CACHE_SPECS)) collectMapItems(spec, kind, into);
  return into;
})();

/** The spec of a cache kind's root element, template kinds included. */
export function rootSpecOf(kind: string): ElementSpec | undefined {
  const base = toBaseKind(kind);
  return base === undefined ? undefined : CACHE_SPECS[base];
}

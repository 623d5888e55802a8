import type { FieldRef } from '../../model/ickle/analyzed-query';
import { type EntityModel, isEmbedded, type PropertyModel } from '../../model/ickle/entity-model';
import { analyzeText, normalizeKeyword } from '../../model/ickle/text-analyzers';
import type { IndexDocument, IndexValue } from '../../store/store';
import { compileAccessor, type ValuesAccessor } from './field-values';

/** `@Embedded(includeDepth)` defaults to 3 (docs/reference/query.md#annotation-attributes); cycles stop there too. */
const INCLUDE_DEPTH = 3;

/** A field the index holds: B-tree values (searchable, sortable or aggregable) or analyzed text. */
export interface IndexedField {
  ref: FieldRef;
  kind: 'value' | 'text';
  read: ValuesAccessor;
}

export interface IndexLayout {
  fields: IndexedField[];
  byPath: ReadonlyMap<string, IndexedField>;
}

const layouts = new WeakMap<EntityModel, IndexLayout>();

/** What the index holds of an entity (memoized per schema version, since models are). */
export function indexLayoutOf(entity: EntityModel): IndexLayout {
  let layout = layouts.get(entity);
  if (!layout) {
    const fields: IndexedField[] = [];
    collect(entity, [], fields, 0);
    layout = { fields, byPath: new Map(fields.map((f) => [f.ref.key, f])) };
    layouts.set(entity, layout);
  }
  return layout;
}

function collect(entity: EntityModel, prefix: PropertyModel[], out: IndexedField[], depth: number): void {
  for (const p of entity.properties.values()) {
    const props = [...prefix, p];
    if (p.kind === 'message') {
      if (isEmbedded(p) && depth < INCLUDE_DEPTH) collect(p.message!(), props, out, depth + 1);
      continue;
    }
    const f = p.flags;
    const kind = f.analyzed ? 'text' : f.searchable || f.sortable || f.aggregable ? 'value' : undefined;
    if (!kind) continue;
    const path = props.map((x) => x.name);
    const ref: FieldRef = { path, key: path.join('.'), props, leaf: p, multiValued: props.some((x) => x.repeated) };
    out.push({ ref, kind, read: compileAccessor(ref) });
  }
}

/** The index document of a decoded entity. */
export function toIndexDocument(entity: EntityModel, message: object, key: Buffer, expiresAt: number | null, memoryOnly: boolean): IndexDocument {
  const values: Array<[string, IndexValue]> = [];
  const texts: Array<[string, string[][]]> = [];
  for (const f of indexLayoutOf(entity).fields) {
    const read = f.read(message);
    if (read.length === 0) continue;
    const leaf = f.ref.leaf;
    if (f.kind === 'text') {
      texts.push([f.ref.key, read.map((v) => analyzeText(leaf.analyzer, String(v)))]);
    } else {
      for (const v of read) values.push([f.ref.key, leaf.flags.normalized ? normalizeKeyword(leaf.normalizer, String(v)) : v]);
    }
  }
  return { key, type: entity.name, expiresAt, values, texts, memoryOnly };
}

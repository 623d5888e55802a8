import type { Namespace, ReflectionObject, Root } from 'protobufjs';

// loaded on first use: only servers with schemas need it
let pbModule: typeof import('protobufjs') | undefined;
const pb = (): typeof import('protobufjs') => (pbModule ??= require('protobufjs') as typeof import('protobufjs'));

/** One declaration of a parsed root, without its nested ones: plain data that crosses threads. */
export interface ProtoDescriptor {
  /** Full name of the enclosing namespace or message, '' for the root. */
  parent: string;
  name: string;
  /** Its JSON descriptor as text: strings cross threads as a copy, objects would be rebuilt field by field. */
  json: string;
}

/**
 * A root as a list of declarations in pre-order (parents before what they contain), so another
 * thread can rebuild it one declaration at a time instead of in one long parse.
 */
export function describeRoot(root: Root): ProtoDescriptor[] {
  const out: ProtoDescriptor[] = [];
  const stack: Array<{ parent: string; object: ReflectionObject }> = [];
  const pushChildren = (ns: Namespace, parent: string) => {
    const children = ns.nestedArray;
    for (let i = children.length - 1; i >= 0; i--) stack.push({ parent, object: children[i] });
  };
  pushChildren(root, '');
  while (stack.length > 0) {
    const { parent, object } = stack.pop()!;
    // comments carry the indexing annotations the query engine reads (docs/query.md)
    const toJson = object.toJSON as (this: ReflectionObject, options?: { keepComments?: boolean }) => Record<string, unknown>;
    const { nested: _nested, ...json } = toJson.call(object, { keepComments: true });
    out.push({ parent, name: object.name, json: JSON.stringify(json) });
    if (object instanceof pb().Namespace) pushChildren(object, parent ? `${parent}.${object.name}` : object.name);
  }
  return out;
}

// protobufjs resolves edition features (proto3's packed repeated fields…) in one recursive pass
// from the root (`resolveAll`); this is the same step done one object at a time.
interface FeatureResolving { _edition?: string; _resolveFeatures?: (edition: string) => void }

function editionOf(object: ReflectionObject): string {
  for (let p: ReflectionObject | null = object; p; p = p.parent) {
    const edition = (p as unknown as FeatureResolving)._edition;
    if (edition) return edition;
  }
  return 'proto2';
}

function resolveFeatures(object: ReflectionObject, edition: string): void {
  (object as unknown as FeatureResolving)._resolveFeatures?.call(object, edition);
}

/**
 * Adds descriptors to `root` in order, yielding after each one so that the caller decides when to
 * give the event loop a turn; then resolves features, one message per step. The result equals
 * `Root.fromJSON(root.toJSON())` of the described root with its features resolved.
 *
 * Field types are left to resolve on first use (protobufjs does it when a type first encodes or
 * decodes; readers of `resolvedType` call `Field.resolve()`), so types no request uses cost only
 * their declarations: measured with ~49,000 declarations stored, 5–10% less heap and no slice
 * over 30 ms where resolving them all here once took 61 ms. The worker has already resolved
 * every valid file, so a lookup can fail later only in what a file clashing with another one left
 * half-declared, and only where that type is used.
 */
export function* addDescriptors(root: Root, descriptors: readonly ProtoDescriptor[]): Generator<void, void, void> {
  for (const d of descriptors) {
    const parent = d.parent === '' ? root : root.lookup(d.parent);
    if (!(parent instanceof pb().Namespace)) continue;
    const json = JSON.parse(d.json) as Record<string, unknown>;
    const { fields, oneofs, ...rest } = json;
    if (fields === undefined) {
      parent.addJSON({ [d.name]: json });
      yield;
      continue;
    }
    // A message is added empty, then field by field: protobufjs re-indexes a message's fields on
    // every addition (quadratic), so one wide message would otherwise be one long step.
    parent.addJSON({ [d.name]: { ...rest, fields: {} } });
    const type = parent.get(d.name);
    if (!(type instanceof pb().Type)) continue;
    for (const [name, field] of Object.entries(fields as Record<string, { keyType?: string }>)) {
      type.add(field.keyType !== undefined ? pb().MapField.fromJSON(name, field as never) : pb().Field.fromJSON(name, field as never));
      yield;
    }
    for (const [name, oneof] of Object.entries((oneofs ?? {}) as Record<string, never>)) type.add(pb().OneOf.fromJSON(name, oneof));
    yield;
  }
  const stack: ReflectionObject[] = [...root.nestedArray];
  while (stack.length > 0) {
    const object = stack.pop()!;
    const edition = editionOf(object);
    resolveFeatures(object, edition);
    if (object instanceof pb().Type) {
      for (const oneof of object.oneofsArray) resolveFeatures(oneof, edition);
      for (const field of object.fieldsArray) resolveFeatures(field, edition);
    }
    if (object instanceof pb().Namespace) stack.push(...object.nestedArray);
    yield;
  }
}

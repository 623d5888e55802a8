import { duplicateElementError, unexpectedAttributeError, unknownElementError, unsupportedStoreError } from './config-messages';
import { own } from './config-limits';
import { freeFormValue, normalizeValue } from './normalize-config-value';
import type { RawDocument, RawElement } from './raw-config';
import { rootSpecOf } from './schema-layout';
import type { ElementSpec } from './schema-spec';
import type { CacheDefinition, ConfigElement, ConfigValue } from './types';

function buildAttributes(raw: RawElement, spec: ElementSpec): Record<string, ConfigValue> {
  const values = new Map<string, ConfigValue>();
  for (const attribute of raw.attributes) {
    const attributeSpec = own(spec.attributes, attribute.name);
    if (attributeSpec) {
      values.set(attribute.name, normalizeValue(raw.name, attribute, attributeSpec.kind));
      continue;
    }
    if (!spec.anyAttributes) throw unexpectedAttributeError(attribute.name, attribute.location);
    values.set(attribute.name, freeFormValue(attribute.value));
  }
  // Schema order first, so one definition yields one tree whatever order the document used.
  const ordered = [...Object.keys(spec.attributes), ...values.keys()];
  const attributes: Record<string, ConfigValue> = {};
  for (const name of ordered) {
    const value = values.get(name);
    if (value !== undefined && !Object.prototype.hasOwnProperty.call(attributes, name)) attributes[name] = value;
  }
  return attributes;
}

function buildChildren(raw: RawElement, spec: ElementSpec): ConfigElement[] {
  const byName = new Map<string, ConfigElement[]>();
  for (const child of raw.children) {
    const childSpec = own(spec.children, child.name);
    if (!childSpec) throw raw.name === 'persistence' ? unsupportedStoreError(child.name, child.location) : unknownElementError(child.name, child.location);
    const siblings = byName.get(child.name) ?? [];
    if (siblings.length > 0 && !childSpec.repeatable) throw duplicateElementError(child.name, child.location);
    siblings.push(buildElement(child, childSpec));
    byName.set(child.name, siblings);
  }
  return Object.keys(spec.children).flatMap((name) => byName.get(name) ?? []);
}

function buildElement(raw: RawElement, spec: ElementSpec): ConfigElement {
  return { name: raw.name, attributes: buildAttributes(raw, spec), children: buildChildren(raw, spec) };
}

/** Validates a raw tree against the schema and gives it the canonical shape (types, order). */
export function toCacheDefinition(document: RawDocument): CacheDefinition {
  const { root } = document;
  const spec = rootSpecOf(root.name);
  if (!spec) throw unknownElementError(root.name, root.location);
  // The name inside the document is kept apart from the attributes; the caller decides which name wins.
  const nameAttribute = root.attributes.find((attribute) => attribute.name === 'name');
  const attributes = root.attributes.filter((attribute) => attribute !== nameAttribute);
  const built = buildElement({ ...root, attributes }, spec);
  const name = document.name ?? (nameAttribute && String(nameAttribute.value));
  return name === undefined ? { root: built } : { root: built, name };
}

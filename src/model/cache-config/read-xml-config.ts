import { xml2js, type Element as XmlNode } from 'xml-js';
import { InvalidConfigurationError } from '../../errors';
import { isCacheKind } from './cache-kinds';
import { cacheCountError, emptyConfigurationError, unknownElementError } from './config-messages';
import type { RawAttribute, RawDocument, RawElement } from './raw-config';
import { escapeRegExp, locationOf, START, type TextLocation } from './text-location';

// Global parts of a full <infinispan> document that say nothing about the cache itself.
const IGNORED_GLOBAL_ELEMENTS = new Set([
  'jgroups', 'threads', 'server', 'transport', 'security', 'serialization', 'metrics', 'jmx',
  'global-state', 'tracing',
]);

function localName(name: string): string {
  return name.slice(name.indexOf(':') + 1);
}

function elementsOf(node: XmlNode): XmlNode[] {
  return (node.elements ?? []).filter((child) => child.type === 'element');
}

function textOf(node: XmlNode): string {
  return (node.elements ?? []).map((child) => String(child.text ?? child.cdata ?? '')).join('').trim();
}

/** Walks the text in document order to give each element and attribute its [line, column]. */
class XmlLocator {
  private cursor = 0;

  constructor(private readonly text: string) {}

  element(rawName: string): { location: TextLocation; tagEnd: number; tagStart: number } {
    const found = new RegExp(`<${escapeRegExp(rawName)}(?=[\\s/>])`, 'g');
    found.lastIndex = this.cursor;
    const match = found.exec(this.text);
    if (!match) return { location: START, tagStart: -1, tagEnd: -1 };
    this.cursor = match.index + 1;
    return { location: locationOf(this.text, match.index), tagStart: match.index, tagEnd: this.text.indexOf('>', match.index) };
  }

  attribute(rawName: string, tagStart: number, tagEnd: number): TextLocation {
    if (tagStart < 0) return START;
    const offset = this.text.slice(tagStart, tagEnd).search(new RegExp(`\\s${escapeRegExp(rawName)}\\s*=`));
    return offset < 0 ? START : locationOf(this.text, tagStart + offset + 1);
  }
}

function toRawElement(node: XmlNode, locator: XmlLocator): RawElement {
  const rawName = node.name ?? '';
  const { location, tagStart, tagEnd } = locator.element(rawName);
  const name = localName(rawName);
  const attributes: RawAttribute[] = [];
  for (const [attrName, value] of Object.entries(node.attributes ?? {})) {
    // Namespaced attributes (xmlns, xsi:schemaLocation) are not configuration.
    if (attrName === 'xmlns' || attrName.includes(':') || value === undefined) continue;
    attributes.push({ name: attrName, value: String(value), location: locator.attribute(attrName, tagStart, tagEnd) });
  }
  const children: RawElement[] = [];
  for (const child of elementsOf(node)) {
    if (name === 'indexing' && localName(child.name ?? '') === 'indexed-entities') {
      attributes.push(readIndexedEntities(child, locator));
      continue;
    }
    children.push(toRawElement(child, locator));
  }
  return { name, attributes, children, location };
}

// <indexed-entities><indexed-entity>A</indexed-entity></indexed-entities> is the list attribute
// `indexed-entities` of <indexing> in JSON and YAML; the tree keeps the attribute form.
function readIndexedEntities(node: XmlNode, locator: XmlLocator): RawAttribute {
  const { location } = locator.element(node.name ?? '');
  const entities: string[] = [];
  for (const item of elementsOf(node)) {
    const itemLocation = locator.element(item.name ?? '').location;
    if (localName(item.name ?? '') !== 'indexed-entity') throw unknownElementError(localName(item.name ?? ''), itemLocation);
    entities.push(textOf(item));
  }
  return { name: 'indexed-entities', value: entities, location };
}

function findCacheElement(document: XmlNode, locator: XmlLocator): RawDocument {
  locator.element(document.name ?? '');
  const caches: RawElement[] = [];
  for (const part of elementsOf(document)) {
    const partName = localName(part.name ?? '');
    if (partName !== 'cache-container') {
      const { location } = locator.element(part.name ?? '');
      if (!IGNORED_GLOBAL_ELEMENTS.has(partName)) throw unknownElementError(partName, location);
      continue;
    }
    locator.element(part.name ?? '');
    for (const child of elementsOf(part)) {
      const childName = localName(child.name ?? '');
      if (isCacheKind(childName)) {
        caches.push(toRawElement(child, locator));
        continue;
      }
      const { location } = locator.element(child.name ?? '');
      if (!IGNORED_GLOBAL_ELEMENTS.has(childName)) throw unknownElementError(childName, location);
    }
  }
  if (caches.length !== 1) throw cacheCountError(caches.length);
  return { root: caches[0] };
}

/** Reads a full `<infinispan><cache-container>` document or a bare cache element. */
export function readXmlConfig(text: string): RawDocument {
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) throw new InvalidConfigurationError('DOCTYPE is not allowed in a configuration');
  let parsed: XmlNode;
  try {
    parsed = xml2js(text, { compact: false, trim: true, ignoreComment: true, ignoreDeclaration: true, ignoreInstruction: true }) as XmlNode;
  } catch (err) {
    throw new InvalidConfigurationError(err instanceof Error ? err.message : String(err));
  }
  const roots = elementsOf(parsed);
  if (roots.length === 0) throw emptyConfigurationError();
  if (roots.length > 1) throw new InvalidConfigurationError('A configuration document has exactly one root element');
  const locator = new XmlLocator(text);
  if (localName(roots[0].name ?? '') === 'infinispan') return findCacheElement(roots[0], locator);
  return { root: toRawElement(roots[0], locator) };
}

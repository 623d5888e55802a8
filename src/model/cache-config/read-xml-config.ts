import type { Element as XmlNode } from 'xml-js';
import { lazy } from '../../util/lazy';
import { CacheCountError, EmptyConfigurationError, InvalidConfigurationError } from '../../errors';
import { isCacheKind } from './cache-kinds';
import { reservedNameError, unknownElementError } from './config-messages';
import type { ConfigBudget } from './config-limits';
import type { RawAttribute, RawDocument, RawElement } from './raw-config';
import { scanXmlTags, type XmlTag } from './scan-xml-tags';
import { LineIndex, START, type TextLocation } from './text-location';

// XML configurations are one format among three: the parser loads on first use
const xmlJs = lazy(() => require('xml-js') as typeof import('xml-js'));

// Global parts of a full <infinispan> document that say nothing about the cache itself.
const IGNORED_GLOBAL_ELEMENTS = new Set([
  'jgroups', 'threads', 'server', 'transport', 'security', 'serialization', 'metrics', 'jmx',
  'global-state', 'tracing',
]);

export function localName(name: string): string {
  return name.slice(name.indexOf(':') + 1);
}

export function elementsOf(node: XmlNode): XmlNode[] {
  return (node.elements ?? []).filter((child) => child.type === 'element');
}

export function textOf(node: XmlNode): string {
  return (node.elements ?? []).map((child) => String(child.text ?? child.cdata ?? '')).join('').trim();
}

/** Gives each parsed element and attribute its [line, column], from one scan of the text. */
export class XmlLocator {
  private readonly tags = new Map<XmlNode, XmlTag>();

  constructor(root: XmlNode, scanned: XmlTag[], private readonly lines: LineIndex) {
    // the parser keeps document order, so the k-th element of a pre-order walk is the k-th start tag
    const order: XmlNode[] = [];
    const stack: XmlNode[] = [root];
    while (stack.length > 0) {
      const node = stack.pop()!;
      if (node.type === 'element') order.push(node);
      const children = node.elements ?? [];
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
    }
    if (order.length !== scanned.length) return;
    order.forEach((node, i) => this.tags.set(node, scanned[i]));
  }

  element(node: XmlNode): TextLocation {
    const tag = this.tags.get(node);
    return tag ? this.lines.locationOf(tag.offset) : START;
  }

  attribute(node: XmlNode, name: string): TextLocation {
    const offset = this.tags.get(node)?.attributes.get(name);
    return offset === undefined ? START : this.lines.locationOf(offset);
  }
}

export function toRawElement(node: XmlNode, locator: XmlLocator): RawElement {
  const location = locator.element(node);
  const name = localName(node.name ?? '');
  if (name === '__proto__') throw reservedNameError(name, location);
  const attributes: RawAttribute[] = [];
  for (const [attrName, value] of Object.entries(node.attributes ?? {})) {
    // Namespaced attributes (xmlns, xsi:schemaLocation) are not configuration.
    if (attrName === 'xmlns' || attrName.includes(':') || value === undefined) continue;
    const attrLocation = locator.attribute(node, attrName);
    if (attrName === '__proto__') throw reservedNameError(attrName, attrLocation);
    attributes.push({ name: attrName, value: String(value), location: attrLocation });
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
  const location = locator.element(node);
  const entities: string[] = [];
  for (const item of elementsOf(node)) {
    const itemLocation = locator.element(item);
    if (localName(item.name ?? '') !== 'indexed-entity') throw unknownElementError(localName(item.name ?? ''), itemLocation);
    entities.push(textOf(item));
  }
  return { name: 'indexed-entities', value: entities, location };
}

function findCacheElement(document: XmlNode, locator: XmlLocator): RawDocument {
  const caches: RawElement[] = [];
  for (const part of elementsOf(document)) {
    const partName = localName(part.name ?? '');
    if (partName !== 'cache-container') {
      if (!IGNORED_GLOBAL_ELEMENTS.has(partName)) throw unknownElementError(partName, locator.element(part));
      continue;
    }
    for (const child of elementsOf(part)) {
      const childName = localName(child.name ?? '');
      // <caches> wraps the cache elements as the original writes a document (its parser takes both)
      for (const cache of childName === 'caches' ? elementsOf(child) : [child]) {
        const cacheName = localName(cache.name ?? '');
        if (isCacheKind(cacheName)) caches.push(toRawElement(cache, locator));
        else if (cache === child && IGNORED_GLOBAL_ELEMENTS.has(cacheName)) continue;
        else throw unknownElementError(cacheName, locator.element(cache));
      }
    }
  }
  if (caches.length !== 1) throw new CacheCountError(caches.length);
  return { root: caches[0] };
}

/** The document's one root element, and where each element and attribute is in the text. */
export function readXmlDocument(text: string, budget: ConfigBudget): { root: XmlNode; locator: XmlLocator } {
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) throw new InvalidConfigurationError('DOCTYPE is not allowed in a configuration');
  const scanned = scanXmlTags(text, budget);
  let parsed: XmlNode;
  try {
    parsed = xmlJs().xml2js(text, { compact: false, trim: true, ignoreComment: true, ignoreDeclaration: true, ignoreInstruction: true }) as XmlNode;
  } catch (err) {
    throw new InvalidConfigurationError(err instanceof Error ? err.message : String(err));
  }
  const roots = elementsOf(parsed);
  if (roots.length === 0) throw new EmptyConfigurationError();
  if (roots.length > 1) throw new InvalidConfigurationError('A configuration document has exactly one root element');
  // the scan stopped where the text is malformed, yet the parser read it: refuse rather than read unchecked
  if (!scanned) throw new InvalidConfigurationError('The XML could not be read: malformed start tag');
  return { root: roots[0], locator: new XmlLocator(parsed, scanned, new LineIndex(text)) };
}

/** Reads a full `<infinispan><cache-container>` document or a bare cache element. */
export function readXmlConfig(text: string, budget: ConfigBudget): RawDocument {
  const { root, locator } = readXmlDocument(text, budget);
  if (localName(root.name ?? '') === 'infinispan') return findCacheElement(root, locator);
  return { root: toRawElement(root, locator) };
}

import type { ConfigElement, ConfigValue } from './types';

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char]);
}

function attributeText(value: ConfigValue): string {
  return escapeXml(Array.isArray(value) ? value.join(' ') : String(value));
}

interface Layout {
  pretty: boolean;
  depth: number;
}

function indent({ pretty, depth }: Layout): string {
  return pretty ? `\n${'  '.repeat(depth)}` : '';
}

function openTag(name: string, attributes: Record<string, ConfigValue>): string {
  const parts = Object.entries(attributes).map(([key, value]) => ` ${key}="${attributeText(value)}"`);
  return `<${name}${parts.join('')}`;
}

// <indexing indexed-entities> is written as <indexed-entities><indexed-entity>..</indexed-entity></indexed-entities>.
function indexedEntitiesXml(entities: string[], layout: Layout): string {
  if (entities.length === 0) return `${indent(layout)}<indexed-entities/>`;
  const inner = { ...layout, depth: layout.depth + 1 };
  const items = entities.map((entity) => `${indent(inner)}<indexed-entity>${escapeXml(entity)}</indexed-entity>`).join('');
  return `${indent(layout)}<indexed-entities>${items}${indent(layout)}</indexed-entities>`;
}

function elementXml(element: ConfigElement, layout: Layout, extra: Record<string, ConfigValue> = {}): string {
  const isIndexing = element.name === 'indexing';
  const { 'indexed-entities': entities, ...rest } = element.attributes;
  // `extra` (the cache name) is written first and wins over an attribute of the same name.
  const attributes = { ...extra, ...(isIndexing ? rest : element.attributes), ...extra };
  const inner = { ...layout, depth: layout.depth + 1 };
  const body = [
    isIndexing && Array.isArray(entities) ? indexedEntitiesXml(entities, inner) : '',
    ...element.children.map((child) => elementXml(child, inner)),
  ].join('');
  const start = `${indent(layout)}${openTag(element.name, attributes)}`;
  if (body === '') return `${start}/>`;
  return `${start}>${body}${indent(layout)}</${element.name}>`;
}

/** What the original's XML writer opens every document with. */
const XML_DECLARATION = '<?xml version="1.0"?>';
/** The schema of the declarative configuration grid speaks (Infinispan 15.0, docs/compatibility.md). */
export const CONFIG_NAMESPACE = 'urn:infinispan:config:15.0';

/** The XML declaration, then the cache element (no <infinispan> wrapper), named when named. */
export function toXml(root: ConfigElement, name: string | undefined, pretty: boolean): string {
  const cache = elementXml(root, { pretty, depth: 0 }, name === undefined ? {} : { name }).replace(/^\n/, '');
  return `${XML_DECLARATION}${pretty ? '\n' : ''}${cache}`;
}

/**
 * A full document, as the original writes a configuration event:
 * `<?xml version="1.0"?><infinispan xmlns=…><cache-container><caches><kind name=..>..</kind></caches></cache-container></infinispan>`.
 */
export function toXmlDocument(root: ConfigElement, name: string, pretty: boolean): string {
  const cache = elementXml(root, { pretty, depth: 3 }, { name });
  const line = (depth: number) => (pretty ? `\n${'  '.repeat(depth)}` : '');
  return `${XML_DECLARATION}${line(0)}<infinispan xmlns="${CONFIG_NAMESPACE}">${line(1)}<cache-container>${line(2)}<caches>` +
    `${cache}${line(2)}</caches>${line(1)}</cache-container>${line(0)}</infinispan>`;
}

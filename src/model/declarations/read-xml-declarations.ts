// grid's own XML file (`<server>` with `<caches>`, `<templates>`, `<counters>`, `<roles>`,
// `<schemas>` among the settings) and the original's `<infinispan>` document.
import type { Element as XmlNode } from 'xml-js';
import { DeclarationError } from '../../errors';
import { isCacheKind } from '../cache-config';
import { elementsOf, localName, textOf, toRawElement, type XmlLocator } from '../cache-config/read-xml-config';
import { type Declarations, emptyDeclarations, within } from './declarations';
import { COUNTER_KINDS, toDeclaredCache, toDeclaredCounter, toDeclaredRole } from './declared-values';
import { ignoredPart } from './ignored-parts';
import type { FileReader } from './read-object-declarations';

function nameOf(node: XmlNode): string {
  return localName(node.name ?? '');
}

function attributesOf(node: XmlNode): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(node.attributes ?? {})) {
    // namespace declarations and prefixed attributes (xsi:schemaLocation) are not configuration
    if (name !== 'xmlns' && !name.includes(':') && value !== undefined) out[name] = String(value);
  }
  return out;
}

class XmlReader {
  readonly out: Declarations = emptyDeclarations();

  constructor(private readonly locator: XmlLocator, private readonly source: string, private readonly files: FileReader) {}

  document(root: XmlNode): void {
    if (nameOf(root) === 'infinispan') return this.infinispan(root);
    if (nameOf(root) === 'server') this.grid(root);
  }

  private grid(server: XmlNode): void {
    for (const part of elementsOf(server)) {
      const name = nameOf(part);
      if (name === 'caches' || name === 'templates') for (const c of elementsOf(part)) this.cache(c, name === 'templates');
      else if (name === 'counters') this.counters(part, ['counters']);
      else if (name === 'roles') for (const r of elementsOf(part)) this.role(r, 'roles');
      else if (name === 'schemas') for (const s of elementsOf(part)) this.schema(s);
      // anything else is a server setting, read by src/config/server-config.ts
    }
  }

  private infinispan(root: XmlNode): void {
    for (const part of elementsOf(root)) {
      const name = nameOf(part);
      if (name === 'cache-container') this.container(part);
      else if (name === 'server') this.ignoreServer(part);
      else this.ignore(['infinispan', name]);
    }
  }

  /** The original's `<server>`: each part named, and each part of its `<security>` (realms, credential stores). */
  private ignoreServer(server: XmlNode): void {
    for (const child of elementsOf(server)) {
      const path = ['infinispan', 'server', nameOf(child)];
      const parts = nameOf(child) === 'security' ? elementsOf(child) : [];
      if (parts.length === 0) this.ignore(path);
      for (const part of parts) this.ignore([...path, nameOf(part)]);
    }
  }

  private container(container: XmlNode): void {
    for (const [name, value] of Object.entries(attributesOf(container))) {
      if (!(name === 'statistics' || (name === 'name' && value === 'default'))) this.ignore(['cache-container', name]);
    }
    for (const part of elementsOf(container)) {
      const name = nameOf(part);
      if (isCacheKind(name)) this.cache(part, false);
      else if (name === 'counters') this.counters(part, ['cache-container', 'counters']);
      else if (name === 'security') this.security(part);
      else this.ignore(['cache-container', name]);
    }
  }

  private cache(node: XmlNode, asTemplate: boolean): void {
    const name = nameOf(node);
    if (!isCacheKind(name)) throw new DeclarationError(`'${name}' is not a cache: expected local-cache, distributed-cache, replicated-cache, invalidation-cache or a *-configuration template`);
    const raw = within(`cache '${attributesOf(node).name ?? ''}'`, () => ({ root: toRawElement(node, this.locator) }));
    this.out.caches.push(toDeclaredCache(raw, this.source, asTemplate));
  }

  /** `<strong-counter name initial-value storage lower-bound upper-bound/>`; before 10.0 the bounds were child elements. */
  private counters(counters: XmlNode, path: string[]): void {
    for (const name of Object.keys(attributesOf(counters))) this.ignore([...path, name]);
    for (const node of elementsOf(counters)) {
      const kind = nameOf(node);
      if (!COUNTER_KINDS.has(kind)) throw new DeclarationError(`'${kind}' is not a counter: expected strong-counter or weak-counter`);
      const attributes: Record<string, unknown> = attributesOf(node);
      for (const bound of elementsOf(node)) attributes[nameOf(bound)] = attributesOf(bound).value;
      this.out.counters.push(toDeclaredCounter(attributes.name, kind, attributes, this.source));
    }
  }

  private security(security: XmlNode): void {
    for (const part of elementsOf(security)) {
      if (nameOf(part) !== 'authorization') {
        this.ignore(['cache-container', 'security', nameOf(part)]);
        continue;
      }
      for (const [name] of Object.entries(attributesOf(part))) this.ignore(['cache-container', 'security', 'authorization', name]);
      for (const child of elementsOf(part)) {
        if (nameOf(child) === 'role') this.role(child, 'authorization');
        else this.ignore(['cache-container', 'security', 'authorization', nameOf(child)]);
      }
    }
  }

  private role(node: XmlNode, parent: string): void {
    const { name, permissions } = attributesOf(node);
    if (nameOf(node) !== 'role' || !name) throw new DeclarationError(`${parent}: expected <role name="…" permissions="…"/>`);
    this.out.roles.push(toDeclaredRole(name, permissions, this.source));
  }

  /** `<schema name="person.proto">inline text</schema>` or `<schema name="…" file="PATH"/>`. */
  private schema(node: XmlNode): void {
    const { name, file } = attributesOf(node);
    if (nameOf(node) !== 'schema' || !name) throw new DeclarationError('schemas: expected <schema name="…" file="…"/> or <schema name="…">text</schema>');
    const text = textOf(node);
    if (file === undefined && text === '') throw new DeclarationError(`schema '${name}': give its text, or a file attribute`);
    const content = file === undefined ? text : within(`schema '${name}'`, () => this.files(file));
    this.out.schemas.push({ name, content, source: this.source });
  }

  private ignore(path: string[]): void {
    this.out.ignored.push(ignoredPart(this.source, path));
  }
}

/** What a parsed XML configuration file declares. */
export function readXmlDeclarations(root: XmlNode, locator: XmlLocator, source: string, files: FileReader): Declarations {
  const reader = new XmlReader(locator, source, files);
  reader.document(root);
  return reader.out;
}

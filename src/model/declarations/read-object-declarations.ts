// grid's own YAML/JSON file (`caches`, `templates`, `counters`, `roles`, `schemas` beside the server
// settings, or under `server`) and the original's `infinispan` document, read with the keys'
// places in the text so a cache's errors point where POST /caches would point.
import { DeclarationError } from '../../errors';
import { isCacheKind } from '../cache-config';
import { readElement, readNamed, type ReadContext } from '../cache-config/read-object-config';
import type { TextLocation } from '../cache-config/text-location';
import { type Declarations, emptyDeclarations, within } from './declarations';
import { COUNTER_KINDS, toDeclaredCache, toDeclaredCounter, toDeclaredRole } from './declared-values';
import { ignoredPart } from './ignored-parts';

type Mapping = Record<string, unknown>;

/** Reads a schema file named in the configuration. */
export type FileReader = (path: string) => string;

function isMapping(value: unknown): value is Mapping {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function mapping(value: unknown, what: string): Mapping {
  if (value === null || value === undefined) return {};
  if (!isMapping(value)) throw new DeclarationError(`${what} must be a mapping`);
  return value;
}

/** Container attributes grid takes as they are: its container is `default` and keeps statistics. */
const ACCEPTED = new Map<string, (value: unknown) => boolean>([
  ['name', (v) => v === 'default'],
  ['statistics', () => true],
]);

class ObjectReader {
  readonly out: Declarations = emptyDeclarations();

  constructor(private readonly ctx: ReadContext, private readonly source: string, private readonly files: FileReader) {}

  /** Visits the entries in document order, so each key's place is found after the previous one. */
  private entries(value: Mapping): Array<[string, string, unknown, TextLocation]> {
    return Object.entries(value).map(([key, v]) => {
      const location = this.ctx.locator.next(key);
      return [key, this.ctx.toName(key), v, location];
    });
  }

  document(doc: unknown): void {
    if (!isMapping(doc)) return;
    if ('infinispan' in doc) return this.infinispan(doc.infinispan);
    this.grid(isMapping(doc.server) ? doc.server : doc);
  }

  private grid(settings: Mapping): void {
    for (const [, name, value] of this.entries(settings)) {
      if (name === 'caches') this.caches(value, false);
      else if (name === 'templates') this.caches(value, true);
      else if (name === 'counters') this.counters(value, ['counters']);
      else if (name === 'roles') this.gridRoles(value);
      else if (name === 'schemas') this.schemas(value);
      // anything else is a server setting, read by src/config/server-config.ts
    }
  }

  private infinispan(body: unknown): void {
    for (const [, name, value] of this.entries(mapping(body, 'infinispan'))) {
      if (name === 'cache-container') this.container(value);
      else if (name === 'server' && isMapping(value)) this.ignoreServer(value);
      else this.ignore(['infinispan', name]);
    }
  }

  private container(body: unknown): void {
    for (const [, name, value, location] of this.entries(mapping(body, 'cache-container'))) {
      if (name === 'caches') this.caches(value, false);
      else if (name === 'counters') this.counters(value, ['cache-container', 'counters']);
      else if (name === 'security') this.security(value);
      else if (isCacheKind(name)) this.cacheElements(name, value, location);
      else if (!ACCEPTED.get(name)?.(value)) this.ignore(['cache-container', name]);
    }
  }

  /** A map of name → `{<kind>: {..}}`, as the original's `caches` and grid's `caches`/`templates`. */
  private caches(value: unknown, asTemplates: boolean): void {
    for (const [name, body] of Object.entries(mapping(value, asTemplates ? 'templates' : 'caches'))) {
      this.ctx.locator.next(name);
      const raw = within(`cache '${name}'`, () => readNamed(name, body, this.ctx));
      this.out.caches.push(toDeclaredCache(raw, this.source, asTemplates));
    }
  }

  /** `"distributed-cache": {"name": "c", ..}` (one, or a list) straight under the container. */
  private cacheElements(kind: string, value: unknown, location: TextLocation): void {
    const items = Array.isArray(value) ? value : [value];
    for (const item of items) {
      const raw = { root: readElement(kind, item, location, this.ctx, 1) };
      this.out.caches.push(toDeclaredCache(raw, this.source));
    }
  }

  /**
   * Counters as a map of name → `{strong-counter: {..}}` (grid's form), a list of
   * `{strong-counter: {name, ..}}`, or `strong-counter`/`weak-counter` keys holding one or a list.
   */
  private counters(value: unknown, path: string[]): void {
    const items: Array<[string, unknown]> = [];
    if (Array.isArray(value)) {
      for (const item of value) items.push(...Object.entries(mapping(item, 'a counter')));
    } else {
      for (const [key, name, body] of this.entries(mapping(value, 'counters'))) {
        if (COUNTER_KINDS.has(name)) items.push(...[body].flat().map((b): [string, unknown] => [key, b]));
        else if (name === 'num-owners' || name === 'reliability') this.ignore([...path, name]);
        else this.namedCounter(key, body);
      }
    }
    for (const [kind, body] of items) {
      const attributes = this.attributes(mapping(body, 'a counter'));
      this.out.counters.push(toDeclaredCounter(attributes.name, this.ctx.toName(kind), attributes, this.source));
    }
  }

  private namedCounter(name: string, body: unknown): void {
    const entries = Object.entries(mapping(body, `counter '${name}'`));
    const [kind, attributes] = entries[0] ?? [];
    if (entries.length !== 1 || !COUNTER_KINDS.has(this.ctx.toName(kind!))) {
      throw new DeclarationError(`counter '${name}': expected one strong-counter or weak-counter`);
    }
    this.out.counters.push(toDeclaredCounter(name, this.ctx.toName(kind!), this.attributes(mapping(attributes, `counter '${name}'`)), this.source));
  }

  private attributes(body: Mapping): Mapping {
    return Object.fromEntries(Object.entries(body).map(([k, v]) => [this.ctx.toName(k), v]));
  }

  private security(body: unknown): void {
    for (const [, name, value] of this.entries(mapping(body, 'security'))) {
      if (name !== 'authorization') {
        this.ignore(['cache-container', 'security', name]);
        continue;
      }
      for (const [, part, partValue] of this.entries(mapping(value, 'authorization'))) {
        if (part !== 'roles') {
          this.ignore(['cache-container', 'security', 'authorization', part]);
          continue;
        }
        for (const [role, roleBody] of Object.entries(mapping(partValue, 'roles'))) {
          // the original's JSON/YAML: `reader: {role: {permissions: "READ"}}`
          const inner = isMapping(roleBody) && isMapping(roleBody.role) ? roleBody.role : roleBody;
          this.out.roles.push(toDeclaredRole(role, mapping(inner, `role '${role}'`).permissions, this.source));
        }
      }
    }
  }

  /** `roles: {reader: [ALL_READ, MONITOR]}`, or the permissions as one string, or `{permissions: …}`. */
  private gridRoles(value: unknown): void {
    for (const [name, body] of Object.entries(mapping(value, 'roles'))) {
      this.out.roles.push(toDeclaredRole(name, isMapping(body) ? body.permissions : body, this.source));
    }
  }

  /** `schemas: {person.proto: "inline text"}` or `{person.proto: {file: path}}`. */
  private schemas(value: unknown): void {
    for (const [name, body] of Object.entries(mapping(value, 'schemas'))) {
      const file = isMapping(body) ? body.file : undefined;
      if (typeof body !== 'string' && typeof file !== 'string') {
        throw new DeclarationError(`schema '${name}': give its text, or {file: PATH}`);
      }
      const content = typeof body === 'string' ? body : within(`schema '${name}'`, () => this.files(file as string));
      this.out.schemas.push({ name, content, source: this.source });
    }
  }

  /** The original's `server`: each part named, and each part of its `security` (realms, credential stores). */
  private ignoreServer(server: Mapping): void {
    for (const [key, value] of Object.entries(server)) {
      const path = ['infinispan', 'server', this.ctx.toName(key)];
      const parts = path[2] === 'security' && isMapping(value) ? Object.keys(value) : [];
      if (parts.length === 0) this.ignore(path);
      for (const part of parts) this.ignore([...path, this.ctx.toName(part)]);
    }
  }

  private ignore(path: string[]): void {
    this.out.ignored.push(ignoredPart(this.source, path));
  }
}

/** What a parsed JSON or YAML configuration file declares. */
export function readObjectDeclarations(doc: unknown, ctx: ReadContext, source: string, files: FileReader): Declarations {
  const reader = new ObjectReader(ctx, source, files);
  reader.document(doc);
  return reader.out;
}

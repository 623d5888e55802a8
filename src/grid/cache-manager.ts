import { CacheExistsError, CacheNotFoundError, NameTooLongError, NoSuchTemplateError } from '../errors';
import {
  BUILTIN_TEMPLATES, type CacheDefinition, type CacheSettings, findIncompatibleChanges, formatCacheConfig, parseCacheConfig, toBaseKind,
  toCacheSettings,
} from '../model/cache-config';
import { IncompatibleConfigurationError, InvalidConfigurationError } from '../errors';
import type { Clock } from '../util/clock';
import { Listeners } from '../util/listeners';
import type { Logger } from '../util/logger';
import type { Store } from '../store/store';
import { Cache } from './cache';
import { CacheStats } from './cache-stats';

/** Internal caches the original lists and serves (behavior-notes §6.1). */
export const INTERNAL_CACHES = ['___protobuf_metadata', '___script_cache'] as const;

const MAX_NAME_BYTES = 255;

export interface CacheManagerDeps {
  store: Store;
  clock: Clock;
  log: Logger;
}

/** A cache as the container knows it: the running cache plus how it was defined. */
export interface CacheHandle {
  cache: Cache;
  definition: CacheDefinition;
  internal: boolean;
  /** Created with the VOLATILE flag: its definition is not persisted. */
  volatile: boolean;
  /** Partition availability, set by `?action=set-availability` (behavior-notes §6.8). */
  availability?: 'AVAILABLE' | 'DEGRADED_MODE';
}

export function checkName(name: string): void {
  if (Buffer.byteLength(name, 'utf8') > MAX_NAME_BYTES) throw new NameTooLongError(name);
}

function serialize(def: CacheDefinition): string {
  return formatCacheConfig(def, undefined, 'json', false);
}

/**
 * The container: caches and templates, their definitions and lifecycle. Definitions persist
 * through the store (unless VOLATILE); entries of persistent caches are never loaded at start.
 */
export type ContainerStatus = 'RUNNING' | 'STOPPING';

/** A change of the container's configuration (behavior-notes §9.5); removals carry no definition. */
export interface ConfigEvent {
  type: 'create-cache' | 'update-cache' | 'remove-cache' | 'create-template' | 'update-template' | 'remove-template';
  name: string;
  definition?: CacheDefinition;
}

export class CacheManager {
  readonly startedAt: number;
  /** Container-level statistics: every cache reports to them too (`/container/stats`). */
  readonly stats: CacheStats;
  status: ContainerStatus = 'RUNNING';
  /** Told of every committed create, update and removal of a cache or template. */
  readonly events = new Listeners<ConfigEvent>();
  rebalancingEnabled = true;
  private readonly caches = new Map<string, CacheHandle>();
  private readonly templates = new Map<string, CacheDefinition>();
  /** The server's ignore list: caches temporarily refused to clients (spec 2 "Server"). */
  private readonly ignored = new Set<string>();
  private nextId: number;

  constructor(private readonly deps: CacheManagerDeps) {
    this.startedAt = deps.clock.now();
    this.stats = new CacheStats(this.startedAt);
    this.nextId = deps.store.definitions.maxCacheId() + 1;
    for (const name of INTERNAL_CACHES) {
      const definition = parseCacheConfig('{"local-cache":{"encoding":{"media-type":"application/x-java-object"}}}', 'json');
      this.caches.set(name, this.handle(-this.caches.size - 1, name, definition, { internal: true, volatile: true }));
    }
    for (const r of deps.store.definitions.listTemplates()) this.templates.set(r.name, parseCacheConfig(r.config, 'json'));
    for (const r of deps.store.definitions.listCaches()) {
      this.caches.set(r.name, this.handle(r.id, r.name, parseCacheConfig(r.config, 'json'), { internal: false, volatile: false }));
    }
    deps.log.info({ caches: this.caches.size - INTERNAL_CACHES.length, templates: this.templates.size }, 'container started');
  }

  /** Names of running caches, internal ones included, in Java String order. */
  cacheNames(): string[] {
    return [...this.caches.keys()].sort();
  }

  handles(): CacheHandle[] {
    return this.cacheNames().map((n) => this.caches.get(n)!);
  }

  find(name: string): CacheHandle | undefined {
    return this.caches.get(name);
  }

  require(name: string): CacheHandle {
    const h = this.caches.get(name);
    if (!h) throw new CacheNotFoundError(name);
    return h;
  }

  templateNames(): string[] {
    return [...this.templates.keys()].sort();
  }

  findTemplate(name: string): CacheDefinition | undefined {
    return this.templates.get(name) ?? BUILTIN_TEMPLATES[name];
  }

  async create(name: string, definition: CacheDefinition, opts: { volatile: boolean }): Promise<CacheHandle> {
    checkName(name);
    if (this.caches.has(name)) throw new CacheExistsError(name);
    const settings = this.settingsOf(definition);
    const id = this.nextId++;
    const h = this.handle(id, name, definition, { internal: false, volatile: opts.volatile }, settings);
    this.caches.set(name, h);
    if (!opts.volatile) {
      await this.deps.store.write({ kind: 'cache.insert', record: { id, name, config: serialize(definition), createdAt: this.deps.clock.now() } }).promise
        .catch((err: unknown) => { this.caches.delete(name); throw err; });
    }
    this.deps.log.info({ cache: name, kind: settings.kind, persistent: settings.persistent, volatile: opts.volatile }, 'cache created');
    this.events.emit({ type: 'create-cache', name, definition });
    return h;
  }

  /** Defines (or replaces) a template; `-configuration` kinds posted to /caches land here. */
  async defineTemplate(name: string, definition: CacheDefinition): Promise<void> {
    checkName(name);
    if (this.caches.has(name)) throw new CacheExistsError(name);
    this.settingsOf(definition);
    await this.deps.store.write({ kind: 'template.upsert', record: { name, config: serialize(definition), createdAt: this.deps.clock.now() } }).promise;
    const existed = this.templates.has(name);
    this.templates.set(name, definition);
    this.deps.log.info({ template: name }, 'template defined');
    this.events.emit({ type: existed ? 'update-template' : 'create-template', name, definition });
  }

  async removeTemplate(name: string): Promise<boolean> {
    if (!this.templates.delete(name)) return false;
    await this.deps.store.write({ kind: 'template.delete', name }).promise;
    this.deps.log.info({ template: name }, 'template removed');
    this.events.emit({ type: 'remove-template', name });
    return true;
  }

  /** User-defined templates with their definitions, sorted by name. */
  templateDefinitions(): Array<[string, CacheDefinition]> {
    return [...this.templates.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }

  ignore(name: string): void {
    this.require(name);
    this.ignored.add(name);
  }

  unignore(name: string): void {
    this.require(name);
    this.ignored.delete(name);
  }

  isIgnored(name: string): boolean {
    return this.ignored.has(name);
  }

  ignoredNames(): string[] {
    return [...this.ignored].sort();
  }

  /** `POST /container?action=shutdown`: caches stop (passivating ones write to the store) and stay stopped. */
  shutdownContainer(): void {
    if (this.status === 'STOPPING') return;
    this.status = 'STOPPING';
    this.shutdown();
    this.deps.log.info('container shut down');
  }

  async createFromTemplate(name: string, template: string, opts: { volatile: boolean }): Promise<CacheHandle> {
    checkName(name);
    const definition = this.findTemplate(template);
    if (!definition) throw new NoSuchTemplateError(template, name);
    const root = { ...definition.root, name: toBaseKind(definition.root.name) ?? definition.root.name };
    return this.create(name, { root }, opts);
  }

  /** Replaces the definition of a cache with a compatible one (mutable attributes only). */
  async update(name: string, definition: CacheDefinition): Promise<void> {
    const h = this.require(name);
    if (h.internal) throw new InvalidConfigurationError(`Cache '${name}' is internal and cannot be updated`);
    const problems = findIncompatibleChanges(h.definition, definition);
    if (problems.length) throw new IncompatibleConfigurationError(h.definition.root.name, problems);
    const settings = this.settingsOf(definition);
    if (!h.volatile) await this.deps.store.write({ kind: 'cache.updateConfig', name, config: serialize(definition) }).promise;
    h.definition = definition;
    h.cache.reconfigure(settings);
    this.deps.log.info({ cache: name }, 'cache updated');
    this.events.emit({ type: 'update-cache', name, definition });
  }

  async remove(name: string): Promise<boolean> {
    const h = this.caches.get(name);
    if (!h || h.internal) return false;
    this.caches.delete(name);
    if (h.cache.id > 0) await this.deps.store.write({ kind: 'cache.delete', id: h.cache.id }).promise;
    this.deps.log.info({ cache: name }, 'cache removed');
    this.events.emit({ type: 'remove-cache', name });
    return true;
  }

  /** The periodic expiration reaper. */
  reapExpired(): void {
    for (const h of this.caches.values()) h.cache.reapExpired();
  }

  /** Clean shutdown: passivating caches write their memory to the store. */
  shutdown(): void {
    for (const h of this.caches.values()) h.cache.passivateAll();
  }

  private settingsOf(definition: CacheDefinition): CacheSettings {
    try {
      return toCacheSettings(definition);
    } catch (err) {
      if (err instanceof Error && !(err instanceof InvalidConfigurationError)) throw new InvalidConfigurationError(err.message);
      throw err;
    }
  }

  private handle(id: number, name: string, definition: CacheDefinition, flags: { internal: boolean; volatile: boolean },
    settings = this.settingsOf(definition)): CacheHandle {
    return { cache: new Cache(id, name, settings, { store: this.deps.store, clock: this.deps.clock, containerStats: this.stats }), definition, ...flags };
  }
}

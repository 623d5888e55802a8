import { type Availability, ClusterSwitches, cacheSettingNames } from './cluster-switches';
import { CacheExistsError, CacheNotFoundError, NoSuchTemplateError, ReservedCacheNameError } from '../errors';
import { checkResourceName } from '../model/resource-name';
import {
  BUILTIN_TEMPLATES, type CacheDefinition, type CacheSettings, checkStartable, findIncompatibleChanges, formatCacheConfig, parseCacheConfig, toBaseKind,
  toCacheSettings, toTemplateKind, withAliases,
} from '../model/cache-config';
import { IncompatibleConfigurationError, InvalidConfigurationError } from '../errors';
import { DEFAULT_LIMITS } from '../config/limits';
import type { Clock } from '../util/clock';
import { Listeners } from '../util/listeners';
import type { Logger } from '../util/logger';
import { RateLimitedLog } from '../util/rate-limited-log';
import type { CacheRecord, Store, TemplateRecord, WriteOp } from '../store/store';
import { Cache } from './cache';
import type { CacheData } from './cache-data';
import { LocalCacheData } from './local-cache-data';
import { CacheAliases } from './cache-aliases';
import { CacheStats } from './cache-stats';
import { ConfigEventLog } from './config-event-log';

/** Internal caches the original lists and serves (docs/reference/management-plane.md#cache-names). */
export const INTERNAL_CACHES = ['___protobuf_metadata', '___script_cache'] as const;

const DEFAULT_EXPIRATION_INTERVAL_MS = 60_000;
/** Node's timers take at most 2^31-1 ms (longer ones fire at once). */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface CacheManagerDeps {
  store: Store;
  clock: Clock;
  log: Logger;
  /** Names no cache or alias of this container may take: the tenants' names, in the default container (docs/configuration.md, Tenants). */
  reservedNames?: ReadonlySet<string>;
  /** The server's `expiration-interval` (ms): how often the reaper visits caches that set no `expiration.interval`. */
  expirationIntervalMs?: number;
  /** How many configuration events the container keeps for streams to resume from (the `config-event-log` limit). */
  configEventLog?: number;
  /**
   * The engine's entries of a user cache, when they are not the cache's own memory and store (the
   * redis engine: docs/scale-out.md); internal caches keep theirs.
   */
  dataOf?: (cache: Cache) => CacheData;
  /** Resolves once this node has applied every change the engine holds (another node's): absent where there are no other nodes. */
  catchUp?: () => Promise<void>;
  /**
   * The records are the cluster's (the redis engine): a VOLATILE cache's definition is written
   * too, so that every node serves it, and dropped when the cluster starts again (`dropVolatile`);
   * elsewhere it is not written at all.
   */
  sharedRecords?: boolean;
  /**
   * Refuses a definition the engine cannot serve, before anything is written (an
   * InvalidConfigurationError naming the engine); `current`: the settings it would replace (an update).
   */
  checkDefinition?: (settings: CacheSettings, current?: CacheSettings) => void;
  /** Attaches query indexes to indexed caches (src/grid/query/indexing.ts). */
  indexing?: {
    attach(cache: Cache, definition: CacheDefinition, data: CacheData): void;
    detach(cache: Cache): void;
  };
}

/** A cache as the container knows it: the running cache plus how it was defined. */
export interface CacheHandle {
  cache: Cache;
  definition: CacheDefinition;
  internal: boolean;
  /** Created with the VOLATILE flag: its definition is not persisted. */
  volatile: boolean;
  /** Partition availability, set by `?action=set-availability` (docs/reference/management-plane.md#availability) through `CacheManager.setAvailability`. */
  availability?: Availability;
  /** The cache's own rebalancing switch (`?action=enable|disable-rebalancing`), as this node last read it; the container's switch also applies. */
  rebalancing: boolean;
  /**
   * Its entries, where they live: the cache's own (memory and store) — or, for an internal cache
   * whose contents are kept elsewhere (`___protobuf_metadata`: the schema files), those.
   */
  data: CacheData;
}

/** A new definition, or how to derive it from the current one (read and replaced without a gap). */
export type DefinitionChange = CacheDefinition | ((current: CacheDefinition) => CacheDefinition);

/** Cache and template names follow the one naming rule of the server. */
export function checkName(name: string, kind = 'cache'): void {
  checkResourceName(kind, name);
}

function serialize(def: CacheDefinition): string {
  return formatCacheConfig(def, undefined, 'json', false);
}

export type ContainerStatus = 'RUNNING' | 'STOPPING';

export type { Availability } from './cluster-switches';

/**
 * The container: caches and templates, their definitions and lifecycle. Definitions persist
 * through the store (unless VOLATILE); entries of persistent caches are never loaded at start.
 */
export class CacheManager {
  readonly startedAt: number;
  /** Container-level statistics: every cache reports to them too (`/container/stats`). */
  readonly stats: CacheStats;
  status: ContainerStatus = 'RUNNING';
  /** Every committed create, update and removal of a cache or template: told to listeners, and kept. */
  readonly events: ConfigEventLog;
  /** Told once, when `?action=shutdown` stops the container: its event streams end then. */
  readonly stopping = new Listeners<void>();
  /** The rebalancing switches and the ignore list, shared by the nodes of a cluster. */
  private readonly switches: ClusterSwitches;
  private readonly caches = new Map<string, CacheHandle>();
  private readonly aliases = new CacheAliases();
  private readonly templates = new Map<string, CacheDefinition>();
  /** Definition changes run one after another, so each sees the state the previous one left. */
  private changes: Promise<unknown> = Promise.resolve();
  private nextId: number;
  /** Each cache's reaper timer, following its own `expiration.interval` (`scheduleReaper`). */
  private readonly reapers = new Map<CacheHandle, NodeJS.Timeout>();
  /** A reaper's run that failed (the engine unreachable): one line per interval however many caches and runs fail. */
  private readonly reapFailures: RateLimitedLog;

  constructor(private readonly deps: CacheManagerDeps) {
    this.startedAt = deps.clock.now();
    this.switches = new ClusterSwitches(deps.store, deps.clock);
    this.stats = new CacheStats(this.startedAt);
    this.reapFailures = new RateLimitedLog(deps.log, 'expired entries could not be reaped; the next run tries again');
    this.nextId = deps.store.definitions.maxCacheId() + 1;
    this.events = new ConfigEventLog(deps.store, deps.clock, deps.configEventLog ?? DEFAULT_LIMITS.configEventLog);
    for (const name of INTERNAL_CACHES) {
      const definition = parseCacheConfig('{"local-cache":{"encoding":{"media-type":"application/x-java-object"}}}', 'json');
      const h = this.handle(-this.caches.size - 1, name, definition, { internal: true, volatile: true });
      this.caches.set(name, h);
      this.scheduleReaper(h);
    }
    for (const r of deps.store.definitions.listTemplates()) this.templates.set(r.name, parseCacheConfig(r.config, 'json'));
    for (const r of deps.store.definitions.listCaches()) {
      const h = this.handle(r.id, r.name, parseCacheConfig(r.config, 'json'), { internal: false, volatile: r.volatile === true });
      this.caches.set(r.name, h);
      this.aliases.set(r.name, h.cache.settings.aliases);
      this.scheduleReaper(h);
    }
    // a resumed event stream hears that the previous run's volatile caches are gone
    for (const change of this.events.vanishedVolatileCaches()) {
      this.events.record([], change).then((e) => this.events.tell(e),
        (err: unknown) => deps.log.warn({ err, cache: change.name }, 'the end of a volatile cache of the previous run could not be logged'));
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

  /** The cache with this name, or else the cache this alias names: every client-facing lookup goes through here. */
  find(nameOrAlias: string): CacheHandle | undefined {
    const h = this.caches.get(nameOrAlias);
    if (h) return h;
    const owner = this.aliases.ownerOf(nameOrAlias);
    return owner === undefined ? undefined : this.caches.get(owner);
  }

  /** Once this node has every change other nodes made before now; undefined when there are none to wait for (one node). */
  catchUp(): Promise<void> | undefined {
    return this.deps.catchUp?.();
  }

  /** The cache with exactly this name (aliases not followed). */
  named(name: string): CacheHandle | undefined {
    return this.caches.get(name);
  }

  require(nameOrAlias: string): CacheHandle {
    const h = this.find(nameOrAlias);
    if (!h) throw new CacheNotFoundError(nameOrAlias);
    return h;
  }

  templateNames(): string[] {
    return [...this.templates.keys()].sort();
  }

  findTemplate(name: string): CacheDefinition | undefined {
    return this.templates.get(name) ?? BUILTIN_TEMPLATES[name];
  }

  /** A new cache; its name is checked here, the one place every way of creating a cache goes through. */
  async create(name: string, definition: CacheDefinition, opts: { volatile: boolean }): Promise<CacheHandle> {
    checkName(name);
    return this.createNamed(name, definition, opts);
  }

  private createNamed(name: string, definition: CacheDefinition, opts: { volatile: boolean }): Promise<CacheHandle> {
    return this.serially(async () => {
      if (this.caches.has(name)) throw new CacheExistsError(name);
      this.aliases.refuseAliased(name);
      const settings = this.settingsOf(definition);
      checkStartable(definition);
      this.deps.checkDefinition?.(settings);
      this.checkNotReserved([name, ...settings.aliases]);
      this.aliases.check(name, settings.aliases, (n) => n === name || this.caches.has(n));
      const id = this.nextId++;
      const h = this.handle(id, name, definition, { internal: false, volatile: opts.volatile }, settings);
      this.caches.set(name, h);
      this.aliases.set(name, settings.aliases);
      const record: CacheRecord = { id, name, config: serialize(definition), createdAt: this.deps.clock.now(), ...(opts.volatile && { volatile: true }) };
      const ops: WriteOp[] = this.written(opts.volatile) ? [{ kind: 'cache.insert', record }] : [];
      const event = await this.events.record(ops, { type: 'create-cache', name, definition, settings, volatile: opts.volatile })
        .catch((err: unknown) => {
          // another node may have created it meanwhile, and this node adopted that one in its place
          if (this.caches.get(name) === h) {
            this.caches.delete(name);
            this.aliases.drop(name);
          }
          throw err;
        });
      this.scheduleReaper(h);
      this.deps.log.info({ cache: name, kind: settings.kind, persistent: settings.persistent, volatile: opts.volatile }, 'cache created');
      this.events.tell(event);
      return h;
    });
  }

  /**
   * Defines (or replaces) a template; `-configuration` kinds posted to /caches land here. A template
   * always carries the template kind, as the original writes a template (`@@template@create` may
   * give a `local-cache`).
   */
  async defineTemplate(name: string, given: CacheDefinition): Promise<void> {
    checkName(name, 'template');
    if (this.caches.has(name)) throw new CacheExistsError(name);
    const definition = { ...given, root: { ...given.root, name: toTemplateKind(given.root.name) } };
    this.settingsOf(definition);
    return this.serially(async () => {
      if (this.caches.has(name)) throw new CacheExistsError(name); // created meanwhile
      const type = this.templates.has(name) ? 'update-template' : 'create-template';
      const event = await this.events.record([{ kind: 'template.upsert', record: { name, config: serialize(definition), createdAt: this.deps.clock.now() } }],
        { type, name, definition });
      this.templates.set(name, definition);
      this.deps.log.info({ template: name }, 'template defined');
      this.events.tell(event);
    });
  }

  removeTemplate(name: string): Promise<boolean> {
    return this.serially(async () => {
      if (!this.templates.has(name)) return false;
      const event = await this.events.record([{ kind: 'template.delete', name }], { type: 'remove-template', name });
      this.templates.delete(name);
      this.deps.log.info({ template: name }, 'template removed');
      this.events.tell(event);
      return true;
    });
  }

  /** User-defined templates with their definitions, sorted by name. */
  templateDefinitions(): Array<[string, CacheDefinition]> {
    return [...this.templates.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }

  /** The server's ignore list: caches temporarily refused to clients (docs/reference/management-plane.md#ignore-list). */
  setIgnored(nameOrAlias: string, ignored: boolean): Promise<void> {
    return this.switches.setIgnored(this.require(nameOrAlias).cache.name, ignored);
  }

  isIgnored(name: string): boolean {
    return this.switches.isIgnored(name);
  }

  ignoredNames(): string[] {
    return this.switches.ignoredNames();
  }

  /** The container's rebalancing switch (docs/reference/management-plane.md#cache-rebalancing). */
  get rebalancingEnabled(): boolean {
    return this.switches.rebalancing;
  }

  setRebalancing(enabled: boolean): Promise<void> {
    return this.switches.setRebalancing(enabled);
  }

  /** A cache's own rebalancing switch; the container's applies on top. */
  async setCacheRebalancing(h: CacheHandle, enabled: boolean): Promise<void> {
    await this.switches.setCacheRebalancing(h.cache.id, enabled);
    this.switchesChanged();
  }

  /** The switches changed (through this node or another): read again, and each cache's own follows. */
  switchesChanged(): void {
    this.switches.reload();
    for (const h of this.caches.values()) {
      h.rebalancing = this.switches.cacheRebalancing(h.cache.id);
      h.availability = this.switches.availability(h.cache.id);
    }
  }

  /** `POST /container?action=shutdown`: caches stop (passivating ones write to the store) and stay stopped. */
  shutdownContainer(): void {
    if (this.status === 'STOPPING') return;
    this.status = 'STOPPING';
    this.shutdown();
    this.stopping.emit();
    this.deps.log.info('container shut down');
  }

  /** A cache's partition availability, the cluster's (ClusterSwitches): a restart of the whole cluster makes it AVAILABLE, as the original's. */
  async setAvailability(h: CacheHandle, mode: Availability): Promise<void> {
    if ((h.availability ?? 'AVAILABLE') === mode) return;
    await this.switches.setAvailability(h.cache.id, mode);
    this.switchesChanged();
    this.deps.log.info({ cache: h.cache.name, availability: mode }, 'cache availability changed');
  }

  /** Whether a definition change of a cache (VOLATILE or not) is written to the store. */
  private written(volatile: boolean): boolean {
    return !volatile || this.deps.sharedRecords === true;
  }

  /** The cluster starts again (its first node): the VOLATILE caches of its last run go, as the original's go with a restart. */
  async dropVolatile(): Promise<void> {
    for (const h of [...this.caches.values()]) {
      if (h.volatile && !h.internal) await this.remove(h.cache.name);
    }
  }

  /** The cluster starts (its first node, or the only one): every cache AVAILABLE. */
  async resetAvailability(): Promise<void> {
    await this.switches.resetAvailability();
    this.switchesChanged();
  }

  async createFromTemplate(name: string, template: string, opts: { volatile: boolean }): Promise<CacheHandle> {
    checkName(name);
    const definition = this.findTemplate(template);
    if (!definition) throw new NoSuchTemplateError(template, name);
    const root = { ...definition.root, name: toBaseKind(definition.root.name) ?? definition.root.name };
    return this.createNamed(name, { root }, opts);
  }

  /**
   * Replaces the definition of a cache (named or aliased) with a compatible one (mutable attributes
   * only), persisted unless the cache is VOLATILE; listeners hear `update-cache`.
   */
  update(nameOrAlias: string, change: DefinitionChange): Promise<void> {
    return this.serially(async () => {
      const h = this.require(nameOrAlias);
      const definition = typeof change === 'function' ? change(h.definition) : change;
      checkStartable(definition);
      await this.commitDefinitions([[h, definition]]);
    });
  }

  /**
   * `POST ?action=assign-alias` (docs/reference/management-plane.md#aliases): the alias moves to this cache, leaving the
   * cache that had it; both definitions are written in one transaction.
   */
  assignAlias(alias: string, nameOrAlias: string): Promise<void> {
    return this.serially(async () => {
      const h = this.require(nameOrAlias);
      const name = h.cache.name;
      this.aliases.checkAlias(alias, (n) => this.caches.has(n));
      this.checkNotReserved([alias]);
      const owner = this.aliases.ownerOf(alias);
      if (owner === name) return;
      const changes: Array<[CacheHandle, CacheDefinition]> = [];
      const from = owner === undefined ? undefined : this.caches.get(owner);
      if (from) changes.push([from, withAliases(from.definition, from.cache.settings.aliases.filter((a) => a !== alias))]);
      changes.push([h, withAliases(h.definition, [...h.cache.settings.aliases, alias])]);
      await this.commitDefinitions(changes, alias);
    });
  }

  remove(name: string): Promise<boolean> {
    return this.serially(async () => {
      const h = this.caches.get(name);
      if (!h || h.internal) return false;
      this.caches.delete(name);
      this.aliases.drop(name);
      this.stopReaper(h);
      this.deps.indexing?.detach(h.cache);
      // the event keeps the definition: who may hear of the removal depends on it
      const event = await this.events.record(h.cache.id > 0 ? [{ kind: 'cache.delete', id: h.cache.id }, ...cacheSettingNames(h.cache.id).map((name) => ({ kind: 'setting.delete' as const, name }))] : [],
        { type: 'remove-cache', name, definition: h.definition, settings: h.cache.settings, volatile: h.volatile });
      this.deps.log.info({ cache: name }, 'cache removed');
      this.events.tell(event);
      h.data.discard?.().catch((err: unknown) => this.deps.log.warn({ err, cache: name }, 'the entries of a removed cache could not all be removed'));
      return true;
    });
  }

  /**
   * Another node created, changed (`record`) or removed (undefined) the cache `name`: this node's
   * handle follows at once, outside the queue of its own changes, so that they apply in the order
   * the engine gave them.
   */
  adoptCache(name: string, record: CacheRecord | undefined): void {
    const h = this.caches.get(name);
    if (h?.internal) return;
    if (!record) {
      if (!h) return;
      this.caches.delete(name);
      this.aliases.drop(name);
      this.stopReaper(h);
      this.deps.indexing?.detach(h.cache);
      this.deps.log.info({ cache: name }, 'cache removed by another node');
      return;
    }
    const definition = parseCacheConfig(record.config, 'json');
    const settings = this.settingsOf(definition);
    if (!h || h.cache.id !== record.id) {
      if (h) {
        this.stopReaper(h);
        this.deps.indexing?.detach(h.cache);
      }
      const adopted = this.handle(record.id, name, definition, { internal: false, volatile: record.volatile === true }, settings);
      this.caches.set(name, adopted);
      this.aliases.set(name, settings.aliases);
      this.scheduleReaper(adopted);
      this.deps.log.info({ cache: name }, 'cache created by another node');
      return;
    }
    if (serialize(h.definition) === record.config) return;
    this.apply(h, definition, settings);
    this.deps.log.info({ cache: name }, 'cache updated by another node');
  }

  /** A running cache takes a new (compatible) definition: settings, reaper, index, aliases. */
  private apply(h: CacheHandle, definition: CacheDefinition, settings: CacheSettings): void {
    h.definition = definition;
    h.cache.reconfigure(settings);
    this.scheduleReaper(h);
    this.deps.indexing?.attach(h.cache, definition, h.data);
    this.aliases.set(h.cache.name, settings.aliases);
  }

  /** Another node defined or changed (`record`) or removed (undefined) the template `name`. */
  adoptTemplate(name: string, record: TemplateRecord | undefined): void {
    if (record) this.templates.set(name, parseCacheConfig(record.config, 'json'));
    else this.templates.delete(name);
  }

  /** Runs the expiration reaper of every cache now, whatever their intervals. */
  reapExpired(): void {
    for (const h of this.caches.values()) this.reap(h);
  }

  /** Clean shutdown: reapers stop, passivating caches write their memory to the store. */
  shutdown(): void {
    for (const h of [...this.reapers.keys()]) this.stopReaper(h);
    for (const h of this.caches.values()) h.cache.passivateAll();
  }

  /**
   * (Re)starts the cache's reaper at its `expiration.interval`, or the server's `expiration-interval`
   * when it sets none; an interval of 0 or less (`-1`) stops it: entries then expire on access only.
   * Called at creation and after every definition change (the attribute is mutable).
   */
  private scheduleReaper(h: CacheHandle): void {
    this.stopReaper(h);
    if (this.status === 'STOPPING') return;
    const interval = h.cache.settings.expirationIntervalMs ?? this.deps.expirationIntervalMs ?? DEFAULT_EXPIRATION_INTERVAL_MS;
    if (interval <= 0) return;
    const timer = setInterval(() => this.reap(h), Math.min(interval, MAX_TIMER_MS));
    timer.unref();
    this.reapers.set(h, timer);
  }

  /** One run of the cache's reaper: its engine's (the redis engine's, whose failures are logged at most once per 10 s), or the cache's own. */
  private reap(h: CacheHandle): void {
    if (!h.data.reapExpired) {
      h.cache.reapExpired();
      return;
    }
    h.data.reapExpired().catch((err: unknown) => this.reapFailures.warn({ err, cache: h.cache.name }));
  }

  private stopReaper(h: CacheHandle): void {
    clearInterval(this.reapers.get(h));
    this.reapers.delete(h);
  }

  /**
   * Checks every new definition (compatible, valid, aliases free), writes them in one transaction,
   * then applies them. `moving` is an alias leaving one of these caches for another.
   */
  private async commitDefinitions(changes: Array<[CacheHandle, CacheDefinition]>, moving?: string): Promise<void> {
    const planned = changes.map(([h, definition]) => {
      const name = h.cache.name;
      if (h.internal) throw new InvalidConfigurationError(`Cache '${name}' is internal and cannot be updated`);
      const problems = findIncompatibleChanges(h.definition, definition);
      if (problems.length) throw new IncompatibleConfigurationError(h.definition.root.name, problems);
      const settings = this.settingsOf(definition);
      this.deps.checkDefinition?.(settings, h.cache.settings);
      this.aliases.check(name, settings.aliases.filter((a) => a !== moving), (n) => this.caches.has(n));
      this.checkNotReserved(settings.aliases);
      return { h, name, definition, settings };
    });
    // one turn, one transaction: every definition and its event
    const events = await Promise.all(planned.map(({ h, name, definition, settings }) => this.events.record(
      this.written(h.volatile) ? [{ kind: 'cache.updateConfig', name, config: serialize(definition) }] : [],
      { type: 'update-cache', name, definition, settings, volatile: h.volatile })));
    planned.forEach(({ h, name, definition, settings }, i) => {
      this.apply(h, definition, settings);
      this.deps.log.info({ cache: name }, 'cache updated');
      this.events.tell(events[i]);
    });
  }

  /** Runs definition changes one at a time, in call order; a failure does not stop the next. */
  private serially<T>(work: () => Promise<T>): Promise<T> {
    const run = this.changes.then(work, work);
    this.changes = run.catch(() => undefined);
    return run;
  }

  private checkNotReserved(names: readonly string[]): void {
    const taken = names.find((n) => this.deps.reservedNames?.has(n));
    if (taken !== undefined) throw new ReservedCacheNameError(taken);
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
    const cache = new Cache(id, name, settings, { store: this.deps.store, clock: this.deps.clock, containerStats: this.stats });
    const data = !flags.internal && this.deps.dataOf ? this.deps.dataOf(cache) : new LocalCacheData(cache);
    if (!flags.internal) this.deps.indexing?.attach(cache, definition, data);
    return { cache, data, definition, ...flags, rebalancing: this.switches.cacheRebalancing(id), availability: this.switches.availability(id) };
  }
}

import type { EngineNode } from '../grid/cache-data';
import {
  AliasInUseError, CacheAbsentError, ConfigurationsDifferError, ImmutableAttributeError, incompatibilityReport, InvalidConfigurationError,
  isGridError, PermissionDeniedError, UnreadableConfigurationTypeError, UnsupportedMediaTypeError, WrongCompareContentError,
} from '../errors';
import type { EntryEvent } from '../grid/entry-events';
import type { Availability, CacheHandle, CacheManager } from '../grid/cache-manager';
import type { StatsSnapshot } from '../grid/cache-stats';
import {
  type CacheDefinition, type ConfigFormat, configFormatOf, type ConfigLimits, type ConfigType, findDifferences, findIncompatibleChanges, findMutableAttribute,
  formatCacheConfig, formatCacheDocument, isTemplateKind, javaMediaTypeText, type MutableAttribute, type MutableValue, MutableValueError, mutableAttributesOf,
  mutableValueOf, mutableValueText, parseCacheConfig, sniffConfigFormat, withMutableAttribute,
} from '../model/cache-config';
import { type AdminFlag, NO_FLAGS, type OpFlags, SKIP_CACHE_LOAD } from '../model/flags';
import type { Clock } from '../util/clock';
import type { OffLoop } from './off-loop/off-loop';
import type { Subject } from './auth/auth.service';
import { canAccess, canAdminister } from './auth/authorization';
import { type CacheView, handleOf, viewOf } from './cache-view';

export interface ConfigBody {
  text: string;
  /** Its Content-Type; undefined when none was sent (the format is recognised from the text). */
  contentType: ConfigType | undefined;
}

const DEFAULT_DEFINITION = '{"local-cache":{}}';

/** One mutable attribute with its current value (`get-mutable-attributes&full=true`). */
export interface MutableAttributeView {
  name: string;
  type: MutableAttribute['type'];
  value: MutableValue;
}

/**
 * What one node holds of a cache (`?action=distribution`, docs/reference/management-plane.md#cache-distribution):
 * this grid node (`node` absent), or a node of the engine that holds the entries (docs/scale-out.md, "Owners and health").
 */
export interface CacheDistribution {
  node?: EngineNode;
  memoryEntries: number;
  totalEntries: number;
  memoryUsed: number;
}

/** A cache's counters and the memory its entries take, read at one moment (docs/reference/management-plane.md#cache-stats). */
export interface CacheStatistics extends StatsSnapshot {
  /** Bytes held in memory: counted for a bounded cache only, 0 otherwise (as the original). */
  readonly dataMemoryUsed: number;
}

/** `GET /caches?action=role-accessible` (docs/reference/management-plane.md#role-accessible). */
export interface RoleAccessibleCaches {
  secured: string[];
  'non-secured': string[];
}

/**
 * Cache lifecycle and configuration (docs/reference/management-plane.md#caches).
 * Documents from clients are parsed on the worker thread, held to the `config-*` limits.
 */
export class CacheService {
  constructor(
    private readonly manager: CacheManager,
    private readonly clock: Clock,
    private readonly offLoop: OffLoop,
    private readonly limits: ConfigLimits,
  ) {}

  /** A cache by name or alias; undefined when there is none. */
  find(nameOrAlias: string): CacheView | undefined {
    const h = this.manager.find(nameOrAlias);
    return h && viewOf(h);
  }

  /** A cache by name or alias; ISPN012010 (404) when there is none. */
  require(nameOrAlias: string): CacheView {
    return viewOf(this.manager.require(nameOrAlias));
  }

  /**
   * `require`, but a name this node does not know is first asked of the engine: on the redis engine
   * a cache another node has just created is then found (docs/scale-out.md, "Records"). At once
   * when the name is known.
   */
  resolve(nameOrAlias: string): CacheView | Promise<CacheView> {
    const h = this.manager.find(nameOrAlias);
    if (h) return viewOf(h);
    const caughtUp = this.manager.catchUp();
    return caughtUp ? caughtUp.then(() => this.require(nameOrAlias)) : this.require(nameOrAlias);
  }

  /** The caches the subject may see (internal ones too when asked), in the container's order. */
  visibleTo(subject: Subject, opts: { internal: boolean }): CacheView[] {
    return this.manager.handles().map(viewOf).filter((v) => (opts.internal || !v.internal) && canAccess(subject, v));
  }

  /** The names of the caches users made (no internal cache). */
  userCacheNames(): string[] {
    return this.manager.handles().filter((h) => !h.internal).map((h) => h.cache.name);
  }

  /** POST ?action=clear: answered once the removal is durable. */
  clear(cache: CacheView): Promise<void> {
    return handleOf(cache).data.clear();
  }

  /** `?action=size`; with SKIP_CACHE_LOAD the store is not counted, only what memory holds (as the original). */
  size(cache: CacheView, flags: OpFlags = NO_FLAGS): Promise<number> {
    return handleOf(cache).data.size(flags);
  }

  /** Calls `fn` with each entry event of the cache until the returned function is called. */
  onEntryEvent(cache: CacheView, fn: (e: EntryEvent) => void): () => void {
    return handleOf(cache).data.listeners.add(fn);
  }

  /** `?action=stats`, and this node's part of the details' `stats`. */
  statistics(cache: CacheView): CacheStatistics {
    const h = handleOf(cache);
    return { ...h.cache.stats.snapshot(), dataMemoryUsed: dataMemoryUsed(h) };
  }

  /** The statistics of the cache named `name` on this node, for another node's question (docs/scale-out.md, "Cluster-wide statistics"); undefined when there is none. */
  statisticsByName(name: string): CacheStatistics | undefined {
    const h = this.manager.find(name);
    return h && { ...h.cache.stats.snapshot(), dataMemoryUsed: dataMemoryUsed(h) };
  }

  resetStats(cache: CacheView): void {
    handleOf(cache).cache.stats.reset(this.clock.now());
  }

  /** `?action=set-availability` (docs/reference/management-plane.md#availability): the cluster's, kept while the cluster runs, as the original's partition state. */
  setAvailability(cache: CacheView, mode: Availability): Promise<void> {
    return this.manager.setAvailability(handleOf(cache), mode);
  }

  /** POST /caches/{name}: from a body, a template, or the default local cache. */
  async create(name: string, body: ConfigBody, template: string | undefined, flags: ReadonlySet<AdminFlag>, subject: Subject): Promise<void> {
    return this.seenBy(subject, () => this.createAs(name, body, template, flags.has('VOLATILE')));
  }

  private async createAs(name: string, body: ConfigBody, template: string | undefined, volatile: boolean): Promise<void> {
    // the name is checked once, by the engine, after the body is read (as the original: a bad body is named first)
    if (body.text.trim() === '' && template !== undefined) {
      await this.manager.createFromTemplate(name, template, { volatile });
      return;
    }
    const definition = body.text.trim() === '' ? parseCacheConfig(DEFAULT_DEFINITION, 'json') : await this.parseBody(body);
    if (isTemplateKind(definition.root.name)) await this.manager.defineTemplate(name, definition);
    else await this.manager.create(name, definition, { volatile });
  }

  /** PUT /caches/{name} with a body (and no template): create, or update with compatible changes only. */
  async createOrUpdate(name: string, body: ConfigBody, flags: ReadonlySet<AdminFlag>, subject: Subject): Promise<void> {
    return this.seenBy(subject, () => this.createOrUpdateAs(name, body, flags.has('VOLATILE')));
  }

  private async createOrUpdateAs(name: string, body: ConfigBody, volatile: boolean): Promise<void> {
    const definition = await this.parseBody(body);
    if (isTemplateKind(definition.root.name)) await this.manager.defineTemplate(name, definition);
    else if (this.manager.find(name)) await this.manager.update(name, definition);
    else await this.manager.create(name, definition, { volatile });
  }

  /** DELETE /caches/{name}: a cache, or else a template of that name. */
  async remove(name: string): Promise<void> {
    if (!(await this.manager.remove(name)) && !(await this.manager.removeTemplate(name))) throw new CacheAbsentError();
  }

  /** HEAD /caches/{name}: names and aliases alike. */
  exists(nameOrAlias: string): boolean {
    return this.manager.find(nameOrAlias) !== undefined;
  }

  /** `?action=get-mutable-attributes`: the mutable attributes of the cache's kind, with their values. */
  mutableAttributes(cache: CacheView): MutableAttributeView[] {
    const { definition } = handleOf(cache);
    return mutableAttributesOf(definition).map((a) => ({ name: a.name, type: a.type, value: mutableValueOf(definition, a) }));
  }

  /** `?action=get-mutable-attribute`: the value as text; 400 ISPN012035 for anything not mutable. */
  mutableAttribute(cache: CacheView, name: string): string {
    const { definition } = handleOf(cache);
    return mutableValueText(mutableValueOf(definition, this.requireMutable(definition, name)));
  }

  /**
   * `?action=set-mutable-attribute`: applied at once, persisted and announced like a compatible
   * update; several values are joined by a space (a set of indexed entities, roles or aliases).
   */
  async setMutableAttribute(cache: CacheView, name: string, values: string[], subject: Subject): Promise<void> {
    this.requireMutable(handleOf(cache).definition, name);
    await this.seenBy(subject, () => this.manager.update(cache.name, (current) => {
      try {
        return withMutableAttribute(current, this.requireMutable(current, name), values.join(' '));
      } catch (err) {
        if (err instanceof MutableValueError) throw new InvalidConfigurationError(err.message);
        throw err;
      }
    }));
  }

  /**
   * `?action=assign-alias`: the alias now names this cache, whichever cache had it before — if the
   * caller may administer that cache too. Per-cache authorization covers every change to a secured
   * cache (docs/security.md), and taking its alias would send its users' requests elsewhere.
   */
  assignAlias(cache: CacheView, alias: string, subject: Subject): Promise<void> {
    const holder = this.find(alias);
    if (holder && holder !== cache && holder.name !== alias && !canAdminister(subject, holder)) {
      if (!canAccess(subject, holder)) throw new AliasInUseError(alias, undefined);
      throw new PermissionDeniedError(subject.name, 'ADMIN');
    }
    return this.seenBy(subject, () => this.manager.assignAlias(alias, cache.name));
  }

  /** Runs a definition change; an alias refusal names the other cache only to a caller who may see it. */
  private async seenBy<T>(subject: Subject, change: () => Promise<T>): Promise<T> {
    try {
      return await change();
    } catch (err) {
      if (!(err instanceof AliasInUseError) || err.cache === undefined) throw err;
      const holder = this.find(err.cache);
      if (holder && !canAccess(subject, holder)) throw new AliasInUseError(err.alias, undefined);
      throw err;
    }
  }

  /** `?action=enable|disable-rebalancing` on one cache; the container switch still applies on top. */
  setRebalancing(cache: CacheView, enabled: boolean): Promise<void> {
    return this.manager.setCacheRebalancing(handleOf(cache), enabled);
  }

  /**
   * Live entries held in memory (expired ones not counted, as the original's stats): the size the
   * engine gives without loading (on the redis engine every entry, Redis keeping all in memory).
   */
  memoryEntries(cache: CacheView): Promise<number> {
    return handleOf(cache).data.size(SKIP_CACHE_LOAD);
  }

  /**
   * Each node's share of the cache: this node's, all of it, where the process holds the entries;
   * each engine node's where the engine's nodes hold them (every entry in memory there; no
   * per-cache memory figure: 0, as for an unbounded cache here).
   */
  async distribution(cache: CacheView): Promise<CacheDistribution[]> {
    const h = handleOf(cache);
    if (h.data.placement) return (await h.data.placement.shares()).map(({ node, entries }) => ({ node, memoryEntries: entries, totalEntries: entries, memoryUsed: 0 }));
    const totalEntries = await h.data.size(NO_FLAGS);
    return [{ memoryEntries: await h.data.size(SKIP_CACHE_LOAD), totalEntries, memoryUsed: dataMemoryUsed(h) }];
  }

  /**
   * The caches a role reaches: secured caches that list it (or list no role, which grants every
   * role) and every cache without authorization; internal caches and caches the caller cannot
   * see are left out.
   */
  cachesForRole(subject: Subject, role: string): RoleAccessibleCaches {
    const result: RoleAccessibleCaches = { secured: [], 'non-secured': [] };
    for (const cache of this.visibleTo(subject, { internal: false })) {
      const s = cache.settings;
      if (!s.secured) result['non-secured'].push(cache.name);
      else if (s.roles.length === 0 || s.roles.includes(role)) result.secured.push(cache.name);
    }
    return result;
  }

  private requireMutable(def: CacheDefinition, name: string): MutableAttribute {
    const attribute = findMutableAttribute(def, name);
    if (!attribute) throw new ImmutableAttributeError(name);
    return attribute;
  }

  /** The configuration in a declarative format, named after the cache. */
  configOf(cache: CacheView, format: ConfigFormat, pretty: boolean): string {
    return formatCacheConfig(handleOf(cache).definition, cache.name, format, pretty);
  }

  /** The configuration as a whole declarative document holding the cache (the config event stream's form). */
  documentOf(cache: CacheView, format: ConfigFormat, pretty: boolean): string {
    return formatCacheDocument(handleOf(cache).definition, cache.name, format, pretty);
  }

  /**
   * POST /caches?action=compare (docs/reference/management-plane.md#config-compare): two documents, each in any format and each
   * holding exactly one cache (else ISPN012033), describe the same configuration — names aside.
   * With `ignoreMutable`, differences in mutable attributes are allowed and a refusal says why.
   * Answers by returning when equal, with ConfigurationsDifferError (409) otherwise.
   */
  async compare(first: ConfigBody, second: ConfigBody, ignoreMutable: boolean): Promise<void> {
    const [a, b] = await Promise.all([this.parseComparand(first), this.parseComparand(second)]);
    if (!ignoreMutable) {
      if (findDifferences(a, b).length > 0) throw new ConfigurationsDifferError('');
      return;
    }
    const problems = findIncompatibleChanges(a, b);
    if (problems.length > 0) throw new ConfigurationsDifferError(incompatibilityReport(a.root.name, problems));
  }

  /**
   * POST /caches?action=convert: one declarative format to another, names kept as given. A type the
   * reader cannot take (`text/plain` with parameters, or one that is no configuration format) is
   * its IllegalArgumentException, unwrapped: 400 with the media type.
   */
  convert(body: ConfigBody, to: ConfigFormat, pretty: boolean): Promise<string> {
    const type = body.contentType;
    const format = type === undefined ? sniffConfigFormat(body.text) : configFormatOf(type, body.text);
    if (!format) throw new UnreadableConfigurationTypeError(javaMediaTypeText(type!.text), 'convert');
    return this.offLoop.run('config.convert', { text: body.text, format, limits: this.limits, to, pretty });
  }

  /** A client's definition in any declarative format (backup archives included), checked against the limits. */
  parseConfiguration(text: string, format: ConfigFormat): Promise<CacheDefinition> {
    return this.offLoop.run('config.parse', { text, format, limits: this.limits });
  }

  /** A create or update body; `text/plain` with parameters is the parser's 400, not a 415 (docs/reference/management-plane.md#cache-create). */
  private parseBody(body: ConfigBody): Promise<CacheDefinition> {
    if (body.contentType?.kind === 'text-with-parameters') throw new UnreadableConfigurationTypeError(javaMediaTypeText(body.contentType.text));
    return this.parseConfiguration(body.text, formatOf(body));
  }

  /** One side of a comparison: its part's type names the format when it is one, else the text does. */
  private async parseComparand(body: ConfigBody): Promise<CacheDefinition> {
    const format = (body.contentType && configFormatOf(body.contentType, body.text)) ?? sniffConfigFormat(body.text);
    try {
      return await this.parseConfiguration(body.text, format);
    } catch (err) {
      // a document with no cache or with several is the wrong content for a comparison
      if (isGridError(err) && (err.code === 'EMPTY_CONFIGURATION' || err.code === 'CACHE_COUNT')) throw new WrongCompareContentError();
      throw err;
    }
  }
}

/** Bytes a bounded cache holds in memory; an unbounded one does not count them (reported as 0). */
export function dataMemoryUsed(h: CacheHandle): number {
  return h.cache.settings.bounded ? h.cache.memoryBytes : 0;
}

function formatOf(body: ConfigBody): ConfigFormat {
  // Without a Content-Type the format is recognised from the text, as for bare text/plain.
  const format = body.contentType === undefined ? sniffConfigFormat(body.text) : configFormatOf(body.contentType, body.text);
  if (!format) {
    throw new UnsupportedMediaTypeError(`Unsupported media type '${body.contentType!.text}' for a cache configuration: send application/json, application/xml or application/yaml (or text/plain, or no Content-Type: the format is recognised from the text)`);
  }
  return format;
}

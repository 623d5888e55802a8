import {
  CacheAbsentError, UnsupportedMediaTypeError, WrongMethodError,
} from '../errors';
import type { CacheHandle, CacheManager } from '../grid/cache-manager';
import { checkName } from '../grid/cache-manager';
import {
  type CacheDefinition, type ConfigFormat, detectConfigFormat, formatCacheConfig, isTemplateKind, parseCacheConfig,
} from '../model/cache-config';
import { parseAdminFlags } from '../model/flags';
import type { Clock } from '../util/clock';

export interface ConfigBody {
  text: string;
  contentType: string | undefined;
}

const DEFAULT_DEFINITION = '{"local-cache":{}}';

/** Cache lifecycle and configuration (spec 1 "Cache management", behavior-notes §6.4–6.7). */
export class CacheService {
  constructor(private readonly manager: CacheManager, private readonly clock: Clock) {}

  /** POST ?action=clear: answered once the removal is durable. */
  async clear(h: CacheHandle): Promise<void> {
    const commit = h.cache.clear();
    if (commit) await commit.promise;
  }

  size(h: CacheHandle): Promise<number> {
    return h.cache.size();
  }

  resetStats(h: CacheHandle): void {
    h.cache.stats.reset(this.clock.now());
  }

  /** POST /caches/{name}: from a body, a template, or the default local cache. */
  async create(name: string, body: ConfigBody, template: string | undefined, flagsHeader: string | undefined): Promise<void> {
    const volatile = parseAdminFlags(flagsHeader).has('VOLATILE');
    checkName(name);
    if (body.text.trim() === '' && template !== undefined) {
      await this.manager.createFromTemplate(name, template, { volatile });
      return;
    }
    const definition = body.text.trim() === '' ? parseCacheConfig(DEFAULT_DEFINITION, 'json') : parseBody(body);
    if (isTemplateKind(definition.root.name)) await this.manager.defineTemplate(name, definition);
    else await this.manager.create(name, definition, { volatile });
  }

  /** PUT /caches/{name}: create, or update with compatible changes only. */
  async createOrUpdate(name: string, body: ConfigBody, template: string | undefined, flagsHeader: string | undefined): Promise<void> {
    if (body.text.trim() === '' || template !== undefined) throw new WrongMethodError('PUT');
    const volatile = parseAdminFlags(flagsHeader).has('VOLATILE');
    const definition = parseBody(body);
    if (isTemplateKind(definition.root.name)) await this.manager.defineTemplate(name, definition);
    else if (this.manager.find(name)) await this.manager.update(name, definition);
    else await this.manager.create(name, definition, { volatile });
  }

  /** DELETE /caches/{name}: a cache, or else a template of that name. */
  async remove(name: string): Promise<void> {
    if (!(await this.manager.remove(name)) && !(await this.manager.removeTemplate(name))) throw new CacheAbsentError();
  }

  exists(name: string): boolean {
    return this.manager.find(name) !== undefined;
  }

  /** The configuration in a declarative format, named after the cache. */
  configOf(h: CacheHandle, format: ConfigFormat, pretty: boolean): string {
    return formatCacheConfig(h.definition, h.cache.name, format, pretty);
  }

  /** POST /caches?action=convert: one declarative format to another, names kept as given. */
  convert(body: ConfigBody, to: ConfigFormat, pretty: boolean): string {
    const definition = parseBody(body);
    return formatCacheConfig(definition, definition.name, to, pretty);
  }
}

function parseBody(body: ConfigBody): CacheDefinition {
  // Without a Content-Type the format is recognised from the text, as for bare text/plain.
  const format = detectConfigFormat(body.contentType ?? 'text/plain', body.text);
  if (!format) throw new UnsupportedMediaTypeError();
  return parseCacheConfig(body.text, format);
}



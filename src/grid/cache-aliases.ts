import { AliasInUseError, CacheExistsError } from '../errors';
import { checkResourceName } from '../model/resource-name';

/**
 * Which cache each alias names (the `aliases` attribute of a cache definition, docs/reference/management-plane.md#aliases).
 * An alias names one cache at a time and never shadows a cache name.
 */
export class CacheAliases {
  private readonly owners = new Map<string, string>();

  ownerOf(alias: string): string | undefined {
    return this.owners.get(alias);
  }

  /** Records that `cache` now has exactly `aliases`. */
  set(cache: string, aliases: readonly string[]): void {
    this.drop(cache);
    for (const alias of aliases) this.owners.set(alias, cache);
  }

  drop(cache: string): void {
    for (const [alias, owner] of this.owners) if (owner === cache) this.owners.delete(alias);
  }

  /**
   * Refuses aliases that another cache uses, or that are cache names (`isCache`), for cache `cache`;
   * new aliases obey the rule of cache names. Aliases the cache already has are kept as they are,
   * so a definition stored before that rule can still be updated.
   */
  check(cache: string, aliases: readonly string[], isCache: (name: string) => boolean): void {
    for (const alias of aliases) {
      const owner = this.owners.get(alias);
      if (owner === cache) continue;
      this.checkAlias(alias, isCache);
      if (owner !== undefined) throw new AliasInUseError(alias, owner);
    }
  }

  /**
   * An alias may be any name a cache could have (the one naming rule: not empty, no control
   * character, at most 255 bytes), except the name of a cache.
   */
  checkAlias(alias: string, isCache: (name: string) => boolean): void {
    checkResourceName('alias', alias);
    if (isCache(alias)) throw new AliasInUseError(alias, alias);
  }

  /** A new cache may not take a name an alias already gives to another cache (the naming rule is CacheManager's). */
  refuseAliased(name: string): void {
    if (this.owners.has(name)) throw new CacheExistsError(name);
  }
}

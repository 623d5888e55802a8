import { AliasInUseError, CacheExistsError, NameTooLongError } from '../errors';

const MAX_NAME_BYTES = 255;

/**
 * Which cache each alias names (the `aliases` attribute of a cache definition, behavior-notes §6.8).
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
   * alias names obey the cache name length limit.
   */
  check(cache: string, aliases: readonly string[], isCache: (name: string) => boolean): void {
    for (const alias of aliases) {
      this.checkAlias(alias, isCache);
      const owner = this.owners.get(alias);
      if (owner !== undefined && owner !== cache) throw new AliasInUseError(alias, owner);
    }
  }

  /** An alias may be any name a cache could have, except the name of a cache. */
  checkAlias(alias: string, isCache: (name: string) => boolean): void {
    if (Buffer.byteLength(alias, 'utf8') > MAX_NAME_BYTES) throw new NameTooLongError(alias);
    if (isCache(alias)) throw new AliasInUseError(alias, alias);
  }

  /** A new cache may not take a name an alias already gives to another cache. */
  checkName(name: string): void {
    if (this.owners.has(name)) throw new CacheExistsError(name);
  }
}

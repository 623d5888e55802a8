import type { Store } from '../store/store';
import type { Clock } from '../util/clock';

/** The rows of the store's `settings` that hold the switches; each row says "off" (or "ignored"): its absence is the default. */
const REBALANCING = 'rebalancing';
const CACHE_REBALANCING = 'rebalancing:cache:';
const IGNORED = 'ignored:';
const PREFIXES = [REBALANCING, IGNORED];

/** The setting that turns off the rebalancing of the cache with id `id`: it goes with the cache's removal. */
export function cacheRebalancingSetting(id: number): string {
  return CACHE_REBALANCING + String(id);
}

/**
 * A container's switches that every node of a cluster reports the same way
 * (docs/reference/management-plane.md#ignore-list, #cache-rebalancing): the container's rebalancing
 * switch, each cache's own (by cache id, so a cache created again under the name starts switched
 * on), and the ignore list (by name, as the original keeps it). They are rows of the store's
 * settings, so they survive a restart and, on the redis engine, every node reads the same ones;
 * this node keeps a copy for the request path, read again after each change it makes and each
 * change another node makes to the settings (`reload`).
 */
export class ClusterSwitches {
  private rebalancingOff = false;
  private readonly cachesOff = new Set<number>();
  private readonly ignored = new Set<string>();

  constructor(private readonly store: Store, private readonly clock: Clock) {
    this.reload();
  }

  get rebalancing(): boolean {
    return !this.rebalancingOff;
  }

  /** The cache's own switch (the container's applies on top). */
  cacheRebalancing(id: number): boolean {
    return !this.cachesOff.has(id);
  }

  isIgnored(name: string): boolean {
    return this.ignored.has(name);
  }

  ignoredNames(): string[] {
    return [...this.ignored].sort();
  }

  setRebalancing(enabled: boolean): Promise<void> {
    return this.set(REBALANCING, !enabled);
  }

  setCacheRebalancing(id: number, enabled: boolean): Promise<void> {
    return this.set(cacheRebalancingSetting(id), !enabled);
  }

  setIgnored(name: string, ignored: boolean): Promise<void> {
    return this.set(IGNORED + name, ignored);
  }

  /** Reads the switches from the store again (this node's copy of the records, on the redis engine). */
  reload(): void {
    const rows = PREFIXES.flatMap((p) => this.store.settings.list(p));
    this.rebalancingOff = false;
    this.cachesOff.clear();
    this.ignored.clear();
    for (const [name] of rows) {
      if (name === REBALANCING) this.rebalancingOff = true;
      else if (name.startsWith(CACHE_REBALANCING)) this.cachesOff.add(Number(name.slice(CACHE_REBALANCING.length)));
      else if (name.startsWith(IGNORED)) this.ignored.add(name.slice(IGNORED.length));
    }
  }

  /** Writes a row for a switch turned from its default, removes it for one turned back; resolves once durable. */
  private async set(name: string, on: boolean): Promise<void> {
    await this.store.write(on ? { kind: 'setting.put', name, value: 'true', updatedAt: this.clock.now() } : { kind: 'setting.delete', name }).promise;
    this.reload();
  }
}

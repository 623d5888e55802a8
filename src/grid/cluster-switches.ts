import type { Store } from '../store/store';
import type { Clock } from '../util/clock';

/** A cache's partition availability (`?action=get-availability`, health DEGRADED). */
export type Availability = 'AVAILABLE' | 'DEGRADED_MODE';

/** The rows of the store's `settings` that hold the switches; each row says "off" (or "ignored", or the mode): its absence is the default. */
const REBALANCING = 'rebalancing';
const CACHE_REBALANCING = 'rebalancing:cache:';
const AVAILABILITY = 'availability:cache:';
const IGNORED = 'ignored:';
const PREFIXES = [REBALANCING, AVAILABILITY, IGNORED];

/** The settings of the cache with id `id`: they go with the cache's removal. */
export function cacheSettingNames(id: number): string[] {
  return [CACHE_REBALANCING + String(id), AVAILABILITY + String(id)];
}

/**
 * A container's switches that every node of a cluster reports the same way
 * (docs/reference/management-plane.md#ignore-list, #cache-rebalancing, #availability): the
 * container's rebalancing switch, each cache's own and each cache's partition availability (by
 * cache id, so a cache created again under the name starts afresh), and the ignore list (by name,
 * as the original keeps it). They are rows of the store's settings, so on the redis engine every
 * node reads the same ones; the ignore list and the rebalancing switches survive a restart (the
 * original keeps them in its persistent state), availability lasts while the cluster runs
 * (`resetAvailability` when its first node starts). This node keeps a copy for the request path,
 * read again after each change it makes and each change another node makes (`reload`).
 */
export class ClusterSwitches {
  private rebalancingOff = false;
  private readonly cachesOff = new Set<number>();
  private readonly degraded = new Set<number>();
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

  availability(id: number): Availability {
    return this.degraded.has(id) ? 'DEGRADED_MODE' : 'AVAILABLE';
  }

  setAvailability(id: number, mode: Availability): Promise<void> {
    return this.set(AVAILABILITY + String(id), mode === 'DEGRADED_MODE');
  }

  /** Every cache back to AVAILABLE: the cluster starts again (the original forgets partition state then). */
  async resetAvailability(): Promise<void> {
    await Promise.all([...this.degraded].map((id) => this.store.write({ kind: 'setting.delete', name: AVAILABILITY + String(id) }).promise));
    this.reload();
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
    return this.set(CACHE_REBALANCING + String(id), !enabled);
  }

  setIgnored(name: string, ignored: boolean): Promise<void> {
    return this.set(IGNORED + name, ignored);
  }

  /** Reads the switches from the store again (this node's copy of the records, on the redis engine). */
  reload(): void {
    const rows = PREFIXES.flatMap((p) => this.store.settings.list(p));
    this.rebalancingOff = false;
    this.cachesOff.clear();
    this.degraded.clear();
    this.ignored.clear();
    for (const [name] of rows) {
      if (name === REBALANCING) this.rebalancingOff = true;
      else if (name.startsWith(CACHE_REBALANCING)) this.cachesOff.add(Number(name.slice(CACHE_REBALANCING.length)));
      else if (name.startsWith(AVAILABILITY)) this.degraded.add(Number(name.slice(AVAILABILITY.length)));
      else if (name.startsWith(IGNORED)) this.ignored.add(name.slice(IGNORED.length));
    }
  }

  /** Writes a row for a switch turned from its default, removes it for one turned back; resolves once durable. */
  private async set(name: string, on: boolean): Promise<void> {
    await this.store.write(on ? { kind: 'setting.put', name, value: 'true', updatedAt: this.clock.now() } : { kind: 'setting.delete', name }).promise;
    this.reload();
  }
}

import { NoBackupSitesError, SiteOperationFailedError, UnknownBackupSiteError } from '../errors';
import type { CacheHandle, CacheManager } from '../grid/cache-manager';
import { findChild, findChildren } from '../model/cache-config';
import type { Store, XSiteRecord } from '../store/store';
import { type CacheView, viewOf } from './cache-view';

export type SiteStatus = 'online' | 'offline';

/**
 * Cross-site backup locations (docs/reference/management-plane.md#cross-site). A cache that
 * declares `backups` gets one state per site — online/offline, state-transfer mode, take-offline
 * settings — kept, reported and persisted. Nothing is replicated to remote sites yet, so pushing
 * state fails as an unreachable site would.
 */
export class XSiteService {
  private readonly states = new Map<string, XSiteRecord>();

  constructor(private readonly store: Store, private readonly manager: CacheManager) {
    this.reload();
  }

  /** Reads the stored states again: at start, and when another node of the cluster changed them. */
  reload(): void {
    this.states.clear();
    for (const r of this.store.xsite.list()) this.states.set(key(r.cache, r.site), r);
  }

  /** The sites a cache backs up to, with their state (404 without backups). */
  sites(cacheName: string): XSiteRecord[] {
    const h = this.manager.require(cacheName);
    const sites = declaredSites(h);
    if (sites.length === 0) throw new NoBackupSitesError(cacheName);
    return sites.map((s) => this.states.get(key(h.cache.name, s.site)) ?? s);
  }

  site(cacheName: string, site: string): XSiteRecord {
    const found = this.sites(cacheName).find((s) => s.site === site);
    if (!found) throw new UnknownBackupSiteError(cacheName, site);
    return found;
  }

  async setStatus(cacheName: string, site: string, status: SiteStatus): Promise<void> {
    await this.save({ ...this.site(cacheName, site), status });
  }

  /** Pushing state needs the remote site, which this server cannot reach yet. */
  pushState(cacheName: string, site: string): never {
    this.site(cacheName, site);
    throw new SiteOperationFailedError(site, 'remote site unreachable: cross-site replication is not implemented');
  }

  /** false when the mode was already set (304). */
  async setMode(cacheName: string, site: string, mode: 'MANUAL' | 'AUTO'): Promise<boolean> {
    const s = this.site(cacheName, site);
    if (s.mode === mode) return false;
    await this.save({ ...s, mode });
    return true;
  }

  /** false when nothing changed (304). */
  async setTakeOffline(cacheName: string, site: string, afterFailures: number, minWait: number): Promise<boolean> {
    const s = this.site(cacheName, site);
    if (s.afterFailures === afterFailures && s.minWait === minWait) return false;
    await this.save({ ...s, afterFailures, minWait });
    return true;
  }

  /** Every site some cache backs up to, with the caches per status; only the caches `include` accepts. */
  containerView(include: (cache: CacheView) => boolean): Map<string, { online: string[]; offline: string[] }> {
    const view = new Map<string, { online: string[]; offline: string[] }>();
    for (const h of this.included(include)) {
      for (const s of declaredSites(h)) {
        const state = this.states.get(key(h.cache.name, s.site)) ?? s;
        const entry = view.get(s.site) ?? { online: [], offline: [] };
        entry[state.status].push(h.cache.name);
        view.set(s.site, entry);
      }
    }
    return view;
  }

  /** Applies a status change to every cache `include` accepts that backs up to `site`; returns cache → "ok". */
  async setContainerStatus(site: string, status: SiteStatus, include: (cache: CacheView) => boolean): Promise<Record<string, string>> {
    const result: Record<string, string> = {};
    for (const h of this.included(include)) {
      if (!declaredSites(h).some((s) => s.site === site)) continue;
      await this.setStatus(h.cache.name, site, status);
      result[h.cache.name] = 'ok';
    }
    return result;
  }

  private included(include: (cache: CacheView) => boolean): CacheHandle[] {
    return this.manager.handles().filter((h) => include(viewOf(h)));
  }

  private async save(r: XSiteRecord): Promise<void> {
    await this.store.write({ kind: 'xsite.upsert', record: r }).promise;
    this.states.set(key(r.cache, r.site), r);
  }
}

function key(cache: string, site: string): string {
  return `${cache}\u0000${site}`;
}

/** `backups/backup[site]` of a cache's definition, with the configured defaults. */
function declaredSites(h: CacheHandle): XSiteRecord[] {
  const backups = findChild(h.definition.root, 'backups');
  if (!backups) return [];
  return findChildren(backups, 'backup').map((b) => {
    const offline = findChild(b, 'take-offline');
    const transfer = findChild(b, 'state-transfer');
    return {
      cache: h.cache.name,
      site: String(b.attributes.site),
      status: 'online',
      mode: String(transfer?.attributes.mode ?? 'MANUAL').toUpperCase() === 'AUTO' ? 'AUTO' : 'MANUAL',
      afterFailures: Number(offline?.attributes['after-failures'] ?? 0),
      minWait: Number(offline?.attributes['min-wait'] ?? 0),
    };
  });
}

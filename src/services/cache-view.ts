import type { Availability, CacheHandle } from '../grid/cache-manager';
import type { CacheSettings } from '../model/cache-config';

/** A cache's settings with nothing in them that can be changed (lists included). */
export type CacheSettingsView = {
  readonly [K in keyof CacheSettings]: CacheSettings[K] extends Array<infer T> ? readonly T[] : CacheSettings[K];
};

let handleBehind: (view: CacheView) => CacheHandle;
let newView: (handle: CacheHandle) => CacheView;

/**
 * A cache as src/http holds it: its name, settings and switches, read as they are now and never
 * set. The services hand out one view per cache (`viewOf`, made once) and take it back as the cache
 * an operation acts on; only they reach what is behind it — the running `Cache`, its entries (the
 * engine seam) — through `handleOf`, a module src/http may not import (test/unit/layers.test.ts).
 * The private field makes a view unforgeable: no other object passes for one, neither to the type
 * checker nor at run time.
 */
export class CacheView {
  readonly #handle: CacheHandle;

  static {
    handleBehind = (view) => view.#handle;
    newView = (handle) => new CacheView(handle);
  }

  private constructor(handle: CacheHandle) {
    this.#handle = handle;
  }

  get name(): string {
    return this.#handle.cache.name;
  }

  /** The settings in force: a definition change replaces them, and the view follows. */
  get settings(): CacheSettingsView {
    return this.#handle.cache.settings;
  }

  /** One of the container's own caches (`___protobuf_metadata`, `___script_cache`). */
  get internal(): boolean {
    return this.#handle.internal;
  }

  /** Partition availability (docs/reference/management-plane.md#availability): AVAILABLE until set otherwise. */
  get availability(): Availability {
    return this.#handle.availability ?? 'AVAILABLE';
  }

  /** The cache's own rebalancing switch; the container's switch also applies. */
  get rebalancing(): boolean {
    return this.#handle.rebalancing;
  }
}

const views = new WeakMap<CacheHandle, CacheView>();

/** The one view of a cache: made at the first call, the same object ever after (no allocation on a request's path). */
export function viewOf(h: CacheHandle): CacheView {
  let view = views.get(h);
  if (!view) {
    view = newView(h);
    views.set(h, view);
  }
  return view;
}

/** The cache behind a view; a TypeError for anything that is not one. */
export function handleOf(view: CacheView): CacheHandle {
  return handleBehind(view);
}

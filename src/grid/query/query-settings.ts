import { type CacheDefinition, type CacheSettings, findChild } from '../../model/cache-config';

/** A cache's query and indexing configuration (docs/reference/query.md#indexing-configuration). */
export interface QuerySettings {
  indexed: boolean;
  indexedEntities: string[];
  /** `indexing-mode="MANUAL"`: writes leave the index alone until a reindex. */
  manual: boolean;
  /** `<query default-max-results>`: what `max_results=-1` means (docs/reference/query.md#paging). */
  defaultMaxResults: number;
  /** `<query hit-count-accuracy>`: the default for indexed hit counts (docs/reference/query.md#hit-counts). */
  hitCountAccuracy: number;
}

function int(v: unknown, fallback: number): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : NaN;
  return Number.isFinite(n) ? n : fallback;
}

export function querySettingsOf(definition: CacheDefinition, settings: CacheSettings): QuerySettings {
  const indexing = findChild(definition.root, 'indexing');
  const query = findChild(definition.root, 'query');
  const mode = indexing?.attributes['indexing-mode'];
  return {
    indexed: settings.indexed,
    indexedEntities: settings.indexedEntities,
    manual: typeof mode === 'string' && mode.toUpperCase() === 'MANUAL',
    defaultMaxResults: int(query?.attributes['default-max-results'], 100),
    hitCountAccuracy: int(query?.attributes['hit-count-accuracy'], 10_000),
  };
}

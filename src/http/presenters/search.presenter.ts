import { RawJson, type QueryResult } from '../../services/query.service';

/**
 * Search results as JSON text (query-notes §2, §9). Entities are protostream's canonical JSON,
 * inserted as they are; projections are objects of the selected keys.
 */
export function presentSearchResult(r: QueryResult): string {
  return `{"hit_count":${r.hitCount},"hit_count_exact":${r.hitCountExact},"hits":[${hits(r, false)}]}`;
}

/** The v1 shape: `total_results`, projection keys as bare paths (query-notes §9). */
export function presentLegacySearchResult(r: QueryResult): string {
  return `{"total_results":${r.hitCount},"hits":[${hits(r, true)}]}`;
}

/** `{"error":{"message":…,"cause":…}}`, the one JSON error body of the API. */
export function presentQueryError(message: string, cause: string | null): string {
  return JSON.stringify({ error: { message, cause } });
}

function hits(r: QueryResult, legacy: boolean): string {
  return r.hits.map((h) => {
    if (h instanceof RawJson) return `{"hit":${h.json}}`;
    const columns = r.columns ?? [];
    const fields = new Map<string, string>();
    h.forEach((v, i) => fields.set(legacy ? columns[i].legacyKey : columns[i].key, valueJson(v)));
    return `{"hit":{${[...fields].map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}}`;
  }).join(',');
}

function valueJson(v: unknown): string {
  if (v instanceof RawJson) return v.json;
  if (typeof v === 'bigint') return String(v); // a long beyond 2^53, as exact as the original's Long
  return v === undefined ? 'null' : JSON.stringify(v);
}

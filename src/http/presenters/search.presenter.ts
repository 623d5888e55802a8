import { RawJson, type QueryResult } from '../../services/query.service';
import { inSlices } from '../../util/slices';

/** Characters of JSON per part of an answer: a large answer is never one string, nor one buffer. */
const PART = 64 * 1024;

/**
 * Search results as JSON (docs/reference/query.md#result-json, docs/reference/query.md#v1-search), in parts of about 64 KiB built a few milliseconds
 * at a time. Entities are protostream's canonical JSON, inserted as they are; projections are
 * objects of the selected keys.
 */
export function presentSearchResult(r: QueryResult): Promise<Buffer[]> {
  return parts(`{"hit_count":${r.hitCount},"hit_count_exact":${r.hitCountExact},"hits":[`, r, false);
}

/** The v1 shape: `total_results`, projection keys as bare paths (docs/reference/query.md#v1-search). */
export function presentLegacySearchResult(r: QueryResult): Promise<Buffer[]> {
  return parts(`{"total_results":${r.hitCount},"hits":[`, r, true);
}

/** `{"error":{"message":…,"cause":…}}`, the one JSON error body of the API. */
export function presentQueryError(message: string, cause: string | null): string {
  return JSON.stringify({ error: { message, cause } });
}

async function parts(head: string, r: QueryResult, legacy: boolean): Promise<Buffer[]> {
  const out: Buffer[] = [];
  let text = head;
  let first = true;
  await inSlices(r.hits, (h) => {
    text += (first ? '' : ',') + hit(r, h, legacy);
    first = false;
    if (text.length < PART) return;
    out.push(Buffer.from(text));
    text = '';
  });
  out.push(Buffer.from(text + ']}'));
  return out;
}

function hit(r: QueryResult, h: QueryResult['hits'][number], legacy: boolean): string {
  if (h instanceof RawJson) return `{"hit":${h.json}}`;
  const columns = r.columns ?? [];
  const fields = new Map<string, string>();
  h.forEach((v, i) => fields.set(legacy ? columns[i].legacyKey : columns[i].key, valueJson(v)));
  return `{"hit":{${[...fields].map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}}`;
}

function valueJson(v: unknown): string {
  if (v instanceof RawJson) return v.json;
  if (typeof v === 'bigint') return String(v); // a long beyond 2^53, as exact as the original's Long
  return v === undefined ? 'null' : JSON.stringify(v);
}

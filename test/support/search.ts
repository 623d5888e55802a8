import { expect } from 'chai';
import type { Client, Reply } from './client';

export type Via = 'GET' | 'POST';

export interface SearchParams {
  offset?: number;
  max_results?: number;
  hit_count_accuracy?: number;
}

export interface SearchBody {
  hit_count: number;
  hit_count_exact: boolean;
  hits: Array<{ hit: Record<string, unknown> }>;
}

export interface LegacyBody {
  total_results: number;
  hits: Array<{ hit: Record<string, unknown> }>;
}

/** `?action=search` by GET (URL parameters) or POST (JSON body), v2 or v1. */
export function search(client: Client, cache: string, query: string, params: SearchParams = {}, via: Via = 'GET', v1 = false): Promise<Reply> {
  const base = v1 ? `/rest/${encodeURIComponent(cache)}` : `/rest/v2/caches/${encodeURIComponent(cache)}`;
  if (via === 'POST') return client.post(`${base}?action=search`, JSON.stringify({ query, ...params }), { 'Content-Type': 'application/json' });
  const qs = new URLSearchParams({ action: 'search', query });
  for (const [k, v] of Object.entries(params)) qs.set(k, String(v));
  return client.get(`${base}?${qs.toString().replace(/\+/g, '%20')}`);
}

/** A successful v2 search's body. */
export async function searchOk(client: Client, cache: string, query: string, params: SearchParams = {}, via: Via = 'GET'): Promise<SearchBody> {
  const r = await search(client, cache, query, params, via);
  expect(r.status, `${via} ${query}: ${r.text}`).to.equal(200);
  return r.json<SearchBody>();
}

/** A failed search: status 400 and its JSON error. */
export async function searchError(client: Client, cache: string, query: string, via: Via = 'GET', v1 = false): Promise<{ message: string; cause: string | null }> {
  const r = await search(client, cache, query, {}, via, v1);
  expect(r.status, `${via} ${query}: ${r.text}`).to.equal(400);
  return r.json<{ error: { message: string; cause: string | null } }>().error;
}

/** Stores a JSON value under a key of a protostream cache. */
export async function putJson(client: Client, cache: string, key: string, value: unknown, headers: Record<string, string> = {}): Promise<void> {
  const r = await client.put(`/rest/v2/caches/${encodeURIComponent(cache)}/${encodeURIComponent(key)}`, JSON.stringify(value), { 'Content-Type': 'application/json', ...headers });
  expect(r.status, `PUT ${key}: ${r.text}`).to.equal(204);
}

export async function registerSchema(client: Client, name: string, content: string): Promise<void> {
  const r = await client.put(`/rest/v2/schemas/${name}`, content);
  expect(r.status, r.text).to.be.oneOf([200, 201]);
  expect(r.json<{ error: unknown }>().error, r.text).to.equal(null);
}

/** Stores many JSON values, `concurrency` requests at a time. */
export async function putAllJson(client: Client, cache: string, entries: Array<[string, unknown]>, concurrency = 32): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < entries.length) {
      const [key, value] = entries[next++];
      await putJson(client, cache, key, value);
    }
  }));
}

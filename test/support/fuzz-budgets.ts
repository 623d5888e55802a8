import fc from 'fast-check';
import type { FuzzRequest } from './fuzz-requests';

/**
 * Requests whose cost the client chooses (docs/security.md, What a client can make the server do):
 * adversarial Ickle — stacked regexp quantifiers, long LIKE patterns, many OR-ed LIKEs and fuzzy
 * terms, huge `max_results`, many sort keys, int64 literals, aggregates in WHERE, DELETE through
 * search — and large values read and written in every media type. The budgets fuzz test sends
 * them against the fixtures below.
 */

export const BOOK = 'fz.Book';
export const BOOK_PROTO = `package fz;
/* @Indexed */
message Book {
  /* @Text(projectable = true) */
  optional string title = 1;
  /* @Keyword(projectable = true, sortable = true) */
  optional string code = 2;
  /* @Basic(projectable = true, sortable = true, aggregable = true) */
  optional int64 stamp = 3;
  /* @Basic(projectable = true, sortable = true, aggregable = true) */
  optional int32 year = 4;
  optional string body = 5;
}
`;

/** The caches the generators aim at: indexed and scanned books, large text values, Java objects. */
export const BUDGET_CACHES: Record<string, unknown> = {
  'fz-idx': { 'local-cache': { encoding: { 'media-type': 'application/x-protostream' }, indexing: { enabled: true, 'indexed-entities': [BOOK] }, persistence: { 'file-store': {} } } },
  'fz-scan': { 'local-cache': { encoding: { 'media-type': 'application/x-protostream' }, persistence: { 'file-store': {} } } },
  'fz-text': { 'local-cache': { encoding: { 'media-type': 'text/plain; charset=UTF-8' } } },
  'fz-obj': { 'local-cache': { encoding: { 'media-type': 'application/x-java-object' } } },
};
const QUERY_CACHES = ['fz-idx', 'fz-scan'];

/** A word of the books' vocabulary: `w` and a number, so fuzzy terms have many near neighbours. */
export const word = (n: number): string => `w${n.toString(36)}`;

/**
 * Book `i` as protostream JSON text: titles of vocabulary words, a keyword code up to 255
 * characters, int64 stamps around 2^53 written exactly, and some 200 KB bodies.
 */
export function bookJson(i: number): string {
  const title = Array.from({ length: 8 }, (_, j) => word((i * 7919 + j * 104_729) % 20_000)).join(' ');
  const code = i % 50 === 0 ? 'a'.repeat(255) : `c${i}`;
  const stamp = (2n ** 53n + BigInt(i % 3) - 1n).toString();
  const body = i % 100 === 0 ? 'a'.repeat(200_000) : `body of ${i}`;
  return `{"_type":"${BOOK}","title":"${title}","code":"${code}","stamp":${stamp},"year":${1900 + (i % 120)},"body":"${body}"}`;
}

/** The large values read back in every media type: text that is not XML, and JSON. */
export const LARGE_VALUES: Record<string, Buffer> = {
  big: Buffer.from('x'.repeat(9_900_000)),
  'big-words': Buffer.from('plain words & <not xml> '.repeat(400_000)),
  'big-json': Buffer.from(JSON.stringify({ a: 'y'.repeat(5_000_000) })),
};

const size = (min: number, max: number) => fc.integer({ min, max });

const regexps = fc.oneof(
  size(1, 90).map((n) => `title : /${'.*'.repeat(n)}x/`),
  size(1, 12).map((n) => `code : /${'.*'.repeat(n)}x/`),
  size(1, 30).map((n) => `code : /${'(a|aa)'.repeat(n)}b/`),
  size(1, 8).map((n) => `title : /(.*){${n}}x/`),
);
const likes = fc.oneof(
  size(1, 20_000).map((n) => `body LIKE '%${'a'.repeat(n)}b%'`),
  size(1, 5_000).map((n) => `code LIKE '${'%a'.repeat(n)}b'`),
  size(1, 2_000).map((n) => `body LIKE '${'_'.repeat(n)}%b'`),
  size(2, 3_000).map((n) => Array.from({ length: n }, (_, i) => `body LIKE '%${word(i)}%'`).join(' OR ')),
);
const fuzzy = size(1, 300).map((n) => Array.from({ length: n }, (_, i) => `title : '${word(i * 37)}'~2`).join(' OR '));
const wildcards = size(1, 60).map((n) => `title : ${'*w'.repeat(n)}*`);
const int64 = fc.constantFrom('stamp = 9007199254740993', 'stamp > 9007199254740992', 'stamp >= -9223372036854775808', 'stamp < 9223372036854775807', 'stamp = 99999999999999999999');
const conditions = fc.oneof(regexps, likes, fuzzy, wildcards, int64);

const selects = fc.oneof(
  conditions.map((c) => `from ${BOOK} where ${c}`),
  conditions.map((c) => `select title, stamp from ${BOOK} where ${c}`),
  size(1, 200).map((n) => `from ${BOOK} order by ${Array.from({ length: n }, (_, i) => (i % 2 ? 'year' : 'code')).join(', ')}`),
  fc.constantFrom(
    `select max(stamp), min(stamp), sum(stamp), avg(stamp), count(stamp) from ${BOOK}`,
    `select year, sum(stamp) from ${BOOK} group by year`,
    `from ${BOOK} where title = MIN(code)`,
    `from ${BOOK}`,
  ),
);
const deletes = fc.oneof(fc.constant(`DELETE FROM ${BOOK}`), conditions.map((c) => `DELETE FROM ${BOOK} WHERE ${c}`));

const paging = fc.record({
  max_results: fc.constantFrom(undefined, 2147483647, -1, 0, 10, 100_000),
  offset: fc.constantFrom(undefined, 0, 2147483646, 400),
}, { requiredKeys: [] });

/** A GET search: the query in the URL (long ones are refused by the URL's size, which is a bound too). */
function searchGet(cache: string, query: string, params: Record<string, number | undefined>, v1: boolean): string {
  const qs = new URLSearchParams({ action: 'search', query });
  for (const [k, v] of Object.entries(params)) if (v !== undefined) qs.set(k, String(v));
  return `${v1 ? `/rest/${cache}` : `/rest/v2/caches/${cache}`}?${qs.toString().replace(/\+/g, '%20')}`;
}

/** Searches through GET: read-only by definition, DELETE statements included. */
export const safeQueries: fc.Arbitrary<FuzzRequest> = fc.tuple(fc.constantFrom(...QUERY_CACHES), fc.oneof(selects, deletes), paging, fc.boolean(), fc.constantFrom<FuzzRequest['as']>('observer', 'observer', 'admin'))
  .map(([cache, query, params, v1, as]) => ({ method: 'GET', path: searchGet(cache, query, params, v1), as, headers: {} }));

/** Searches through POST: any length, and DELETE statements from a user without BULK_WRITE. */
export const postedQueries: fc.Arbitrary<FuzzRequest> = fc.tuple(fc.constantFrom(...QUERY_CACHES), fc.oneof({ weight: 4, arbitrary: selects }, { weight: 1, arbitrary: deletes }), paging)
  .map(([cache, query, params]) => ({
    method: 'POST', path: `/rest/v2/caches/${cache}?action=search`, as: 'observer', headers: { 'Content-Type': 'application/json' },
    body: Buffer.from(JSON.stringify({ query, ...params })),
  }));

const MEDIA_TYPES = [
  'application/xml', 'application/json', 'application/x-www-form-urlencoded', 'text/plain', 'text/plain; charset=UTF-16', 'text/plain; charset=ISO-8859-1',
  'application/octet-stream', 'application/x-java-object', 'application/x-protostream', 'application/yaml', 'application/x-jboss-marshalling', '*/*',
];

/** Large values read in every media type. */
export const largeReads: fc.Arbitrary<FuzzRequest> = fc.tuple(fc.constantFrom(...Object.keys(LARGE_VALUES)), fc.constantFrom(...MEDIA_TYPES), fc.boolean())
  .map(([key, accept, v1]) => ({ method: 'GET', path: v1 ? `/rest/fz-text/${key}` : `/rest/v2/caches/fz-text/${key}`, as: 'observer', headers: { Accept: accept } }));

/** Large values written in every media type into a text cache and a Java-object cache. */
export const largeWrites: fc.Arbitrary<FuzzRequest> = fc.tuple(fc.constantFrom('fz-text', 'fz-obj'), fc.constantFrom(...Object.keys(LARGE_VALUES)), fc.constantFrom(...MEDIA_TYPES), size(0, 3))
  .map(([cache, key, type, n]) => ({
    method: 'PUT', path: `/rest/v2/caches/${cache}/w${n}`, as: 'application', headers: { 'Content-Type': type },
    body: LARGE_VALUES[key].subarray(0, 3_000_000 * (n + 1)),
  }));

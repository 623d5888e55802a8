import type { AnalyzedQuery, FieldRef } from '../../model/ickle/analyzed-query';
import { heavyPatternWork } from '../../model/ickle/pattern-work';
import { cappedCount } from '../../store/index-records';
import type { IndexFilter, IndexHit, IndexSelection, IndexSortKey, IndexValue } from '../../store/store';
import type { CacheIndex } from './cache-index';
import type { ExecutableQuery, MatchRow } from './executable-query';
import { type GroupRow, MAX_GROUPS, tooManyGroups } from './group-table';
import { indexLayoutOf, type IndexLayout } from './index-documents';
import { IndexFilterBuilder } from './index-filter';
import type { QueryBudget } from './query-budget';
import type { Paging, QueryResult } from './query-result';
import { buildHits, ResultCollector } from './result-collector';

const BATCH = 1000;
/**
 * Distinct ORDER BY fields sorted by SQLite, each one join (SQLite joins at most 64 tables): past
 * this many the candidates are sorted in memory, as a hybrid plan does.
 */
const MAX_INDEX_SORT_KEYS = 32;
type IndexBatch = { hits: IndexHit[]; next: number | undefined };
/** Entries read and decoded together while streaming candidates. */
const LOAD = 100;

/** Entities a query loaded for its hits, and the time it took (search statistics, entity_load). */
export interface EntityLoading {
  loaded: number;
  ns: number;
}

/**
 * Runs a query on an indexed cache (docs/reference/query.md#hit-counts, docs/reference/query.md#execution): `indexed` when the whole condition is
 * in the index (counts and, for indexed sort fields, the page come from SQLite), `hybrid` when only
 * part is (the index gives candidates, the entries are checked in memory, and — as the original —
 * hit_count is the candidates' count). Undefined when nothing is indexed: the caller scans.
 */
export async function runIndexQuery(exec: ExecutableQuery, index: CacheIndex, paging: Paging, accuracy: number, now: number, loading: EntityLoading, budget: QueryBudget): Promise<QueryResult | undefined> {
  const q = exec.query;
  const layout = indexLayoutOf(q.entity);
  const pair = await new IndexFilterBuilder(index, q.entity.name, layout, budget).translate(q.where);
  if (!pair.exact && pair.superset.kind === 'all') return undefined;
  const sel: IndexSelection = { cacheId: index.cache.id, type: q.entity.name, filter: pair.exact ?? pair.superset, now, deadline: budget.deadline.at };
  const kind = pair.exact ? 'indexed' : 'hybrid';
  if (q.grouping) {
    const native = nativeAggregation(q, layout, pair.exact);
    if (native) return await nativeResult(exec, index, sel, native);
    const collector = new ResultCollector(exec, paging, budget);
    await streamCandidates(exec, index, sel, kind === 'hybrid', loading, budget, (row) => void collector.add(row));
    return collector.finish(kind);
  }
  const sort = sortKeys(q);
  const sortInIndex = sort.length <= MAX_INDEX_SORT_KEYS && sort.every((k) => layout.byPath.get(k.field)?.kind === 'value');
  if (kind === 'indexed' && sortInIndex) {
    // the page as far as query-rows reaches past the offset, and one row more: a page that is not
    // full ends the matches and tells their count; one that goes on past query-rows is refused
    const room = Math.min(paging.maxResults, Math.max(0, budget.limits.rows - paging.offset));
    const read = paging.maxResults > 0 ? await index.reads.page(sel, sort, paging.offset, room + 1) : [];
    if (room < paging.maxResults && read.length > room) throw budget.tooManyRows();
    const hits = read.slice(0, paging.maxResults);
    const known = paging.maxResults > 0 && read.length <= paging.maxResults && (paging.offset === 0 || read.length > 0);
    const count = known ? cappedCount(paging.offset + read.length, accuracy) : await index.reads.count(sel, accuracy);
    const rows = await loadPage(exec, index, hits, loading, budget);
    return { hitCount: count.count, hitCountExact: count.exact, columns: exec.columns, hits: await buildHits(exec, rows, budget), kind };
  }
  const count = await index.reads.count(sel, accuracy);
  const collector = new ResultCollector(exec, paging, budget);
  const enough = q.orderBy.length === 0 ? paging.offset + paging.maxResults : Infinity;
  await streamCandidates(exec, index, sel, kind === 'hybrid', loading, budget, (row) => {
    collector.add(row);
    return collector.count >= enough;
  });
  return collector.finish(kind, count.count, count.exact);
}

/**
 * Every candidate of the selection, in index order, loaded and (hybrid) checked; `visit` returns
 * true to stop. The next batch is asked for before this one is loaded, so a reader thread finds
 * it while the loop works; entities are loaded a few at a time, so few outlive a garbage collection.
 */
async function streamCandidates(exec: ExecutableQuery, index: CacheIndex, sel: IndexSelection, check: boolean, loading: EntityLoading, budget: QueryBudget, visit: (row: MatchRow) => boolean | void): Promise<void> {
  const slice = budget.slice;
  let pending: Promise<IndexBatch> | undefined = index.reads.batch(sel, 0, BATCH);
  while (pending) {
    const { hits, next }: IndexBatch = await pending;
    pending = next === undefined ? undefined : index.reads.batch(sel, next, BATCH);
    for (let i = 0; i < hits.length; i += LOAD) {
      for (const row of await loadAll(exec, index, hits.slice(i, i + LOAD), loading)) {
        if ((!check || exec.where(row.entity)) && visit(row)) return;
        if (slice.due() || (heavyPatternWork() && slice.spent())) await slice.pause();
      }
    }
    if (slice.spent()) await slice.pause();
  }
}

/** ORDER BY as index sort keys; a field named again is dropped, as it can no longer change the order. */
function sortKeys(q: AnalyzedQuery): IndexSortKey[] {
  const keys = new Map<string, IndexSortKey>();
  for (const k of q.orderBy) {
    const field = (k.target as FieldRef).key;
    if (!keys.has(field)) keys.set(field, { field, descending: k.descending });
  }
  return [...keys.values()];
}

/** A page's hits loaded a few at a time, each row held against the query's budget. */
async function loadPage(exec: ExecutableQuery, index: CacheIndex, hits: IndexHit[], loading: EntityLoading, budget: QueryBudget): Promise<MatchRow[]> {
  const rows: MatchRow[] = [];
  for (let i = 0; i < hits.length; i += LOAD) {
    for (const row of await loadAll(exec, index, hits.slice(i, i + LOAD), loading)) {
      budget.hold(row);
      rows.push(row);
    }
    if (budget.slice.spent()) await budget.slice.pause();
  }
  return rows;
}

/**
 * The hits' entries, read without bringing them into memory (on the redis engine, from the
 * cluster); stale documents (entry gone or expired) are skipped.
 */
async function loadAll(exec: ExecutableQuery, index: CacheIndex, hits: IndexHit[], loading: EntityLoading): Promise<MatchRow[]> {
  const started = process.hrtime.bigint();
  const found = index.lookupMany(hits.map((h) => h.key));
  const entries = found instanceof Promise ? await found : found;
  const rows: MatchRow[] = [];
  hits.forEach((hit, i) => {
    const entity = entries[i] && exec.reader.read(entries[i]!.value);
    if (entity) rows.push(exec.row(hit.key, entity, hit.score, entries[i]!.value.length));
  });
  loading.loaded += hits.length;
  loading.ns += Number(process.hrtime.bigint() - started);
  return rows;
}

interface NativeAggregation {
  field: string;
  countField: string | undefined;
  descending: boolean;
}

/**
 * The original aggregates in the index only for one aggregable GROUP BY field and one COUNT, no
 * HAVING, ORDER BY at most the (sortable) group field, and a fully indexed WHERE (docs/reference/query.md#aggregation).
 * Its quirk is kept: COUNT(field) without WHERE also counts entities whose field is null.
 */
function nativeAggregation(q: AnalyzedQuery, layout: IndexLayout, exact: IndexFilter | undefined): NativeAggregation | undefined {
  const g = q.grouping!;
  if (!exact || g.groupBy.length !== 1 || g.aggregates.length !== 1 || g.having) return undefined;
  const group = g.groupBy[0];
  const count = g.aggregates[0];
  if (!group.leaf.flags.aggregable || layout.byPath.get(group.key)?.kind !== 'value' || count.name !== 'COUNT') return undefined;
  if (count.ref && (!count.ref.leaf.flags.searchable || layout.byPath.get(count.ref.key)?.kind !== 'value')) return undefined;
  const order = q.orderBy;
  if (order.length > 1 || (order.length === 1 && ((order[0].target as { column: number }).column !== 0 || !group.leaf.flags.sortable))) return undefined;
  return { field: group.key, countField: q.where.kind === 'true' ? undefined : count.ref?.key, descending: order[0]?.descending ?? false };
}

/** Native aggregation: every group, in group-value order, paging ignored (docs/reference/query.md#hit-counts); as many groups as in memory at most. */
async function nativeResult(exec: ExecutableQuery, index: CacheIndex, sel: IndexSelection, n: NativeAggregation): Promise<QueryResult> {
  const group = exec.query.grouping!.groupBy[0];
  const counted = await index.reads.groupCount(sel, n.field, n.countField, n.descending, MAX_GROUPS + 1);
  if (counted.length > MAX_GROUPS) throw tooManyGroups();
  const rows: GroupRow[] = counted.map((g) => [fromIndex(g.value, group), g.n]);
  return { hitCount: rows.length, hitCountExact: true, columns: exec.columns, hits: rows.map((r) => exec.groupHit(r)), kind: 'indexed' };
}

function fromIndex(v: IndexValue, ref: FieldRef): IndexValue {
  return ref.leaf.kind === 'bool' ? v === 1 || v === true : v;
}

import type { Scalar, Target } from '../../model/ickle/analyzed-query';
import { compileCondition } from './condition-eval';
import type { ExecutableQuery, MatchRow } from './executable-query';
import { type GroupRow, GroupTable } from './group-table';
import type { QueryBudget } from './query-budget';
import { RawJson, type ExecutionKind, type Paging, type QueryResult } from './query-result';
import { TopRows } from './top-rows';

/**
 * Turns matching rows into a result (docs/reference/query.md#hit-counts): counts every match, keeps only the rows of
 * the requested page (the best offset + max_results when sorted), or groups and aggregates. The
 * rows kept count against the query's budget (`query-rows`, `query-answer-bytes`).
 */
export class ResultCollector {
  private matches = 0;
  private readonly limit: number;
  private readonly top: TopRows<MatchRow> | undefined;
  private readonly first: MatchRow[] = [];
  private readonly groups: GroupTable | undefined;

  constructor(private readonly q: ExecutableQuery, private readonly paging: Paging, private readonly budget: QueryBudget) {
    // a count-only query (max_results 0) keeps no row, whatever its offset
    this.limit = paging.maxResults === 0 ? 0 : Math.min(paging.offset + paging.maxResults, Number.MAX_SAFE_INTEGER);
    const grouping = q.query.grouping;
    if (grouping) this.groups = new GroupTable(grouping);
    else if (q.query.orderBy.length) this.top = new TopRows(this.limit, q.compareRows);
  }

  get count(): number {
    return this.matches;
  }

  add(row: MatchRow): void {
    this.matches++;
    if (this.groups) return this.groups.add(row.entity);
    if (this.top) {
      const out = this.top.add(row);
      if (out === row) return;
      if (out) this.budget.release(out);
      return this.budget.hold(row);
    }
    if (this.first.length >= this.limit) return;
    this.budget.hold(row);
    this.first.push(row);
  }

  /** The result; `hitCount` overrides the number of matches (index counts, hybrid pre-filter counts). */
  async finish(kind: ExecutionKind, hitCount = this.matches, hitCountExact = true): Promise<QueryResult> {
    const { offset, maxResults } = this.paging;
    if (this.groups) {
      let rows = this.groups.rows();
      const having = this.q.query.grouping?.having;
      if (having) {
        const keep = compileCondition<GroupRow>(having, (t: Target) => (row) => columnValue(row, t));
        rows = rows.filter(keep);
      }
      if (this.q.query.orderBy.length) rows.sort(this.q.compareGroups);
      const page = rows.slice(offset, offset + maxResults);
      return { hitCount: rows.length, hitCountExact: true, columns: this.q.columns, hits: page.map((r) => this.q.groupHit(r)), kind };
    }
    const rows = this.top ? this.top.sorted() : this.first;
    const page = rows.slice(offset, offset + maxResults);
    return { hitCount, hitCountExact, columns: this.q.columns, hits: await buildHits(this.q, page, this.budget), kind };
  }
}

/**
 * The hits of a page of rows — entities as their canonical JSON, or projected values — built a
 * few milliseconds at a time under the query's deadline, their JSON counted against `query-answer-bytes`.
 */
export async function buildHits(q: ExecutableQuery, rows: MatchRow[], budget: QueryBudget): Promise<Array<RawJson | unknown[]>> {
  const hits: Array<RawJson | unknown[]> = [];
  for (const row of rows) {
    const hit = q.hit(row);
    budget.write(jsonSize(hit));
    hits.push(hit);
    if (budget.slice.due()) await budget.slice.pause();
  }
  return hits;
}

/** The JSON size of a hit, near enough to bound an answer: raw JSON and strings by length, other values 8. */
function jsonSize(hit: RawJson | unknown[]): number {
  if (hit instanceof RawJson) return hit.json.length;
  let n = 0;
  for (const v of hit) n += v instanceof RawJson ? v.json.length : typeof v === 'string' ? v.length + 2 : 8;
  return n;
}

function columnValue(row: GroupRow, t: Target): Scalar[] {
  const v = row[(t as { column: number }).column];
  return v === null || v === undefined ? [] : [v];
}

import type { Scalar, Target } from '../../model/ickle/analyzed-query';
import { compileCondition } from './condition-eval';
import type { ExecutableQuery, MatchRow } from './executable-query';
import { type GroupRow, GroupTable } from './group-table';
import type { ExecutionKind, Paging, QueryResult } from './query-result';
import { TopRows } from './top-rows';

/**
 * Turns matching rows into a result (query-notes §2): counts every match, keeps only the rows of
 * the requested page (the best offset + max_results when sorted), or groups and aggregates.
 */
export class ResultCollector {
  private matches = 0;
  private readonly limit: number;
  private readonly top: TopRows<MatchRow> | undefined;
  private readonly first: MatchRow[] = [];
  private readonly groups: GroupTable | undefined;

  constructor(private readonly q: ExecutableQuery, private readonly paging: Paging) {
    this.limit = Math.min(paging.offset + paging.maxResults, Number.MAX_SAFE_INTEGER);
    const grouping = q.query.grouping;
    if (grouping) this.groups = new GroupTable(grouping);
    else if (q.query.orderBy.length) this.top = new TopRows(this.limit, q.compareRows);
  }

  get count(): number {
    return this.matches;
  }

  add(row: MatchRow): void {
    this.matches++;
    if (this.groups) this.groups.add(row.entity);
    else if (this.top) this.top.add(row);
    else if (this.first.length < this.limit) this.first.push(row);
  }

  /** The result; `hitCount` overrides the number of matches (index counts, hybrid pre-filter counts). */
  finish(kind: ExecutionKind, hitCount = this.matches, hitCountExact = true): QueryResult {
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
    return { hitCount, hitCountExact, columns: this.q.columns, hits: page.map((r) => this.q.hit(r)), kind };
  }
}

function columnValue(row: GroupRow, t: Target): Scalar[] {
  const v = row[(t as { column: number }).column];
  return v === null || v === undefined ? [] : [v];
}

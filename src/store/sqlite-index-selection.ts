import type { IndexSelection, IndexSortKey } from './index-records';
import { IN_TIME } from './sqlite-deadline';
import { type Driver, FilterSql, type Sql } from './sqlite-index-sql';

/**
 * better-sqlite3 reads an INTEGER beyond 2^53 as a rounded number: such values are also selected
 * as their decimal text, and the store reads that (a 64-bit field's values must come back exact).
 */
const EXACT_INTEGER = (column: string): string =>
  `CASE WHEN typeof(${column}) = 'integer' AND (${column} > 9007199254740991 OR ${column} < -9007199254740991) THEN CAST(${column} AS TEXT) END`;

/** Documents one streaming statement of a large selection looks at, at most. */
export const BATCH_WINDOW = 20_000;

/**
 * The statements of one index selection — a cache's documents of one type, live at `now`,
 * matching a filter — as SQL over `d` (index_docs): counts, pages, candidate batches, group counts,
 * and the bounded count of candidates that sizes them. SQL building only: SqliteIndexStore runs
 * them. With a driver the candidates come first (CROSS JOIN fixes that order: SQLite has no
 * statistics to choose it) and each is checked with what the driver did not answer; without one,
 * the type's documents are walked. Every candidate first passes `grid_in_time()`: the statement
 * stops at the query's deadline.
 */
export class SelectionSql {
  private readonly fields: FilterSql;
  private readonly driver: Driver | undefined;

  /** `expired`: some documents of the cache have expired at `now` (the reaper purges them regularly). */
  constructor(private readonly sel: IndexSelection, private readonly typeId: number, private readonly fieldId: (path: string) => number, private readonly expired: boolean) {
    this.fields = new FilterSql(fieldId);
    this.driver = this.fields.driver(sel.filter);
  }

  /** Terms of the filter's full-text searches: FTS5 opens each of them, in every statement of the selection. */
  get textTerms(): number {
    let n = 0;
    const walk = (f: IndexSelection['filter']): void => {
      if (f.kind === 'text') n += f.search.kind === 'prefix' ? 1 : f.search.terms.length;
      else if (f.kind === 'and' || f.kind === 'or') f.items.forEach(walk);
      else if (f.kind === 'not') walk(f.item);
    };
    walk(this.sel.filter);
    return n;
  }

  /** The candidates up to `limit`, counted as a stream a LIMIT stops early. */
  candidates(limit: number): Sql {
    const c = this.driver?.estimate ?? { sql: 'SELECT doc_id FROM index_docs WHERE type_id = ?', params: [this.typeId] };
    return { sql: `SELECT count(*) AS n FROM (${c.sql} LIMIT ?)`, params: [...c.params, limit] };
  }

  count(limit: number): Sql {
    const q = this.select('d.doc_id', []);
    return { sql: `SELECT count(*) AS n FROM (${q.sql} LIMIT ?)`, params: [...q.params, limit] };
  }

  page(sort: IndexSortKey[], offset: number, limit: number): Sql {
    const order = this.orderBy(sort);
    const q = this.select(`d.doc_id AS docId, d.key AS key, ${order.score} AS score`, order.joins, undefined, order.scoredDriver);
    return { sql: `${order.prefix.sql}${q.sql} ORDER BY ${order.sql} LIMIT ? OFFSET ?`, params: [...order.prefix.params, ...q.params, limit, offset] };
  }

  explain(sort: IndexSortKey[]): Sql {
    const order = this.orderBy(sort);
    const q = this.select('d.doc_id', order.joins, undefined, order.scoredDriver);
    return { sql: `EXPLAIN QUERY PLAN ${order.prefix.sql}${q.sql} ORDER BY ${order.sql}`, params: [...order.prefix.params, ...q.params] };
  }

  /** Matches after `afterDocId`, driver first: for small selections. */
  batchAfter(afterDocId: number, limit: number): Sql {
    const q = this.select('d.doc_id AS docId, d.key AS key, 1.0 AS score', [], { sql: 'd.doc_id > ?', params: [afterDocId] });
    return { sql: `${q.sql} ORDER BY d.doc_id LIMIT ?`, params: [...q.params, limit] };
  }

  /**
   * Matches with doc_id in (low, high]: for large selections, each statement bounded by its window.
   * Equality and full-text drivers keep doc_id order, so they drive each window; others are
   * checked per document of the window.
   */
  batchWindow(low: number, high: number, limit: number): Sql {
    const d = this.driver;
    const ordered = d?.leaf && (d.leaf.kind === 'eq' || d.leaf.kind === 'text') ? d : undefined;
    const column = ordered?.leaf!.kind === 'eq' ? 'doc_id' : 'rowid';
    const windowed = ordered && { sql: `${ordered.sql.sql} AND ${column} > ? AND ${column} <= ?`, params: [...ordered.sql.params, low, high] };
    const rest = FilterSql.without(this.sel.filter, ordered?.leaf);
    const cond = rest.kind === 'all' ? { sql: '1', params: [] } : this.fields.condition(rest, 'd.doc_id');
    const live = this.live('d.doc_id');
    const from = windowed ? `(${windowed.sql}) s CROSS JOIN index_docs d ON d.doc_id = s.doc_id` : 'index_docs d';
    const sql = `SELECT d.doc_id AS docId, d.key AS key, 1.0 AS score FROM ${from} WHERE d.type_id = ? AND d.doc_id > ? AND d.doc_id <= ? AND ${IN_TIME} AND ${cond.sql}${live.sql} ORDER BY d.doc_id LIMIT ?`;
    return { sql, params: [...(windowed?.params ?? []), this.typeId, low, high, ...cond.params, ...live.params, limit] };
  }

  /** COUNT per value of `field`: from the driver's candidates when there is one, else along the field's B-tree. */
  groupCount(field: string, countField: string | undefined, descending: boolean, limit: number): Sql {
    const filter = countField ? { kind: 'and' as const, items: [this.sel.filter, { kind: 'exists' as const, field: countField }] } : this.sel.filter;
    const driver = this.fields.driver(filter);
    const rest = FilterSql.without(filter, driver?.leaf);
    const cond = rest.kind === 'all' ? { sql: '1', params: [] } : this.fields.condition(rest, 'g.doc_id');
    const live = this.live('g.doc_id');
    const from = driver ? `(${driver.sql.sql}) s CROSS JOIN index_values g ON g.doc_id = s.doc_id AND g.field_id = ?` : 'index_values g';
    const where = driver ? '' : 'g.field_id = ? AND ';
    const sql = `SELECT g.value AS value, ${EXACT_INTEGER('g.value')} AS exact, count(*) AS n FROM ${from} WHERE ${where}${IN_TIME} AND ${cond.sql}${live.sql} GROUP BY g.value ORDER BY g.value ${descending ? 'DESC' : 'ASC'} LIMIT ?`;
    return { sql, params: [...(driver?.sql.params ?? []), this.fieldId(field), ...cond.params, ...live.params, limit] };
  }

  private select(columns: string, joins: Sql[], extra?: Sql, scoredDriver = false): Sql {
    const driver = this.driver && scoredDriver ? { ...this.driver, sql: this.fields.scored(this.driver) } : this.driver;
    const rest = FilterSql.without(this.sel.filter, driver?.leaf);
    const cond = rest.kind === 'all' ? { sql: '1', params: [] } : this.fields.condition(rest, 'd.doc_id');
    const live = this.live('d.doc_id');
    const from = driver ? `(${driver.sql.sql}) s CROSS JOIN index_docs d ON d.doc_id = s.doc_id` : 'index_docs d';
    const joinSql = joins.map((j) => ` ${j.sql}`).join('');
    const sql = `SELECT ${columns} FROM ${from}${joinSql} WHERE d.type_id = ? AND ${IN_TIME} AND ${cond.sql}${live.sql}${extra ? ` AND ${extra.sql}` : ''}`;
    return { sql, params: [...(driver?.sql.params ?? []), ...joins.flatMap((j) => j.params), this.typeId, ...cond.params, ...live.params, ...(extra?.params ?? [])] };
  }

  /** Expired documents are filtered only when some exist. */
  private live(doc: string): Sql {
    if (!this.expired) return { sql: '', params: [] };
    return { sql: ` AND ${doc} NOT IN (SELECT doc_id FROM index_docs WHERE cache_id = ? AND expires_at IS NOT NULL AND expires_at <= ?)`, params: [this.sel.cacheId, this.sel.now] };
  }

  /**
   * ORDER BY for a page, with the joins it needs (nulls first ascending, then index order).
   * Relevance (bm25) is computed once per query: by the driver itself when the whole filter is one
   * full-text search, else in a materialized table joined by doc_id (a plain subquery would be run
   * again for every candidate).
   */
  private orderBy(sort: IndexSortKey[]): { sql: string; joins: Sql[]; score: string; prefix: Sql; scoredDriver: boolean } {
    const joins: Sql[] = sort.map((k, i) => ({ sql: `LEFT JOIN index_values o${i} ON o${i}.field_id = ? AND o${i}.doc_id = d.doc_id`, params: [this.fieldId(k.field)] }));
    const match = this.textMatches();
    const scoredDriver = match !== undefined && this.sel.filter.kind === 'text';
    let prefix: Sql = { sql: '', params: [] };
    if (match && !scoredDriver) {
      prefix = { sql: 'WITH sc AS MATERIALIZED (SELECT rowid AS doc_id, -bm25(index_text) AS score FROM index_text WHERE index_text MATCH ?) ', params: [match] };
      joins.push({ sql: 'LEFT JOIN sc ON sc.doc_id = d.doc_id', params: [] });
    }
    const score = scoredDriver ? 's.score' : match ? 'coalesce(sc.score, 0.0)' : '1.0';
    const keys = sort.map((k, i) => `o${i}.value ${k.descending ? 'DESC' : 'ASC'}`);
    if (!sort.length && match) keys.push('score DESC');
    keys.push('d.doc_id');
    return { sql: keys.join(', '), joins, score, prefix, scoredDriver };
  }

  /** The positive full-text searches of the filter, OR-ed, for the relevance score. */
  private textMatches(): string | undefined {
    const found: string[] = [];
    const walk = (f: IndexSelection['filter']): void => {
      if (f.kind === 'text') found.push(this.fields.match(f.search));
      else if (f.kind === 'and' || f.kind === 'or') f.items.forEach(walk);
    };
    walk(this.sel.filter);
    return found.length ? found.map((m) => `(${m})`).join(' OR ') : undefined;
  }
}

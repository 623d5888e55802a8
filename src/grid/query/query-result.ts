/** JSON text to be written as is (an entity's canonical JSON, the `*` projection). */
export class RawJson {
  constructor(readonly json: string) {}
}

/** A projection column: the v2 key (`COUNT(name)`) and the v1 key (`name`, docs/reference/query.md#v1-search). */
export interface ResultColumn {
  key: string;
  legacyKey: string;
}

/** How a query ran, for `search/stats` (docs/reference/query.md#search-admin). */
export type ExecutionKind = 'indexed' | 'hybrid' | 'non_indexed';

/** What a query answers (docs/reference/query.md#result-json): hits are entities, or rows of projected values. */
export interface QueryResult {
  hitCount: number;
  hitCountExact: boolean;
  /** undefined when the hits are whole entities. */
  columns: ResultColumn[] | undefined;
  hits: Array<RawJson | unknown[]>;
  kind: ExecutionKind;
}

export interface Paging {
  offset: number;
  /** 0 = count only. */
  maxResults: number;
}

import type { Type } from 'protobufjs';
import type { AnalyzedQuery, FieldRef, Projection, Scalar, Target } from '../../model/ickle/analyzed-query';
import { isColumn } from '../../model/ickle/analyzed-query';
import { hitJson } from '../../model/protobuf/protostream-hit-json';
import { compareNullable } from './compare';
import { compileCondition, type Predicate } from './condition-eval';
import { EntityReader, type EntityMessage } from './entity-reader';
import { compileAccessor, compileSingle, projectValue } from './field-values';
import type { GroupRow } from './group-table';
import { RawJson, type ResultColumn } from './query-result';
import { compileWireFilter, type WireFilter } from './wire-filter';
import type { ScannedEntry } from '../cache-entry';

/** One matching entity, with what sorting and the result need. */
export interface MatchRow {
  key: Buffer;
  entity: EntityMessage;
  sortKeys: Array<Scalar | null>;
  /** Relevance, for indexed full-text queries; null otherwise (docs/reference/query.md#semantic-checks: score() on a scan). */
  score: number | null;
  /** The stored value's size: what holding the row for the answer costs (QueryBudget). */
  bytes: number;
}

/**
 * An analyzed query compiled once into what runs per entity: the type reader, the WHERE predicate,
 * the sort keys and the projections (the "compiled once to a predicate over decoded
 * messages"). Scans and index plans share it.
 */
export class ExecutableQuery {
  readonly reader: EntityReader;
  readonly where: Predicate<EntityMessage>;
  readonly columns: ResultColumn[] | undefined;
  private readonly wireFilter: WireFilter | undefined;
  private readonly sortKeyOf: Array<(e: object) => Scalar | null>;
  private readonly project: Array<(row: MatchRow) => unknown> | undefined;

  constructor(readonly query: AnalyzedQuery, readonly type: Type, typeId: number | undefined) {
    this.reader = new EntityReader(type, typeId);
    const accessors = new Map<string, (e: object) => Scalar[]>();
    const access = (t: Target): ((e: EntityMessage) => Scalar[]) => {
      if (isColumn(t)) throw new Error('entity conditions have no columns');
      let a = accessors.get(t.key);
      if (!a) accessors.set(t.key, (a = compileAccessor(t)));
      return a;
    };
    this.where = compileCondition(query.where, access);
    this.wireFilter = compileWireFilter(query.where, type);
    this.sortKeyOf = query.grouping ? [] : query.orderBy.map((k) => compileSingle(k.target as FieldRef));
    this.columns = query.projections?.map((p) => columnOf(p, query));
    this.project = query.grouping ? undefined : query.projections?.map((p) => this.projector(p));
  }

  get grouped(): boolean {
    return this.query.grouping !== undefined;
  }

  /** A decoded value's row when it matches WHERE; undefined otherwise (other types included). */
  match(key: Buffer, value: Buffer): MatchRow | undefined {
    const entity = this.reader.read(value);
    if (!entity || !this.where(entity)) return undefined;
    return this.row(key, entity, null, value.length);
  }

  /**
   * `match` for an entry a scan hands over: the type and the wire filter are checked on the bytes
   * where they lie, and only entries that may match are copied out and decoded.
   */
  matchScanned(e: ScannedEntry): MatchRow | undefined {
    if (!this.reader.locate(e.bytes, e.valueStart, e.valueEnd)) return undefined;
    if (this.wireFilter && !this.wireFilter(e.bytes, this.reader.bodyStart, this.reader.bodyEnd)) return undefined;
    return this.match(e.key(), e.value());
  }

  row(key: Buffer, entity: EntityMessage, score: number | null, bytes: number): MatchRow {
    return { key, entity, sortKeys: this.sortKeyOf.map((k) => k(entity)), score, bytes };
  }

  /** ORDER BY over rows (nulls first ascending); without ORDER BY every row ties. */
  compareRows = (a: MatchRow, b: MatchRow): number => {
    const keys = this.query.orderBy;
    for (let i = 0; i < keys.length; i++) {
      const c = compareNullable(a.sortKeys[i], b.sortKeys[i]);
      if (c) return keys[i].descending ? -c : c;
    }
    return 0;
  };

  /** ORDER BY over grouping rows, by column. */
  compareGroups = (a: GroupRow, b: GroupRow): number => {
    for (const k of this.query.orderBy) {
      const column = (k.target as { column: number }).column;
      const c = compareNullable(a[column], b[column]);
      if (c) return k.descending ? -c : c;
    }
    return 0;
  };

  /** A result hit: the entity's canonical JSON, or its projected values in SELECT order. */
  hit(row: MatchRow): RawJson | unknown[] {
    if (!this.project) return new RawJson(hitJson(this.type, row.entity));
    return this.project.map((p) => p(row));
  }

  /** A grouping row's hit: the SELECT columns. */
  groupHit(row: GroupRow): unknown[] {
    return (this.query.projections ?? []).map((p) => (p.kind === 'column' ? row[p.column] : null));
  }

  private projector(p: Projection): (row: MatchRow) => unknown {
    switch (p.kind) {
      case 'field': {
        const value = projectValue(p.ref);
        return (row) => value(row.entity);
      }
      case 'entity': return (row) => new RawJson(hitJson(this.type, row.entity));
      case 'score': return (row) => row.score;
      case 'version': return () => null; // entries carry no numeric version (docs/query.md)
      case 'column': return () => null;
    }
  }
}

/** v2 keys as docs/reference/query.md#result-json; v1 used the bare path for aggregates too (`count(p.name)` ⇒ `name`, docs/reference/query.md#v1-search). */
function columnOf(p: Projection, q: AnalyzedQuery): ResultColumn {
  if (p.kind !== 'column' || !q.grouping) return { key: p.key, legacyKey: p.key };
  const n = q.grouping.groupBy.length;
  const aggregate = p.column >= n ? q.grouping.aggregates[p.column - n] : undefined;
  return { key: p.key, legacyKey: aggregate ? aggregate.ref?.key ?? p.key : p.key };
}

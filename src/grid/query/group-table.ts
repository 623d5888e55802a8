import { InvalidQueryError } from '../../errors';
import type { Aggregate, Grouping, Scalar } from '../../model/ickle/analyzed-query';
import { addLongs, type JavaLong } from '../../model/ickle/java-long';
import { compareScalars } from './compare';
import { compileAccessor, compileSingle } from './field-values';

/** A grouping query's row: the grouped values, then the aggregate results. */
export type GroupRow = Array<Scalar | null>;

/** Groups a query may build in memory; more is refused rather than held (docs/reference/query.md#aggregation). */
export const MAX_GROUPS = 100_000;

export function tooManyGroups(): InvalidQueryError {
  return new InvalidQueryError(`The query makes more than ${MAX_GROUPS} groups; narrow it with a WHERE clause`);
}

interface Accumulator {
  add(entity: object): void;
  result(): Scalar | null;
}

/**
 * In-memory grouping (docs/reference/query.md#aggregation): matching entities ⇒ groups ⇒ accumulated aggregates.
 * COUNT(field) counts non-null values, COUNT(*) rows; SUM/AVG/MIN/MAX over no values give null.
 * Without GROUP BY the answer is one global row, as the original's RowGrouper gives.
 */
export class GroupTable {
  private readonly groups = new Map<string, { keys: GroupRow; accumulators: Accumulator[] }>();
  private readonly keyOf: Array<(e: object) => Scalar | null>;

  constructor(private readonly grouping: Grouping) {
    this.keyOf = grouping.groupBy.map(compileSingle);
    // without GROUP BY there is one global row, even when nothing matches: COUNT 0, the others null
    if (grouping.groupBy.length === 0) this.groups.set('[]', { keys: [], accumulators: grouping.aggregates.map(accumulator) });
  }

  add(entity: object): void {
    const keys = this.keyOf.map((k) => k(entity));
    const id = JSON.stringify(keys, bigintAsText); // a column holds one kind: a long's text cannot meet a string
    let g = this.groups.get(id);
    if (!g) {
      if (this.groups.size >= MAX_GROUPS) throw tooManyGroups();
      g = { keys, accumulators: this.grouping.aggregates.map(accumulator) };
      this.groups.set(id, g);
    }
    for (const a of g.accumulators) a.add(entity);
  }

  /** Rows in group-key order (the order the original's index aggregation returns). */
  rows(): GroupRow[] {
    const rows = [...this.groups.values()].map((g) => [...g.keys, ...g.accumulators.map((a) => a.result())]);
    const n = this.grouping.groupBy.length;
    return rows.sort((a, b) => {
      for (let i = 0; i < n; i++) {
        const x = a[i];
        const y = b[i];
        const c = x === null || y === null ? (x === y ? 0 : x === null ? -1 : 1) : compareScalars(x, y);
        if (c) return c;
      }
      return 0;
    });
  }
}

function accumulator(a: Aggregate): Accumulator {
  if (!a.ref) {
    let n = 0;
    return { add: () => void n++, result: () => n };
  }
  const values = compileAccessor(a.ref);
  const kind = a.ref.leaf.kind;
  switch (a.name) {
    case 'COUNT': {
      let n = 0;
      return { add: (e) => void (n += values(e).length), result: () => n };
    }
    case 'SUM': case 'AVG': {
      if (a.name === 'AVG' || kind === 'float' || kind === 'double') {
        const stat = new DoubleStat();
        return {
          add: (e) => { for (const v of values(e)) stat.add(Number(v)); },
          result: () => (a.name === 'AVG' ? stat.average() : stat.sum()),
        };
      }
      if (kind === 'long') {
        let sum: JavaLong | null = null;
        return {
          add: (e) => { for (const v of values(e)) sum = sum === null ? v as JavaLong : addLongs(sum, v as JavaLong); },
          result: () => sum,
        };
      }
      let sum = 0;
      let n = 0;
      return {
        add: (e) => {
          for (const v of values(e)) {
            sum += Number(v);
            n++;
          }
        },
        result: () => (n === 0 ? null : Math.trunc(sum)),
      };
    }
    case 'MIN': case 'MAX': {
      let best: Scalar | null = null;
      const sign = a.name === 'MIN' ? -1 : 1;
      return {
        add: (e) => {
          for (const v of values(e)) if (best === null || compareScalars(v, best) * sign > 0) best = v;
        },
        result: () => best,
      };
    }
  }
}

const bigintAsText = (_key: string, v: unknown): unknown => (typeof v === 'bigint' ? String(v) : v);

/**
 * AVG (of every numeric kind) and SUM of floats and doubles as the original's DoubleStat computes
 * them: doubles in compensated (Kahan) summation, the compensation added to the sum at the end as
 * it does (a textbook Kahan sum subtracts it), the plain sum kept when the compensated one turns
 * NaN from infinities (docs/query.md "64-bit integers").
 */
class DoubleStat {
  private n = 0;
  private total = 0;
  private compensation = 0;
  private plain = 0;

  add(v: number): void {
    this.n++;
    this.plain += v;
    const corrected = v - this.compensation;
    const next = this.total + corrected;
    this.compensation = (next - this.total) - corrected;
    this.total = next;
  }

  sum(): number | null {
    if (this.n === 0) return null;
    const sum = this.total + this.compensation;
    return Number.isNaN(sum) && !Number.isFinite(this.plain) && !Number.isNaN(this.plain) ? this.plain : sum;
  }

  average(): number | null {
    const sum = this.sum();
    return sum === null ? null : sum / this.n;
  }
}

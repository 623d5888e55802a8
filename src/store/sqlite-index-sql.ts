import type { IndexFilter, IndexValue, TextSearch } from './index-records';
import { LIKE_FUNCTION } from './sqlite-like';

export interface Sql {
  sql: string;
  params: unknown[];
}

/** A candidate subquery, how selective its kind usually is, and the leaf it answers exactly. */
export interface Driver {
  sql: Sql;
  /** The candidates as a stream that a LIMIT stops early (duplicates kept): what sizes a selection. */
  estimate: Sql;
  priority: number;
  leaf: IndexFilter | undefined;
}

/** How well a filter narrows the documents when it drives the query (lower is better). */
const PRIORITY: Partial<Record<IndexFilter['kind'], number>> = { none: 0, eq: 1, in: 2, text: 3, range: 4, like: 4, exists: 6 };

/** JS numbers bind as REAL in better-sqlite3; integers are stored as INTEGER (smaller, exact), bigints too. */
export function sqlValue(v: IndexValue): unknown {
  if (typeof v === 'boolean') return v ? 1n : 0n;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return BigInt(v);
  return v;
}

/** A token as stored: `<field_id>x<hex of its UTF-8 bytes>`; FTS5 keeps it byte for byte. */
export function textToken(fieldId: number, term: string): string {
  return `${fieldId}x${Buffer.from(term, 'utf8').toString('hex')}`;
}

/** Between the values of a repeated field, so a phrase never spans two values. */
export function valueGap(fieldId: number): string {
  return `${fieldId}y`;
}

/**
 * Translates an index filter to SQL over index_docs (alias `d`), index_values and index_text.
 * A `driver` is a subquery of candidate doc_ids (a superset of the matches) read through an
 * index; the full filter is then checked per candidate with correlated EXISTS probes, each one
 * B-tree seek on (doc_id, field_id) or (field_id, value, doc_id).
 */
export class FilterSql {
  constructor(private readonly fieldId: (path: string) => number) {}

  /**
   * The best candidate subquery, or undefined when only a walk over the type's documents will do.
   * `leaf` is the filter part the driver answers exactly, when it is the filter or one of its top AND
   * items: the remaining condition need not check it again.
   */
  driver(f: IndexFilter): Driver | undefined {
    switch (f.kind) {
      case 'all': case 'not': return undefined;
      case 'none': return leafDriver({ sql: 'SELECT doc_id FROM index_docs WHERE 0', params: [] }, 0, f);
      case 'and': {
        let best: Driver | undefined;
        for (const item of f.items) {
          const d = this.driver(item);
          if (d && (!best || d.priority < best.priority)) best = d.leaf === item ? d : { ...d, leaf: undefined };
        }
        return best;
      }
      case 'or': {
        const parts = f.items.map((i) => this.driver(i));
        if (parts.some((p) => !p)) return undefined;
        const union = (of: (d: Driver) => Sql, op: string): Sql => compound(parts.map((p) => of(p!)), op);
        return { sql: union((d) => d.sql, ' UNION '), estimate: union((d) => d.estimate, ' UNION ALL '), priority: Math.max(...parts.map((p) => p!.priority)) + 1, leaf: undefined };
      }
      case 'text': return leafDriver({ sql: 'SELECT rowid AS doc_id FROM index_text WHERE index_text MATCH ?', params: [this.match(f.search)] }, PRIORITY.text!, f);
      case 'eq': return leafDriver({ sql: 'SELECT doc_id FROM index_values WHERE field_id = ? AND value = ?', params: [this.fieldId(f.field), sqlValue(f.value)] }, PRIORITY.eq!, f);
      default: {
        const v = this.valueCondition(f, 'value');
        const params = [this.fieldId(f.field), ...v.params];
        return {
          sql: { sql: `SELECT DISTINCT doc_id FROM index_values WHERE field_id = ?${v.sql}`, params },
          estimate: { sql: `SELECT doc_id FROM index_values WHERE field_id = ?${v.sql}`, params },
          priority: PRIORITY[f.kind]!,
          leaf: f,
        };
      }
    }
  }

  /** A full-text driver that also gives each candidate its relevance, as `score`. */
  scored(d: Driver): Sql {
    return { sql: 'SELECT rowid AS doc_id, -bm25(index_text) AS score FROM index_text WHERE index_text MATCH ?', params: d.sql.params };
  }

  /** What remains to check of `f` once `leaf` drove the query. */
  static without(f: IndexFilter, leaf: IndexFilter | undefined): IndexFilter {
    if (!leaf) return f;
    if (f === leaf) return { kind: 'all' };
    if (f.kind !== 'and') return f;
    const rest = f.items.filter((i) => i !== leaf);
    return rest.length === 0 ? { kind: 'all' } : rest.length === 1 ? rest[0] : { kind: 'and', items: rest };
  }

  /** The filter as a condition on the document id expression `doc` (`d.doc_id`). */
  condition(f: IndexFilter, doc: string): Sql {
    switch (f.kind) {
      case 'all': return { sql: '1', params: [] };
      case 'none': return { sql: '0', params: [] };
      case 'and': case 'or': {
        const parts = f.items.map((i) => this.condition(i, doc));
        return { sql: balanced(parts.map((p) => p.sql), f.kind === 'and' ? ' AND ' : ' OR '), params: parts.flatMap((p) => p.params) };
      }
      case 'not': {
        const inner = this.condition(f.item, doc);
        return { sql: `NOT ${inner.sql}`, params: inner.params };
      }
      case 'text': return { sql: `${doc} IN (SELECT rowid FROM index_text WHERE index_text MATCH ?)`, params: [this.match(f.search)] };
      case 'eq': return { sql: `EXISTS (SELECT 1 FROM index_values v WHERE v.field_id = ? AND v.value = ? AND v.doc_id = ${doc})`, params: [this.fieldId(f.field), sqlValue(f.value)] };
      default: {
        const v = this.valueCondition(f, 'v.value');
        return { sql: `EXISTS (SELECT 1 FROM index_values v WHERE v.doc_id = ${doc} AND v.field_id = ?${v.sql})`, params: [this.fieldId(f.field), ...v.params] };
      }
    }
  }

  /** The FTS5 expression of a search (tokens quoted, so FTS5 reads them as they are). */
  match(s: TextSearch): string {
    const id = this.fieldId(s.field);
    const quote = (t: string): string => `"${textToken(id, t)}"`;
    switch (s.kind) {
      case 'terms': return s.terms.length === 1 ? quote(s.terms[0]) : `(${s.terms.map(quote).join(' OR ')})`;
      case 'phrase': return s.slop > 0 ? `NEAR(${s.terms.map(quote).join(' ')}, ${s.slop})` : `"${s.terms.map((t) => textToken(id, t)).join(' ')}"`;
      case 'prefix': return `"${textToken(id, s.prefix)}" *`;
    }
  }

  private valueCondition(f: IndexFilter, column: string): Sql {
    switch (f.kind) {
      case 'in': {
        // a value listed again is bound once: each binding is a variable, and SQLite allows 32,766 per statement
        const values = [...new Set(f.values)];
        return { sql: ` AND ${column} IN (${values.map(() => '?').join(', ')})`, params: values.map(sqlValue) };
      }
      case 'range': {
        let sql = '';
        const params: unknown[] = [];
        if (f.lower !== undefined) {
          sql += ` AND ${column} ${f.includeLower ? '>=' : '>'} ?`;
          params.push(sqlValue(f.lower));
        }
        if (f.upper !== undefined) {
          sql += ` AND ${column} ${f.includeUpper ? '<=' : '<'} ?`;
          params.push(sqlValue(f.upper));
        }
        return { sql, params };
      }
      case 'like': {
        const like = `${LIKE_FUNCTION}(?, ${column})`;
        // a pattern that starts with a wildcard has no literal prefix to bound a range with
        if (f.prefix === '') return { sql: ` AND typeof(${column}) = 'text' AND ${like}`, params: [f.pattern] };
        const upper = prefixEnd(f.prefix);
        return { sql: ` AND ${column} >= ?${upper ? ` AND ${column} < ?` : ''} AND ${like}`, params: upper ? [f.prefix, upper, f.pattern] : [f.prefix, f.pattern] };
      }
      default: return { sql: '', params: [] }; // exists
    }
  }
}

/** Terms SQLite allows in one compound SELECT is 500; longer unions are nested in groups. */
const COMPOUND_TERMS = 256;

/**
 * Candidate subqueries joined by `op` (UNION, UNION ALL) as one SELECT of `doc_id`, so that it is
 * one term of any compound it joins; more than COMPOUND_TERMS are nested in groups.
 */
function compound(parts: Sql[], op: string): Sql {
  if (parts.length > COMPOUND_TERMS) {
    const groups: Sql[] = [];
    for (let i = 0; i < parts.length; i += COMPOUND_TERMS) groups.push(compound(parts.slice(i, i + COMPOUND_TERMS), op));
    return compound(groups, op);
  }
  return { sql: `SELECT doc_id FROM (${parts.map((p) => p.sql).join(op)})`, params: parts.flatMap((p) => p.params) };
}

/** Terms in a parenthesised balanced tree: SQLite parses `a OR b OR …` as deep as it is long, and refuses a depth over 1000. */
function balanced(terms: string[], op: string): string {
  if (terms.length <= 16) return `(${terms.join(op)})`;
  const half = Math.ceil(terms.length / 2);
  return `(${balanced(terms.slice(0, half), op)}${op}${balanced(terms.slice(half), op)})`;
}

function leafDriver(sql: Sql, priority: number, leaf: IndexFilter): Driver {
  return { sql, estimate: sql, priority, leaf };
}

/** The smallest string after every string starting with `prefix` (its last code point plus one). */
function prefixEnd(prefix: string): string | undefined {
  const points = [...prefix];
  const last = points.pop()!.codePointAt(0)!;
  if (last >= 0x10ffff) return undefined;
  return points.join('') + String.fromCodePoint(last + 1 === 0xd800 ? 0xe000 : last + 1);
}

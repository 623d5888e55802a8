import type { Database, Statement } from 'better-sqlite3';
import { cappedCount, type HitCount, type IndexDocument, type IndexFilter, type IndexHit, type IndexSelection, type IndexSortKey, type IndexTypeStats, type IndexValue, type IndexWriteOp } from './index-records';
import { sharedNow } from '../util/clock';
import { deadlinePassed, defineInTime } from './sqlite-deadline';
import { BATCH_WINDOW, SelectionSql } from './sqlite-index-selection';
import { type Sql, sqlValue, textToken, valueGap } from './sqlite-index-sql';
import { registerLike } from './sqlite-like';
import type { SqliteReader } from './sqlite-reader';

/** Candidates a selection's statements may look at on the event loop; beyond, they run on the reader thread. */
export const ON_LOOP_CANDIDATES = 2_000;
/**
 * Full-text terms a selection's statements may search on the event loop: FTS5 opens every term of
 * a MATCH before the first row (300 fuzzy terms expand to 15,000: 40–70 ms just to count candidates).
 */
const ON_LOOP_TERMS = 256;
/** Prepared statements kept per store (SQL texts differ by filter shape, not by value). */
const STATEMENTS = 256;

interface TypeMeasure {
  count: number;
  key_bytes: number | null;
  values_per_doc: number | null;
}

/**
 * Query indexes in SQLite (migrations 0011, 0012): documents, B-tree values and FTS5 text. SQL and
 * row mapping only; the query engine decides what to index and which filter to ask for; the SQL of
 * a selection is built by SelectionSql. Reads of large selections run on the reader thread, when
 * there is one. Type and field ids are cached; the cache is dropped when a transaction fails
 * (`forgetUncommitted`).
 */
export class SqliteIndexStore {
  private readonly typeIds = new Map<string, number>();
  private readonly fieldIds = new Map<string, number>();
  private readonly stmts: Record<string, Statement>;
  private readonly valueInserts = new Map<number, Statement>();
  private readonly preparedBySql = new Map<string, Statement>();
  private readonly sizes = new WeakMap<IndexSelection, boolean>();
  private readonly selections = new WeakMap<IndexSelection, SelectionSql>();
  /** The deadline of the statement running on this connection (`grid_in_time()`). */
  private deadline = Infinity;

  constructor(private readonly db: Database, private readonly reader?: SqliteReader) {
    defineInTime(db, () => this.deadline);
    registerLike(db);
    const p = (sql: string): Statement => db.prepare(sql);
    this.stmts = {
      findType: p('SELECT type_id FROM index_types WHERE cache_id = ? AND name = ?').pluck(),
      insertType: p('INSERT INTO index_types (cache_id, name) VALUES (?, ?)'),
      findField: p('SELECT field_id FROM index_fields WHERE type_id = ? AND path = ?').pluck(),
      insertField: p('INSERT INTO index_fields (type_id, path) VALUES (?, ?)'),
      findDoc: p('SELECT doc_id, has_text FROM index_docs WHERE cache_id = ? AND key = ?'),
      insertDoc: p('INSERT INTO index_docs (cache_id, type_id, key, expires_at, has_text) VALUES (?, ?, ?, ?, ?)'),
      updateDoc: p('UPDATE index_docs SET type_id = ?, expires_at = ?, has_text = ? WHERE doc_id = ?'),
      deleteDoc: p('DELETE FROM index_docs WHERE doc_id = ?'),
      deleteValues: p('DELETE FROM index_values WHERE doc_id = ?'),
      insertText: p('INSERT INTO index_text (rowid, body) VALUES (?, ?)'),
      deleteText: p('DELETE FROM index_text WHERE rowid = ?'),
      markMemoryOnly: p('INSERT OR IGNORE INTO index_memory_only (doc_id) VALUES (?)'),
      unmarkMemoryOnly: p('DELETE FROM index_memory_only WHERE doc_id = ?'),
      lastDoc: p('SELECT max(doc_id) FROM index_docs WHERE type_id = ?').pluck(),
      anyExpired: p('SELECT 1 FROM index_docs WHERE cache_id = ? AND expires_at IS NOT NULL AND expires_at <= ? LIMIT 1').pluck(),
      vocabulary: p('SELECT term FROM index_terms WHERE term >= ? AND term < ? ORDER BY term LIMIT ?').pluck(),
      // one B-tree seek per distinct value, however many documents share each
      distinctValues: p(`WITH RECURSIVE v(x) AS (SELECT (SELECT min(value) FROM index_values WHERE field_id = @field AND value > @after)
        UNION ALL SELECT (SELECT min(value) FROM index_values WHERE field_id = @field AND value > v.x) FROM v WHERE v.x IS NOT NULL LIMIT @limit)
        SELECT x FROM v WHERE x IS NOT NULL`).pluck(),
      distinctFirst: p(`WITH RECURSIVE v(x) AS (SELECT (SELECT min(value) FROM index_values WHERE field_id = @field)
        UNION ALL SELECT (SELECT min(value) FROM index_values WHERE field_id = @field AND value > v.x) FROM v WHERE v.x IS NOT NULL LIMIT @limit)
        SELECT x FROM v WHERE x IS NOT NULL`).pluck(),
      typesOf: p('SELECT type_id, name FROM index_types WHERE cache_id = ?'),
    };
  }

  apply(op: IndexWriteOp): void {
    switch (op.kind) {
      case 'index.put': return this.put(op.cacheId, op.doc);
      case 'index.delete': return this.delete(op.cacheId, op.key);
      case 'index.clear': return this.clear(op.cacheId);
      case 'index.purgeExpired': return this.purgeExpired(op.cacheId, op.now);
      case 'index.memoryOnly': return this.markMemoryOnly(op.cacheId, op.key, op.memoryOnly);
    }
  }

  put(cacheId: number, doc: IndexDocument): void {
    const typeId = this.ensureType(cacheId, doc.type);
    const hasText = doc.texts.length > 0 ? 1 : 0;
    const existing = this.stmts.findDoc.get(cacheId, doc.key) as { doc_id: number; has_text: number } | undefined;
    let docId: number;
    if (existing) {
      docId = existing.doc_id;
      this.stmts.deleteValues.run(docId);
      if (existing.has_text) this.stmts.deleteText.run(docId);
      this.stmts.updateDoc.run(typeId, doc.expiresAt, hasText, docId);
    } else {
      docId = Number(this.stmts.insertDoc.run(cacheId, typeId, doc.key, doc.expiresAt, hasText).lastInsertRowid);
    }
    if (doc.values.length) this.insertValues(typeId, docId, doc.values);
    if (hasText) this.stmts.insertText.run(docId, this.textBody(typeId, doc.texts));
    this.setMemoryOnly(docId, doc.memoryOnly);
  }

  delete(cacheId: number, key: Buffer): void {
    const existing = this.stmts.findDoc.get(cacheId, key) as { doc_id: number; has_text: number } | undefined;
    if (!existing) return;
    this.stmts.deleteValues.run(existing.doc_id);
    if (existing.has_text) this.stmts.deleteText.run(existing.doc_id);
    this.stmts.unmarkMemoryOnly.run(existing.doc_id);
    this.stmts.deleteDoc.run(existing.doc_id);
  }

  /** Whether only memory holds the document's entry: such documents go at the next start. */
  markMemoryOnly(cacheId: number, key: Buffer, memoryOnly: boolean): void {
    const existing = this.stmts.findDoc.get(cacheId, key) as { doc_id: number } | undefined;
    if (existing) this.setMemoryOnly(existing.doc_id, memoryOnly);
  }

  /**
   * At start nothing is in memory: documents of entries only memory held (a crash lost them) are
   * deleted; how many. Only at start, before anything else writes.
   */
  deleteMemoryOnly(): number {
    const n = (this.db.prepare('SELECT count(*) AS n FROM index_memory_only').get() as { n: number }).n;
    if (n === 0) return 0;
    this.db.transaction(() => {
      this.db.exec(`DELETE FROM index_values WHERE doc_id IN (SELECT doc_id FROM index_memory_only);
        DELETE FROM index_text WHERE rowid IN (SELECT doc_id FROM index_docs WHERE has_text = 1 AND doc_id IN (SELECT doc_id FROM index_memory_only));
        DELETE FROM index_docs WHERE doc_id IN (SELECT doc_id FROM index_memory_only);
        DELETE FROM index_memory_only;`);
    })();
    return n;
  }

  clear(cacheId: number): void {
    this.deleteDocs('cache_id = ?', [cacheId]);
  }

  purgeExpired(cacheId: number, now: number): void {
    this.deleteDocs('cache_id = ? AND expires_at IS NOT NULL AND expires_at <= ?', [cacheId, now]);
  }

  /** A removed cache: its documents and its type and field names. */
  dropCache(cacheId: number): void {
    this.clear(cacheId);
    this.db.prepare('DELETE FROM index_fields WHERE type_id IN (SELECT type_id FROM index_types WHERE cache_id = ?)').run(cacheId);
    this.db.prepare('DELETE FROM index_types WHERE cache_id = ?').run(cacheId);
    this.forgetUncommitted();
  }

  /** Ids cached from a transaction that rolled back may not exist: read them again. */
  forgetUncommitted(): void {
    this.typeIds.clear();
    this.fieldIds.clear();
  }

  /** Matching documents up to `limit` (the hit count accuracy), and whether there are more. */
  async count(sel: IndexSelection, limit: number): Promise<HitCount> {
    const [{ n }] = await this.read<{ n: number }>(sel, this.selection(sel).count(limit + 1));
    return cappedCount(n, limit);
  }

  /** One page of matches: sorted by `sort` (nulls first ascending), else by relevance then index order. */
  page(sel: IndexSelection, sort: IndexSortKey[], offset: number, limit: number): Promise<IndexHit[]> {
    return this.read<IndexHit>(sel, this.selection(sel).page(sort, offset, limit));
  }

  /**
   * Matches after `afterDocId` in doc_id order, up to `limit`, and where the next batch starts
   * (undefined at the end): plans that stream every candidate read them this way. A small
   * selection is read driver first; a large one in windows of BATCH_WINDOW doc_ids.
   */
  async batch(sel: IndexSelection, afterDocId: number, limit: number): Promise<{ hits: IndexHit[]; next: number | undefined }> {
    const low = Math.floor(afterDocId);
    if (!this.isLarge(sel)) {
      const hits = await this.read<IndexHit>(sel, this.selection(sel).batchAfter(low, limit));
      return { hits, next: hits.length === limit ? hits[hits.length - 1].docId : undefined };
    }
    const high = low + BATCH_WINDOW;
    const hits = await this.read<IndexHit>(sel, this.selection(sel).batchWindow(low, high, limit));
    if (hits.length === limit) return { hits, next: hits[hits.length - 1].docId };
    const last = this.stmts.lastDoc.get(this.typeId(sel.cacheId, sel.type)) as number | null;
    return { hits, next: last !== null && high < last ? high : undefined };
  }

  /**
   * COUNT per value of a single-valued field over the matches (native aggregation,
   * docs/reference/query.md#aggregation), at most `limit` groups.
   */
  async groupCount(sel: IndexSelection, field: string, countField: string | undefined, descending: boolean, limit: number): Promise<Array<{ value: IndexValue; n: number }>> {
    const rows = await this.read<{ value: IndexValue; exact: string | null; n: number }>(sel, this.selection(sel).groupCount(field, countField, descending, limit));
    return rows.map((r) => ({ value: r.exact === null ? r.value : BigInt(r.exact), n: r.n }));
  }

  /** Terms of an analyzed field from `from` (inclusive), in order: the vocabulary fuzzy and regexp queries expand over. */
  terms(cacheId: number, type: string, field: string, from: string, limit: number): string[] {
    const id = this.fieldId(this.typeId(cacheId, type), field);
    const prefix = textToken(id, '');
    const rows = this.stmts.vocabulary.all(textToken(id, from), `${id}y`, limit) as string[];
    return rows.map((t) => Buffer.from(t.slice(prefix.length), 'hex').toString('utf8'));
  }

  /** Distinct values of a field after `after` (undefined: from the start), in index order. */
  values(cacheId: number, type: string, field: string, after: IndexValue | undefined, limit: number): IndexValue[] {
    const id = this.fieldId(this.typeId(cacheId, type), field);
    return (after === undefined ? this.stmts.distinctFirst.all({ field: id, limit }) : this.stmts.distinctValues.all({ field: id, after: sqlValue(after), limit })) as IndexValue[];
  }

  /** Documents per type and an estimate of their size; counting a large index runs on the reader thread. */
  async stats(cacheId: number): Promise<IndexTypeStats[]> {
    const types = this.stmts.typesOf.all(cacheId) as Array<{ type_id: number; name: string }>;
    const sql = 'SELECT (SELECT count(*) FROM index_docs WHERE type_id = ?) AS count, avg(length(key)) AS key_bytes, avg((SELECT count(*) FROM index_values v WHERE v.doc_id = d.doc_id)) AS values_per_doc FROM (SELECT doc_id, key FROM index_docs WHERE type_id = ? LIMIT 100) d';
    return Promise.all(types.map(async (t) => {
      const params = [t.type_id, t.type_id];
      const [m] = this.reader ? await this.reader.all<TypeMeasure>(sql, params) : [this.prepared(sql).get(...params) as TypeMeasure];
      const perDoc = 48 + (m.key_bytes ?? 0) + (m.values_per_doc ?? 0) * 40;
      return { type: t.name, count: m.count, size: 4096 + Math.round(m.count * perDoc) };
    }));
  }

  /** Whether the cache ever had a document: its types stay registered when the index is cleared. */
  hasTypes(cacheId: number): boolean {
    return (this.stmts.typesOf.all(cacheId) as unknown[]).length > 0;
  }

  /** The query plan SQLite chooses for a selection (tests prove the index is used). */
  explain(sel: IndexSelection, sort: IndexSortKey[]): string[] {
    const q = this.selection(sel).explain(sort);
    return (this.db.prepare(q.sql).all(...q.params) as Array<{ detail: string }>).map((r) => r.detail);
  }

  /** The statements of a selection, built once per selection (a query asks for several). */
  private selection(sel: IndexSelection): SelectionSql {
    let sql = this.selections.get(sel);
    if (!sql) {
      const typeId = this.typeId(sel.cacheId, sel.type);
      sql = new SelectionSql(sel, typeId, (p) => this.fieldId(typeId, p), this.stmts.anyExpired.get(sel.cacheId, sel.now) !== undefined);
      this.selections.set(sel, sql);
    }
    return sql;
  }

  /**
   * Rows of a statement over `sel`: on the event loop when the selection is small, else on the
   * reader thread; either way not started past the selection's deadline, and stopped at it.
   */
  private read<T>(sel: IndexSelection, q: Sql): Promise<T[]> {
    if (this.reader && this.isLarge(sel)) return this.reader.all<T>(q.sql, q.params, sel.deadline);
    this.deadline = sel.deadline ?? Infinity;
    try {
      if (sharedNow() >= this.deadline) throw deadlinePassed();
      return Promise.resolve(this.prepared(q.sql).all(...q.params) as T[]);
    } catch (err) {
      return Promise.reject(err);
    } finally {
      this.deadline = Infinity;
    }
  }

  /**
   * More than ON_LOOP_CANDIDATES candidates, or full-text searches of more than ON_LOOP_TERMS
   * terms: the selection's statements may take long. Counted once per selection, up to that
   * bound, along the driver (or the type's documents). A LIKE reads whole values, as long as a
   * client made them (a 200 KB value costs 0.3 ms): its selections are not counted, they always
   * go to the reader thread.
   */
  private isLarge(sel: IndexSelection): boolean {
    let large = this.sizes.get(sel);
    if (large === undefined && this.reader && hasLike(sel.filter)) this.sizes.set(sel, (large = true));
    if (large === undefined) {
      const selection = this.selection(sel);
      const q = selection.candidates(ON_LOOP_CANDIDATES + 1);
      large = selection.textTerms > ON_LOOP_TERMS || (this.prepared(q.sql).get(...q.params) as { n: number }).n > ON_LOOP_CANDIDATES;
      this.sizes.set(sel, large);
    }
    return large;
  }

  /** Statements are prepared once per SQL text: preparing costs as much as running a small query. */
  private prepared(sql: string): Statement {
    let stmt = this.preparedBySql.get(sql);
    if (!stmt) {
      if (this.preparedBySql.size >= STATEMENTS) this.preparedBySql.clear();
      this.preparedBySql.set(sql, (stmt = this.db.prepare(sql)));
    }
    return stmt;
  }

  private deleteDocs(where: string, params: unknown[]): void {
    this.db.prepare(`DELETE FROM index_values WHERE doc_id IN (SELECT doc_id FROM index_docs WHERE ${where})`).run(...params);
    this.db.prepare(`DELETE FROM index_text WHERE rowid IN (SELECT doc_id FROM index_docs WHERE ${where} AND has_text = 1)`).run(...params);
    this.db.prepare(`DELETE FROM index_memory_only WHERE doc_id IN (SELECT doc_id FROM index_docs WHERE ${where})`).run(...params);
    this.db.prepare(`DELETE FROM index_docs WHERE ${where}`).run(...params);
  }

  private setMemoryOnly(docId: number, memoryOnly: boolean): void {
    (memoryOnly ? this.stmts.markMemoryOnly : this.stmts.unmarkMemoryOnly).run(docId);
  }

  /** One multi-row INSERT per document (statements cached per row count): fewer calls into SQLite. */
  private insertValues(typeId: number, docId: number, values: IndexDocument['values']): void {
    const n = values.length;
    let stmt = this.valueInserts.get(n);
    if (!stmt) {
      stmt = this.db.prepare(`INSERT OR IGNORE INTO index_values (field_id, value, doc_id) VALUES ${Array(n).fill('(?, ?, ?)').join(', ')}`);
      if (n <= 64) this.valueInserts.set(n, stmt);
    }
    const params: unknown[] = new Array(n * 3);
    for (let i = 0; i < n; i++) {
      params[i * 3] = this.ensureField(typeId, values[i][0]);
      params[i * 3 + 1] = sqlValue(values[i][1]);
      params[i * 3 + 2] = docId;
    }
    stmt.run(...params);
  }

  private textBody(typeId: number, texts: IndexDocument['texts']): string {
    const parts: string[] = [];
    for (const [path, values] of texts) {
      const id = this.ensureField(typeId, path);
      values.forEach((tokens, i) => {
        if (i > 0) parts.push(valueGap(id));
        for (const t of tokens) parts.push(textToken(id, t));
      });
    }
    return parts.join(' ');
  }

  private typeId(cacheId: number, name: string): number {
    const k = `${cacheId}\0${name}`;
    const known = this.typeIds.get(k);
    if (known !== undefined) return known;
    const id = this.stmts.findType.get(cacheId, name) as number | undefined;
    if (id !== undefined) this.typeIds.set(k, id);
    return id ?? -1;
  }

  private ensureType(cacheId: number, name: string): number {
    const id = this.typeId(cacheId, name);
    if (id >= 0) return id;
    const created = Number(this.stmts.insertType.run(cacheId, name).lastInsertRowid);
    this.typeIds.set(`${cacheId}\0${name}`, created);
    return created;
  }

  private fieldId(typeId: number, path: string): number {
    const k = `${typeId}\0${path}`;
    const known = this.fieldIds.get(k);
    if (known !== undefined) return known;
    const id = this.stmts.findField.get(typeId, path) as number | undefined;
    if (id !== undefined) this.fieldIds.set(k, id);
    return id ?? -1;
  }

  private ensureField(typeId: number, path: string): number {
    const id = this.fieldId(typeId, path);
    if (id >= 0) return id;
    const created = Number(this.stmts.insertField.run(typeId, path).lastInsertRowid);
    this.fieldIds.set(`${typeId}\0${path}`, created);
    return created;
  }
}

function hasLike(f: IndexFilter): boolean {
  switch (f.kind) {
    case 'like': return true;
    case 'and': case 'or': return f.items.some(hasLike);
    case 'not': return hasLike(f.item);
    default: return false;
  }
}

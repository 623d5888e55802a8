import { InvalidQueryError } from '../../errors';
import type { Condition, FieldRef, Scalar, TextMatch } from '../../model/ickle/analyzed-query';
import { analyzeText, normalizeKeyword } from '../../model/ickle/text-analyzers';
import type { IndexFilter, IndexValue } from '../../store/store';
import type { CacheIndex } from './cache-index';
import type { IndexLayout } from './index-documents';
import { heavyPatternWork } from '../../model/ickle/pattern-work';
import { compileWildcard } from '../../model/ickle/wildcard';
import type { QueryBudget } from './query-budget';
import { editDistance } from './text-match';

/** The exact index filter of a condition, if every part is indexed, and an index superset of it. */
export interface FilterPair {
  exact: IndexFilter | undefined;
  superset: IndexFilter;
}

const ALL: IndexFilter = { kind: 'all' };
const NONE: IndexFilter = { kind: 'none' };
/** Terms a wildcard, regexp or range may expand to; Lucene's fuzzy queries keep the best 50. */
const MAX_TERMS = 4096;
const MAX_FUZZY_TERMS = 50;
const PAGE = 1000;
const LOWERCASING = new Set(['standard', 'simple', 'stemmer', 'ngram', 'filename']);

/**
 * Translates a query condition into index filters (docs/reference/query.md#index-translation): conditions on searchable
 * fields become B-tree lookups, full-text ones FTS5 searches (fuzzy, wildcard, regexp and range
 * terms expanded over the field's vocabulary). Parts on fields without an index make the plan
 * hybrid: the superset replaces them by "all" where that keeps every match (docs/reference/query.md#semantic-checks, Boole–Shannon).
 * Every vocabulary page an expansion reads counts against the query's budget (`query-expansion-terms`).
 */
export class IndexFilterBuilder {
  constructor(private readonly index: CacheIndex, private readonly type: string, private readonly layout: IndexLayout, private readonly budget: QueryBudget) {}

  async translate(c: Condition): Promise<FilterPair> {
    switch (c.kind) {
      case 'true': return { exact: ALL, superset: ALL };
      case 'false': return { exact: NONE, superset: NONE };
      case 'and': case 'or': {
        const parts: FilterPair[] = [];
        for (const item of c.items) parts.push(await this.translate(item));
        const exact = parts.every((p) => p.exact) ? combine(c.kind, parts.map((p) => p.exact!)) : undefined;
        return { exact, superset: combine(c.kind, parts.map((p) => p.superset)) };
      }
      case 'not': {
        const inner = await this.translate(c.item);
        return inner.exact ? { exact: negate(inner.exact), superset: negate(inner.exact) } : { exact: undefined, superset: ALL };
      }
      default: {
        const f = await this.leaf(c);
        return f ? { exact: f, superset: f } : { exact: undefined, superset: ALL };
      }
    }
  }

  private async leaf(c: Exclude<Condition, { kind: 'true' | 'false' | 'and' | 'or' | 'not' }>): Promise<IndexFilter | undefined> {
    if (c.kind === 'text') return this.text(c.field, c.match);
    if ('column' in c.target) return undefined;
    const field = this.layout.byPath.get(c.target.key);
    if (!field || field.kind !== 'value' || !c.target.leaf.flags.searchable) return undefined;
    const key = c.target.key;
    const norm = (v: Scalar): IndexValue => normalized(c.target as FieldRef, v);
    switch (c.kind) {
      case 'compare': {
        const value = norm(c.value);
        if (c.op === '=') return { kind: 'eq', field: key, value };
        const lower = c.op === '>' || c.op === '>=';
        return lower
          ? { kind: 'range', field: key, lower: value, includeLower: c.op === '>=', includeUpper: false }
          : { kind: 'range', field: key, upper: value, includeLower: false, includeUpper: c.op === '<=' };
      }
      case 'in': return { kind: 'in', field: key, values: c.values.map(norm) };
      case 'like': return likeFilter(key, c.pattern);
      case 'isNull': return { kind: 'not', item: { kind: 'exists', field: key } };
    }
  }

  private async text(ref: FieldRef, match: TextMatch): Promise<IndexFilter | undefined> {
    const field = this.layout.byPath.get(ref.key);
    if (!field) return undefined;
    const leaf = ref.leaf;
    if (field.kind === 'value') return this.keywordText(ref, match);
    const fold = (s: string): string => (LOWERCASING.has(leaf.analyzer ?? 'standard') ? s.toLowerCase() : s);
    const terms = (list: string[]): IndexFilter => (list.length ? { kind: 'text', search: { kind: 'terms', field: ref.key, terms: list } } : NONE);
    switch (match.kind) {
      case 'term': {
        const tokens = analyzeText(leaf.analyzer, match.text);
        if (tokens.length === 0) return NONE;
        if (tokens.length > 1) return { kind: 'text', search: { kind: 'phrase', field: ref.key, terms: tokens, slop: match.slop ?? 0 } };
        if (!match.fuzzy) return terms(tokens);
        return terms(await this.fuzzy(tokens[0], match.fuzzy, (from) => this.vocabulary(ref.key, from)));
      }
      case 'wildcard': {
        const pattern = fold(match.pattern);
        const prefix = literalPrefix(pattern);
        if (/^[^*?\\]*\*$/.test(pattern)) return { kind: 'text', search: { kind: 'prefix', field: ref.key, prefix } };
        const matches = compileWildcard(pattern, '*', '?');
        return terms(await this.expand(ref.key, prefix, matches, (t) => !t.startsWith(prefix)));
      }
      case 'regexp': {
        const re = match.regexp;
        return terms(await this.expand(ref.key, '', (t) => re.test(t), () => false));
      }
      case 'range': {
        const lower = match.lower === undefined ? '' : fold(String(match.lower));
        const upper = match.upper === undefined ? undefined : fold(String(match.upper));
        const within = (t: string): boolean => (match.lower === undefined || t > lower || (match.includeLower && t === lower))
          && (upper === undefined || t < upper || (match.includeUpper && t === upper));
        return terms(await this.expand(ref.key, lower, within, (t) => upper !== undefined && t > upper));
      }
    }
  }

  /** Full-text on a normalized @Keyword field: the whole normalized value is the one term. */
  private async keywordText(ref: FieldRef, match: TextMatch): Promise<IndexFilter | undefined> {
    const key = ref.key;
    const norm = (s: string): string => normalizeKeyword(ref.leaf.normalizer, s);
    switch (match.kind) {
      case 'range':
        return { kind: 'range', field: key, lower: match.lower, upper: match.upper, includeLower: match.includeLower, includeUpper: match.includeUpper };
      case 'term': {
        if (!match.fuzzy) return { kind: 'eq', field: key, value: norm(match.text) };
        const values = await this.fuzzy(norm(match.text), match.fuzzy, (from) => this.stringValues(key, from));
        return values.length ? { kind: 'in', field: key, values } : NONE;
      }
      case 'wildcard': return wildcardFilter(key, norm(match.pattern));
      case 'regexp': {
        const re = match.regexp;
        const values: string[] = [];
        let from = '';
        for (;;) {
          const page = this.stringValues(key, from);
          for (const v of page) {
            if (re.test(v)) values.push(v);
            if (this.due()) await this.budget.slice.pause();
          }
          if (values.length > MAX_TERMS) throw tooManyTerms(match.pattern);
          if (page.length < PAGE) break;
          from = page[page.length - 1] + '\0';
          if (this.budget.slice.spent()) await this.budget.slice.pause();
        }
        return values.length ? { kind: 'in', field: key, values } : NONE;
      }
    }
  }

  /** Checked after each term a pattern was tested on: the pattern's work is charged to the slice term by term. */
  private due(): boolean {
    return this.budget.slice.due() || (heavyPatternWork() && this.budget.slice.spent());
  }

  private stringValues(field: string, from: string): string[] {
    const after = from === '' ? undefined : from;
    return this.counted(this.index.reads.values(this.index.cache.id, this.type, field, after, PAGE).map(String));
  }

  private vocabulary(field: string, from: string): string[] {
    return this.counted(this.index.reads.terms(this.index.cache.id, this.type, field, from, PAGE));
  }

  private counted(page: string[]): string[] {
    this.budget.expand(page.length);
    return page;
  }

  /** Terms of a text field from `from` on that pass `test`, until `stop` says the rest cannot. */
  private async expand(field: string, from: string, test: (t: string) => boolean, stop: (t: string) => boolean): Promise<string[]> {
    const found: string[] = [];
    let at = from;
    for (;;) {
      const page = this.vocabulary(field, at);
      for (const t of page) {
        if (stop(t)) return found;
        if (test(t)) found.push(t);
        if (this.due()) await this.budget.slice.pause();
      }
      if (found.length > MAX_TERMS) throw tooManyTerms(from);
      if (page.length < PAGE) return found;
      at = page[page.length - 1] + '\0';
      if (this.budget.slice.spent()) await this.budget.slice.pause();
    }
  }

  /** The closest terms within `edits` (Damerau–Levenshtein), best 50 first, as Lucene's FuzzyQuery. */
  private async fuzzy(term: string, edits: number, page: (from: string) => string[]): Promise<string[]> {
    const found: Array<[number, string]> = [];
    let from = '';
    for (;;) {
      const terms = page(from);
      for (const t of terms) {
        const d = editDistance(t, term, edits);
        if (d <= edits) found.push([d, t]);
      }
      if (terms.length < PAGE) break;
      from = terms[terms.length - 1] + '\0';
      if (this.budget.slice.spent()) await this.budget.slice.pause();
    }
    return found.sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : 1)).slice(0, MAX_FUZZY_TERMS).map(([, t]) => t);
  }
}

function combine(kind: 'and' | 'or', items: IndexFilter[]): IndexFilter {
  const absorbing = kind === 'and' ? 'none' : 'all';
  const neutral = kind === 'and' ? 'all' : 'none';
  if (items.some((i) => i.kind === absorbing)) return kind === 'and' ? NONE : ALL;
  let rest = items.filter((i) => i.kind !== neutral);
  if (kind === 'and') rest = mergeRanges(rest);
  if (rest.length === 0) return kind === 'and' ? ALL : NONE;
  return rest.length === 1 ? rest[0] : { kind, items: rest };
}

/**
 * `a >= x AND a < y` (and BETWEEN) become one range on the field: one B-tree range instead of a
 * half-open one that would drive the query over half the documents.
 */
function mergeRanges(items: IndexFilter[]): IndexFilter[] {
  const out: IndexFilter[] = [];
  const byField = new Map<string, Extract<IndexFilter, { kind: 'range' }>>();
  for (const item of items) {
    if (item.kind !== 'range') {
      out.push(item);
      continue;
    }
    const known = byField.get(item.field);
    if (!known) {
      const copy = { ...item };
      byField.set(item.field, copy);
      out.push(copy);
      continue;
    }
    if (item.lower !== undefined && (known.lower === undefined || item.lower > known.lower || (item.lower === known.lower && !item.includeLower))) {
      known.lower = item.lower;
      known.includeLower = item.includeLower;
    }
    if (item.upper !== undefined && (known.upper === undefined || item.upper < known.upper || (item.upper === known.upper && !item.includeUpper))) {
      known.upper = item.upper;
      known.includeUpper = item.includeUpper;
    }
  }
  return out;
}

function negate(f: IndexFilter): IndexFilter {
  if (f.kind === 'all') return NONE;
  if (f.kind === 'none') return ALL;
  return f.kind === 'not' ? f.item : { kind: 'not', item: f };
}

/** Strings of a @Keyword field with a normalizer are compared normalized, as the index holds them. */
function normalized(ref: FieldRef, v: Scalar): IndexValue {
  return ref.leaf.flags.normalized && typeof v === 'string' ? normalizeKeyword(ref.leaf.normalizer, v) : v;
}

/** LIKE over the field's values (`grid_like` in the index, linear in each value). */
function likeFilter(field: string, pattern: string): IndexFilter {
  return toLike(field, pattern, { '%': '%', _: '_' });
}

/** A Lucene wildcard over whole values (`*`, `?`, backslash escapes), as a LIKE. */
function wildcardFilter(field: string, pattern: string): IndexFilter {
  return toLike(field, pattern, { '*': '%', '?': '_' });
}

/** The pattern in LIKE syntax with its literal start; a pattern without wildcards is an equality. */
function toLike(field: string, pattern: string, wildcards: Record<string, string>): IndexFilter {
  let like = '';
  let prefix = '';
  let literal = true;
  for (let i = 0; i < pattern.length; i++) {
    let c = pattern[i];
    const escaped = c === '\\' && i + 1 < pattern.length;
    if (escaped) c = pattern[++i];
    if (!escaped && wildcards[c]) {
      like += wildcards[c];
      literal = false;
      continue;
    }
    like += c === '%' || c === '_' || c === '\\' ? `\\${c}` : c;
    if (literal) prefix += c;
  }
  return literal ? { kind: 'eq', field, value: prefix } : { kind: 'like', field, pattern: like, prefix };
}

function literalPrefix(pattern: string): string {
  let prefix = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '*' || c === '?') break;
    if (c === '\\' && i + 1 < pattern.length) prefix += pattern[++i];
    else prefix += c;
  }
  return prefix;
}

function tooManyTerms(what: string): InvalidQueryError {
  return new InvalidQueryError(`The full-text query '${what}' matches more than ${MAX_TERMS} terms; make it more specific`);
}

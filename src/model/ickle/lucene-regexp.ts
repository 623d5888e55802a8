import { RE2JS } from 're2js';
import { InvalidQueryError } from '../../errors';
import { MAX_REGEXP_DEPTH, MAX_REGEXP_SIZE, patternShown } from './pattern-limits';
import { chargePatternWork } from './pattern-work';

/** A full-text `/regexp/` compiled for whole-term matching. */
export interface TermRegExp {
  test(term: string): boolean;
  /** Steps per character of a term, at most (pattern-limits.ts counts them per query). */
  readonly weight: number;
}

/**
 * A full-text `/regexp/` in Lucene's syntax (RegExp with no optional flags, as the original's
 * regexp predicate builds it), matched against whole terms by RE2 (re2js): an automaton, linear
 * in the term, however the pattern is written — JavaScript's RegExp backtracks, and stacked `.*`
 * took it minutes over ordinary words. Lucene's syntax is translated, not passed on: `"…"` is a
 * literal string, `\` makes any character literal (`\d \s \w \D \S \W` are classes), `^ $ # @ & ~ <`
 * are plain characters, an operator where an operand should be is that character, `.` is any
 * character, newlines included. The size once repetitions are written out is bounded (Lucene
 * bounds its automaton instead).
 */
export function compileTermRegExp(pattern: string): TermRegExp {
  const parsed = new LuceneRegExpParser(pattern).parse();
  const re = RE2JS.compile(parsed.re, RE2JS.DOTALL);
  // the automaton's states per character: few on its DFA path, up to the size on its NFA path
  const weight = 1 + Math.ceil(parsed.size / 16);
  return {
    weight,
    test(term) {
      chargePatternWork(term.length * weight);
      return re.testExact(term);
    },
  };
}

/** A translated part: RE2 syntax, and its size (characters matched, repetitions written out). */
interface Part {
  re: string;
  size: number;
}

type Ranges = Array<[number, number]>;

const MAX_CODE_POINT = 0x10ffff;
const NOTHING: Part = { re: `[^\\x{0}-\\x{${MAX_CODE_POINT.toString(16)}}]`, size: 1 };
const EMPTY: Part = { re: '(?:)', size: 0 };
const DIGITS: Ranges = [[0x30, 0x39]];
// Java's \s, which Lucene follows: space, \t \n \x0B \f \r
const SPACES: Ranges = [[0x09, 0x0d], [0x20, 0x20]];
const WORD: Ranges = [[0x30, 0x39], [0x41, 0x5a], [0x5f, 0x5f], [0x61, 0x7a]];

/** Lucene's RegExp grammar (its parse methods, without optional flags), emitting RE2 syntax. */
class LuceneRegExpParser {
  private pos = 0;
  private depth = 0;

  constructor(private readonly pattern: string) {}

  parse(): Part {
    const e = this.union();
    if (this.pos < this.pattern.length) this.fail(`end-of-string expected at position ${this.pos}`);
    return e;
  }

  private union(): Part {
    const alternatives = [this.concat()];
    while (this.match('|')) alternatives.push(this.concat());
    if (alternatives.length === 1) return alternatives[0];
    return this.sized({ re: alternatives.map((a) => a.re).join('|'), size: sum(alternatives) });
  }

  private concat(): Part {
    const parts = [this.repeat()];
    while (this.more() && !this.peek(')|')) parts.push(this.repeat());
    if (parts.length === 1) return parts[0];
    return this.sized({ re: parts.map((p) => `(?:${p.re})`).join(''), size: sum(parts) });
  }

  private repeat(): Part {
    let e = this.atom();
    let applied = 0;
    while (this.peek('?*+{')) {
      if (++applied + this.depth > MAX_REGEXP_DEPTH) this.tooDeep();
      const op = this.next();
      if (op !== '{') {
        e = this.sized({ re: `(?:${e.re})${op}`, size: e.size });
        continue;
      }
      const min = this.integer();
      let max: number | undefined = min;
      if (this.match(',')) max = this.peek('0123456789') ? this.integer() : undefined;
      if (!this.match('}')) this.fail(`expected '}' at position ${this.pos}`);
      if (max !== undefined && max < min) e = NOTHING; // Lucene: the empty language
      else if (e.size === 0) e = EMPTY; // only the empty string repeats into itself
      else e = this.sized({ re: `(?:${e.re}){${min},${max ?? ''}}`, size: e.size * Math.max(max ?? min, 1) });
    }
    return e;
  }

  private atom(): Part {
    if (this.match('[')) return this.charClass();
    if (this.match('.')) return { re: '.', size: 1 };
    if (this.match('"')) {
      const start = this.pos;
      while (this.more() && !this.peek('"')) this.next();
      if (!this.match('"')) this.fail(`expected '"' at position ${this.pos}`);
      const text = this.pattern.slice(start, this.pos - 1);
      return this.sized({ re: [...text].map((c) => literal(c.codePointAt(0)!)).join(''), size: [...text].length });
    }
    if (this.match('(')) {
      if (this.match(')')) return EMPTY;
      if (++this.depth > MAX_REGEXP_DEPTH) this.tooDeep();
      const e = this.union();
      this.depth--;
      if (!this.match(')')) this.fail(`expected ')' at position ${this.pos}`);
      return { re: e.re, size: e.size };
    }
    const predefined = this.predefinedClass();
    if (predefined) return { re: classOf(predefined), size: 1 };
    return { re: literal(this.charExp()), size: 1 };
  }

  private charClass(): Part {
    const negated = this.match('^');
    let ranges: Ranges = [];
    do {
      const predefined = this.predefinedClass();
      if (predefined) {
        ranges.push(...predefined);
        continue;
      }
      const from = this.charExp();
      if (!this.match('-')) {
        ranges.push([from, from]);
        continue;
      }
      const to = this.charExp();
      if (from > to) this.fail(`invalid range: from (${from}) cannot be > to (${to})`);
      ranges.push([from, to]);
    } while (this.more() && !this.peek(']'));
    if (!this.match(']')) this.fail(`expected ']' at position ${this.pos}`);
    ranges = normalize(ranges);
    return { re: classOf(negated ? complement(ranges) : ranges), size: 1 };
  }

  /** `\d \s \w` and their complements `\D \S \W`; undefined (nothing read) for any other input. */
  private predefinedClass(): Ranges | undefined {
    if (this.pattern[this.pos] !== '\\') return undefined;
    const c = this.pattern[this.pos + 1];
    const ranges = c === 'd' || c === 'D' ? DIGITS : c === 's' || c === 'S' ? SPACES : c === 'w' || c === 'W' ? WORD : undefined;
    if (!ranges) return undefined;
    this.pos += 2;
    return c === c.toUpperCase() ? complement(ranges) : ranges;
  }

  /** One character, `\` making any character literal. */
  private charExp(): number {
    this.match('\\');
    return this.next().codePointAt(0)!;
  }

  private integer(): number {
    const start = this.pos;
    while (this.peek('0123456789')) this.pos++;
    if (start === this.pos) this.fail(`integer expected at position ${this.pos}`);
    return Number(this.pattern.slice(start, this.pos));
  }

  private sized(p: Part): Part {
    if (p.size > MAX_REGEXP_SIZE) {
      throw new InvalidQueryError(`The regular expression /${patternShown(this.pattern)}/ is too large: more than ${MAX_REGEXP_SIZE} characters once its repetitions are written out (limit: regexp size)`);
    }
    return p;
  }

  private tooDeep(): never {
    throw new InvalidQueryError(`The regular expression /${patternShown(this.pattern)}/ nests groups and repetitions more than ${MAX_REGEXP_DEPTH} deep (limit: regexp depth)`);
  }

  private fail(why: string): never {
    throw new InvalidQueryError(`The regular expression /${patternShown(this.pattern)}/ does not parse: ${why}`);
  }

  private more(): boolean {
    return this.pos < this.pattern.length;
  }

  private peek(chars: string): boolean {
    return this.more() && chars.includes(this.pattern[this.pos]);
  }

  private match(c: string): boolean {
    if (this.pattern[this.pos] !== c) return false;
    this.pos++;
    return true;
  }

  /** The next code point (a surrogate pair is one character, as in Lucene). */
  private next(): string {
    if (!this.more()) this.fail('unexpected end-of-string');
    const c = String.fromCodePoint(this.pattern.codePointAt(this.pos)!);
    this.pos += c.length;
    return c;
  }
}

function sum(parts: Part[]): number {
  return parts.reduce((n, p) => n + p.size, 0);
}

/** A code point as RE2 reads it literally: letters and digits as they are, the rest as `\x{…}`. */
function literal(cp: number): string {
  return /^[A-Za-z0-9]$/.test(String.fromCodePoint(cp)) ? String.fromCodePoint(cp) : `\\x{${cp.toString(16)}}`;
}

function classOf(ranges: Ranges): string {
  if (ranges.length === 0) return NOTHING.re;
  return `[${ranges.map(([a, b]) => (a === b ? literal(a) : `${literal(a)}-${literal(b)}`)).join('')}]`;
}

function normalize(ranges: Ranges): Ranges {
  const sorted = [...ranges].sort((x, y) => x[0] - y[0]);
  const out: Ranges = [];
  for (const [a, b] of sorted) {
    const last = out[out.length - 1];
    if (last && a <= last[1] + 1) last[1] = Math.max(last[1], b);
    else out.push([a, b]);
  }
  return out;
}

function complement(ranges: Ranges): Ranges {
  const out: Ranges = [];
  let next = 0;
  for (const [a, b] of normalize(ranges)) {
    if (a > next) out.push([next, a - 1]);
    next = b + 1;
  }
  if (next <= MAX_CODE_POINT) out.push([next, MAX_CODE_POINT]);
  return out;
}

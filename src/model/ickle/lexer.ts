/**
 * The Ickle lexer (docs/reference/query.md#grammar-lexical): one pass over the text, linear in its length. Keywords are
 * soft (identifiers compared case-insensitively by the parser); only TRUE, FALSE and NULL are
 * tokens of their own. Characters no rule matches are dropped, as the original's lexer does.
 */

export type TokenType =
  | 'IDENTIFIER' | 'QUOTED_IDENTIFIER' | 'STRING_LITERAL' | 'REGEXP_LITERAL'
  | 'INTEGER_LITERAL' | 'DECIMAL_LITERAL' | 'FLOATING_POINT_LITERAL' | 'HEX_LITERAL' | 'OCTAL_LITERAL'
  | 'TRUE' | 'FALSE' | 'NULL'
  | 'EQUALS' | 'NOT_EQUAL' | 'LESS' | 'LESS_EQUAL' | 'GREATER' | 'GREATER_EQUAL' | 'KNN'
  | 'AND' | 'OR' | 'EXCLAMATION' | 'COLON' | 'PARAM'
  | 'LPAREN' | 'RPAREN' | 'LSQUARE' | 'RSQUARE' | 'LCURLY' | 'RCURLY'
  | 'COMMA' | 'DOT' | 'PLUS' | 'MINUS' | 'ASTERISK' | 'HASH' | 'TILDE' | 'CARAT'
  | 'EOF';

export interface Token {
  type: TokenType;
  /** The value: string and regexp literals without their delimiters, everything else as written. */
  text: string;
  index: number;
  start: number;
  stop: number;
  line: number;
  column: number;
}

const SYMBOLS: ReadonlyArray<readonly [string, TokenType]> = [
  ['<->', 'KNN'], ['<>', 'NOT_EQUAL'], ['!=', 'NOT_EQUAL'], ['<=', 'LESS_EQUAL'], ['>=', 'GREATER_EQUAL'],
  ['&&', 'AND'], ['||', 'OR'], ['<', 'LESS'], ['>', 'GREATER'], ['=', 'EQUALS'], ['!', 'EXCLAMATION'],
  [':', 'COLON'], ['?', 'PARAM'], ['(', 'LPAREN'], [')', 'RPAREN'], ['[', 'LSQUARE'], [']', 'RSQUARE'],
  ['{', 'LCURLY'], ['}', 'RCURLY'], [',', 'COMMA'], ['.', 'DOT'], ['+', 'PLUS'], ['-', 'MINUS'],
  ['*', 'ASTERISK'], ['#', 'HASH'], ['~', 'TILDE'], ['^', 'CARAT'],
];

const WORDS: Readonly<Record<string, TokenType>> = { true: 'TRUE', false: 'FALSE', null: 'NULL' };

const isDigit = (c: string): boolean => c >= '0' && c <= '9';
const isIdentStart = (c: string): boolean =>
  (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_' || c === '$' || (c >= '\u0080' && c <= '\ufffe');
const isIdentPart = (c: string): boolean => isIdentStart(c) || isDigit(c);
const isSpace = (c: string): boolean => c === ' ' || c === '\t' || c === '\u000b' || c === '\f' || c === '\r' || c === '\n';

/** Splits a query into tokens, ending with EOF. */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  let line = 1;
  let lineStart = 0;
  const push = (type: TokenType, start: number, end: number, value = text.slice(start, end)): void => {
    tokens.push({ type, text: value, index: tokens.length, start, stop: end - 1, line, column: start - lineStart });
  };
  while (i < text.length) {
    const c = text[i];
    if (isSpace(c)) {
      if (c === '\n' || (c === '\r' && text[i + 1] !== '\n')) {
        line++;
        lineStart = i + 1;
      }
      i++;
      continue;
    }
    const end = scanToken(text, i);
    if (end) {
      push(end.type, i, end.end, end.value);
      i = end.end;
      continue;
    }
    i++; // no rule matches this character: dropped (docs/reference/query.md#grammar-lexical)
  }
  tokens.push({ type: 'EOF', text: '<EOF>', index: tokens.length, start: text.length, stop: text.length - 1, line, column: text.length - lineStart });
  return tokens;
}

interface Scanned { type: TokenType; end: number; value?: string }

function scanToken(text: string, i: number): Scanned | undefined {
  const c = text[i];
  if (isIdentStart(c)) {
    let j = i + 1;
    while (j < text.length && isIdentPart(text[j])) j++;
    return { type: WORDS[text.slice(i, j).toLowerCase()] ?? 'IDENTIFIER', end: j };
  }
  if (isDigit(c) || (c === '.' && isDigit(text[i + 1] ?? ''))) return scanNumber(text, i);
  if (c === "'") return scanSingleQuoted(text, i);
  if (c === '"') return scanDelimited(text, i, '"', 'STRING_LITERAL');
  if (c === '`') return scanDelimited(text, i, '`', 'QUOTED_IDENTIFIER');
  if (c === '/') return scanRegexp(text, i);
  for (const [symbol, type] of SYMBOLS) {
    if (text.startsWith(symbol, i)) return { type, end: i + symbol.length };
  }
  return undefined;
}

function scanNumber(text: string, i: number): Scanned {
  const digitsFrom = (j: number, ok: (c: string) => boolean): number => {
    while (j < text.length && ok(text[j])) j++;
    return j;
  };
  const suffix = (j: number, chars: string): number => (j < text.length && chars.includes(text[j]) ? j + 1 : j);
  if (text[i] === '0' && (text[i + 1] === 'x' || text[i + 1] === 'X')) {
    const end = digitsFrom(i + 2, (c) => /[0-9a-fA-F]/.test(c));
    if (end > i + 2) return { type: 'HEX_LITERAL', end: suffix(end, 'lL') };
  }
  let j = digitsFrom(i, isDigit);
  let float = false;
  if (text[j] === '.') {
    float = true;
    j = digitsFrom(j + 1, isDigit);
  }
  const exponent = /^[eE][+-]?\d/.exec(text.slice(j, j + 3));
  if (exponent) {
    float = true;
    j = digitsFrom(j + exponent[0].length, isDigit);
  }
  if (j < text.length && 'fFdD'.includes(text[j])) return { type: 'FLOATING_POINT_LITERAL', end: j + 1 };
  if (float) return { type: 'FLOATING_POINT_LITERAL', end: j };
  if (text[i] === '0' && j > i + 1) return { type: /^0[0-7]+$/.test(text.slice(i, j)) ? 'OCTAL_LITERAL' : 'INTEGER_LITERAL', end: suffix(j, 'lL') };
  if (j < text.length && (text[j] === 'l' || text[j] === 'L')) return { type: 'DECIMAL_LITERAL', end: j + 1 };
  return { type: 'INTEGER_LITERAL', end: j };
}

/** `'…'` parts follow each other (`'it''s'` is `it's`); backslash sequences are kept as written. */
function scanSingleQuoted(text: string, i: number): Scanned | undefined {
  let j = i;
  while (text[j] === "'") {
    const close = closingQuote(text, j, "'");
    if (close < 0) break;
    j = close + 1;
  }
  if (j === i) return undefined;
  return { type: 'STRING_LITERAL', end: j, value: text.slice(i + 1, j - 1).replace(/''/g, "'") };
}

function scanDelimited(text: string, i: number, quote: string, type: TokenType): Scanned | undefined {
  const close = closingQuote(text, i, quote);
  return close < 0 ? undefined : { type, end: close + 1, value: text.slice(i + 1, close) };
}

function closingQuote(text: string, open: number, quote: string): number {
  for (let j = open + 1; j < text.length; j++) {
    if (text[j] === '\\') j++;
    else if (text[j] === quote) return j;
  }
  return -1;
}

/** `/…/` with `\/` escapes, on one line; only the full-text grammar accepts it. */
function scanRegexp(text: string, i: number): Scanned | undefined {
  for (let j = i + 1; j < text.length; j++) {
    const c = text[j];
    if (c === '\n' || c === '\r') return undefined;
    if (c === '\\') j++;
    else if (c === '/') return { type: 'REGEXP_LITERAL', end: j + 1, value: text.slice(i + 1, j) };
  }
  return undefined;
}

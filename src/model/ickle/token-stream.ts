import { IckleSyntaxError } from '../../errors';
import type { Pos } from './ast';
import type { Token, TokenType } from './lexer';

/** About 150 levels of parentheses; far beyond any real query, far below the JS stack. */
const MAX_RULE_DEPTH = 1000;

/**
 * A cursor over the tokens, shared by the statement, predicate and full-text parsers. It keeps
 * the stack of grammar rules being parsed so syntax errors read like the original's
 * (`[statement, querySpec]: line 1:14 …`, docs/reference/query.md#syntax-errors).
 */
export class TokenStream {
  private at = 0;
  private readonly rules: string[] = [];

  constructor(private readonly tokens: Token[], private readonly query: string) {}

  get current(): Token {
    return this.tokens[this.at];
  }

  peek(offset = 1): Token {
    return this.tokens[Math.min(this.at + offset, this.tokens.length - 1)];
  }

  get position(): number {
    return this.at;
  }

  /** Rewinds to a saved position (bounded lookahead only; every rule still consumes forward). */
  reset(position: number): void {
    this.at = position;
  }

  pos(token: Token = this.current): Pos {
    return { line: token.line, column: token.column };
  }

  is(type: TokenType, offset = 0): boolean {
    return this.peek(offset).type === type;
  }

  /** A soft keyword: an identifier spelled `word` in any case. */
  isWord(word: string, offset = 0): boolean {
    const t = this.peek(offset);
    return t.type === 'IDENTIFIER' && t.text.toLowerCase() === word;
  }

  next(): Token {
    const t = this.tokens[this.at];
    if (t.type !== 'EOF') this.at++;
    return t;
  }

  accept(type: TokenType): Token | undefined {
    return this.is(type) ? this.next() : undefined;
  }

  acceptWord(word: string): boolean {
    if (!this.isWord(word)) return false;
    this.next();
    return true;
  }

  expect(type: TokenType): Token {
    if (!this.is(type)) throw this.mismatch(type);
    return this.next();
  }

  expectWord(word: string): Token {
    if (!this.isWord(word)) throw this.mismatch(word.toUpperCase());
    return this.next();
  }

  /** Runs one grammar rule with its name on the stack; nesting is bounded so no query can exhaust the stack. */
  rule<T>(name: string, body: () => T): T {
    if (this.rules.length >= MAX_RULE_DEPTH) throw this.error(`the query is nested more than ${MAX_RULE_DEPTH} rules deep`);
    this.rules.push(name);
    try {
      return body();
    } finally {
      this.rules.pop();
    }
  }

  mismatch(expected: string): IckleSyntaxError {
    return this.error(`mismatched token: ${this.describe(this.current)}; expecting type ${expected}`);
  }

  noViableAlternative(): IckleSyntaxError {
    return this.error(`no viable alternative; token=${this.describe(this.current)}`);
  }

  error(detail: string, token: Token = this.current): IckleSyntaxError {
    return new IckleSyntaxError(this.query, `[${this.rules.join(', ')}]: line ${token.line}:${token.column} ${detail}`);
  }

  /** ANTLR's token rendering: `[@index,start:stop='text',<TYPE>,line:column]`. */
  private describe(t: Token): string {
    const text = t.type === 'EOF' ? '<EOF>' : this.query.slice(t.start, t.stop + 1);
    return `[@${t.index},${t.start}:${t.stop}='${text}',<${t.type}>,${t.line}:${t.column}]`;
  }
}

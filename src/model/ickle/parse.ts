import type { Statement } from './ast';
import { tokenize } from './lexer';
import { parseStatement } from './parse-statement';
import { TokenStream } from './token-stream';

/**
 * Parses an Ickle statement (docs/reference/query.md#grammar). A hand-written recursive-descent parser: the grammar
 * is small, each rule is one function named after the original's grammar rule, and it runs in
 * time linear in the query's length, with nesting bounded (token-stream.ts).
 * Throws IckleSyntaxError (ISPN028526) with line and column.
 */
export function parseIckle(query: string): Statement {
  return parseStatement(new TokenStream(tokenize(query), query));
}

import type { FullTextQuery, LiteralExpr, Occur } from './ast';
import { isNumberToken, parseLiteral, parseNumber } from './parse-expression';
import type { TokenStream } from './token-stream';

/**
 * The right side of `path : …` (docs/reference/query.md#grammar-full-text, grammar rules ftBoostedQuery and below):
 *   ftBoosted     := ftTermOrQuery ('^' number)?
 *   ftTermOrQuery := ftTerm | ftRange | '(' ftConjunction (OR? ftConjunction)* ')'
 *   ftConjunction := ftClause (AND ftClause)*
 *   ftClause      := ('+' | '-' | '!' | '#' | NOT)? ftBoosted
 *   ftTerm        := literal ('~' number?)? | /regexp/
 *   ftRange       := ('[' | '{') bound TO? bound (']' | '}')
 */
export function parseFullTextQuery(ts: TokenStream): FullTextQuery {
  return ts.rule('ftBoostedQuery', () => {
    const query = parseTermOrQuery(ts);
    if (!ts.is('CARAT')) return query;
    const pos = ts.pos();
    ts.next();
    return { kind: 'boost', query, boost: Number(parseNumber(ts).replace(/[fFdDlL]$/, '')), pos };
  });
}

/** A prefix occurrence operator, if the current token is one. */
export function occurrenceAt(ts: TokenStream, offset = 0): Occur | undefined {
  const t = ts.peek(offset);
  switch (t.type) {
    case 'PLUS': return 'must';
    case 'MINUS': case 'EXCLAMATION': return 'mustNot';
    case 'HASH': return 'filter';
    default: return ts.isWord('not', offset) ? 'mustNot' : undefined;
  }
}

function parseTermOrQuery(ts: TokenStream): FullTextQuery {
  return ts.rule('ftTermOrQuery', () => {
    if (ts.is('LSQUARE') || ts.is('LCURLY')) return parseRange(ts);
    if (ts.is('LPAREN')) return parseGroup(ts);
    return parseTerm(ts);
  });
}

function parseGroup(ts: TokenStream): FullTextQuery {
  const pos = ts.pos();
  ts.expect('LPAREN');
  const alternatives = [parseConjunction(ts)];
  while (!ts.is('RPAREN') && !ts.is('EOF')) {
    if (!ts.accept('OR')) ts.acceptWord('or'); // a missing operator means OR
    alternatives.push(parseConjunction(ts));
  }
  ts.expect('RPAREN');
  return alternatives.length === 1 ? alternatives[0] : { kind: 'or', operands: alternatives, pos };
}

function parseConjunction(ts: TokenStream): FullTextQuery {
  return ts.rule('ftConjunction', () => {
    const pos = ts.pos();
    const clauses = [parseClause(ts)];
    while (ts.is('AND') || ts.isWord('and')) {
      ts.next();
      clauses.push(parseClause(ts));
    }
    return clauses.length === 1 ? clauses[0] : { kind: 'and', operands: clauses, pos };
  });
}

function parseClause(ts: TokenStream): FullTextQuery {
  return ts.rule('ftClause', () => {
    const pos = ts.pos();
    const occur = occurrenceAt(ts);
    if (!occur) return parseFullTextQuery(ts);
    ts.next();
    return { kind: 'occur', occur, query: parseFullTextQuery(ts), pos };
  });
}

function parseTerm(ts: TokenStream): FullTextQuery {
  return ts.rule('ftTerm', () => {
    const pos = ts.pos();
    const t = ts.current;
    if (t.type === 'REGEXP_LITERAL') {
      ts.next();
      return { kind: 'regexp', pattern: t.text, pos };
    }
    if (t.type !== 'STRING_LITERAL' && t.type !== 'COLON' && t.type !== 'PLUS' && t.type !== 'MINUS' && !isNumberToken(ts)) {
      throw ts.noViableAlternative();
    }
    const value = parseLiteral(ts);
    if (!ts.accept('TILDE')) return { kind: 'term', value, tilde: undefined, pos };
    const edits = isNumberToken(ts) ? Number(parseNumber(ts)) : undefined;
    return { kind: 'term', value, tilde: { value: edits }, pos };
  });
}

function parseRange(ts: TokenStream): FullTextQuery {
  return ts.rule('ftRange', () => {
    const pos = ts.pos();
    const includeLower = ts.next().type === 'LSQUARE';
    const lower = parseBound(ts);
    ts.acceptWord('to');
    const upper = parseBound(ts);
    const end = ts.current;
    if (end.type !== 'RSQUARE' && end.type !== 'RCURLY') throw ts.mismatch('RSQUARE');
    ts.next();
    return { kind: 'range', lower, upper, includeLower, includeUpper: end.type === 'RSQUARE', pos };
  });
}

function parseBound(ts: TokenStream): LiteralExpr | undefined {
  return ts.rule('ftRangeBound', () => (ts.accept('ASTERISK') ? undefined : parseLiteral(ts)));
}

import type { CompareOp, Expr, Predicate } from './ast';
import { parseExpr, parsePath } from './parse-expression';
import { occurrenceAt, parseFullTextQuery } from './parse-full-text';
import type { TokenStream } from './token-stream';

const COMPARE: Partial<Record<string, CompareOp>> = {
  EQUALS: '=', NOT_EQUAL: '!=', LESS: '<', LESS_EQUAL: '<=', GREATER: '>', GREATER_EQUAL: '>=',
};

/**
 * Conditions (docs/reference/query.md#grammar-predicates), loosest first:
 *   or       := and ((OR | '||') and)*
 *   and      := not ((AND | '&&') not)*
 *   not      := (NOT | '!') not | primary
 *   primary  := fullText | '(' or ')' | operand postfix*
 *   postfix  := IS [NOT] NULL | (= | != | <> | < | <= | > | >=) operand
 *             | [NOT] IN (…) | [NOT] BETWEEN a AND b | [NOT] LIKE p [ESCAPE e]
 *             | <-> vector [~k] [FILTERING cond] | [NOT] WITHIN shape(…)
 */
export function parsePredicate(ts: TokenStream): Predicate {
  return ts.rule('logicalExpression', () => parseOr(ts));
}

function parseOr(ts: TokenStream): Predicate {
  return ts.rule('logicalOrExpression', () => {
    const pos = ts.pos();
    const operands = [parseAnd(ts)];
    while (ts.is('OR') || ts.isWord('or')) {
      ts.next();
      operands.push(parseAnd(ts));
    }
    return operands.length === 1 ? operands[0] : { kind: 'or', operands, pos };
  });
}

function parseAnd(ts: TokenStream): Predicate {
  return ts.rule('logicalAndExpression', () => {
    const pos = ts.pos();
    const operands = [parseNot(ts)];
    while (ts.is('AND') || ts.isWord('and')) {
      ts.next();
      operands.push(parseNot(ts));
    }
    return operands.length === 1 ? operands[0] : { kind: 'and', operands, pos };
  });
}

function parseNot(ts: TokenStream): Predicate {
  return ts.rule('negatedExpression', () => {
    const pos = ts.pos();
    if (isFullTextAhead(ts)) return parseFullText(ts);
    if (ts.is('EXCLAMATION') || ts.isWord('not')) {
      ts.next();
      return { kind: 'not', operand: parseNot(ts), pos };
    }
    return parsePrimary(ts);
  });
}

/** `[+|-|!|#|NOT] a.b.c :` starts a full-text predicate. */
function isFullTextAhead(ts: TokenStream): boolean {
  let k = occurrenceAt(ts) ? 1 : 0;
  if (!ts.is('IDENTIFIER', k)) return false;
  k++;
  while (ts.is('DOT', k) && ts.is('IDENTIFIER', k + 1)) k += 2;
  return ts.is('COLON', k);
}

function parseFullText(ts: TokenStream): Predicate {
  return ts.rule('fullTextExpression', () => {
    const pos = ts.pos();
    const occur = occurrenceAt(ts);
    if (occur) ts.next();
    const path = parsePath(ts);
    ts.expect('COLON');
    const predicate: Predicate = { kind: 'fullText', path, query: parseFullTextQuery(ts), pos };
    return occur ? { kind: 'occur', occur, operand: predicate, pos } : predicate;
  });
}

function parsePrimary(ts: TokenStream): Predicate {
  return ts.rule('equalityExpression', () => {
    const pos = ts.pos();
    if (ts.is('LPAREN')) {
      ts.next();
      const inner = parseOr(ts);
      ts.expect('RPAREN');
      return inner;
    }
    const left = parseExpr(ts);
    return parsePostfix(ts, left) ?? { kind: 'value', operand: left, pos };
  });
}

function parsePostfix(ts: TokenStream, left: Expr): Predicate | undefined {
  const pos = ts.pos();
  const op = COMPARE[ts.current.type];
  if (op) {
    ts.next();
    return { kind: 'compare', op, left, right: parseExpr(ts), pos };
  }
  if (ts.isWord('is')) {
    ts.next();
    const negated = ts.acceptWord('not') || ts.accept('EXCLAMATION') !== undefined;
    let p: Predicate;
    if (ts.accept('NULL')) p = { kind: 'isNull', operand: left, pos };
    else if (ts.acceptWord('empty')) p = { kind: 'unsupported', what: 'IS EMPTY', pos };
    else throw ts.mismatch('NULL');
    return negated ? { kind: 'not', operand: p, pos } : p;
  }
  if (ts.is('KNN')) return parseKnn(ts, left);
  const negated = ts.isWord('not') || ts.is('EXCLAMATION');
  const k = negated ? 1 : 0;
  const word = ts.peek(k).type === 'IDENTIFIER' ? ts.peek(k).text.toLowerCase() : '';
  if (!['in', 'between', 'like', 'member', 'within'].includes(word)) return undefined;
  if (negated) ts.next();
  ts.next();
  const p = parseRelational(ts, word, left);
  return negated ? { kind: 'not', operand: p, pos } : p;
}

function parseRelational(ts: TokenStream, word: string, operand: Expr): Predicate {
  return ts.rule('relationalExpression', (): Predicate => {
    const pos = ts.pos();
    switch (word) {
      case 'in': {
        ts.expect('LPAREN');
        const values = [parseExpr(ts)];
        while (ts.accept('COMMA')) values.push(parseExpr(ts));
        ts.expect('RPAREN');
        return { kind: 'in', operand, values, pos };
      }
      case 'between': {
        const lower = parseExpr(ts);
        if (!ts.accept('AND')) ts.expectWord('and');
        return { kind: 'between', operand, lower, upper: parseExpr(ts), pos };
      }
      case 'like': {
        const pattern = parseExpr(ts);
        const escape = ts.acceptWord('escape') ? parseExpr(ts) : undefined;
        return { kind: 'like', operand, pattern, escape, pos };
      }
      case 'member': {
        ts.expectWord('of');
        parsePath(ts);
        return { kind: 'unsupported', what: 'MEMBER OF', pos };
      }
      default: return parseGeo(ts, operand);
    }
  });
}

/** `vec <-> [1.0, 2.0]~k [FILTERING cond]` (docs/reference/query.md#knn-and-geo). */
function parseKnn(ts: TokenStream, path: Expr): Predicate {
  return ts.rule('knnExpression', () => {
    const pos = ts.pos();
    ts.expect('KNN');
    const vector = parseExpr(ts);
    const k = ts.accept('TILDE') ? parseExpr(ts) : undefined;
    const filtering = ts.acceptWord('filtering') ? parseNot(ts) : undefined;
    return { kind: 'knn', path, vector, k, filtering, pos };
  });
}

/** `f [NOT] WITHIN CIRCLE(lat, lon, r [unit]) | BOX(…) | POLYGON(…)` ([15.1+], docs/reference/query.md#knn-and-geo). */
function parseGeo(ts: TokenStream, operand: Expr): Predicate {
  return ts.rule('spatialExpression', () => {
    const pos = ts.pos();
    const shape = ts.expect('IDENTIFIER').text.toUpperCase();
    ts.expect('LPAREN');
    const args: Expr[] = [];
    while (!ts.is('RPAREN') && !ts.is('EOF')) {
      args.push(parseExpr(ts));
      ts.accept('COMMA');
    }
    ts.expect('RPAREN');
    return { kind: 'geo', operand, shape, args, pos };
  });
}

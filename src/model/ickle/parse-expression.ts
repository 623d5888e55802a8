import type { AggregateName, Expr, LiteralExpr, PathExpr } from './ast';
import type { TokenStream } from './token-stream';

const AGGREGATES: ReadonlySet<string> = new Set(['count', 'sum', 'avg', 'min', 'max']);

/** Functions the grammar knows; only score() and version() are answered (the rest are refused later). */
const FUNCTIONS: ReadonlySet<string> = new Set(['score', 'version', 'distance', 'size', 'index', 'elements', 'indices']);

const NUMBER_TYPES = new Set(['INTEGER_LITERAL', 'DECIMAL_LITERAL', 'FLOATING_POINT_LITERAL', 'HEX_LITERAL', 'OCTAL_LITERAL']);

/**
 * Operands (the grammar's additiveExpression): property paths, literals, parameters, aggregates
 * and functions. There is no arithmetic in Ickle.
 */
export function parseExpr(ts: TokenStream): Expr {
  return ts.rule('additiveExpression', () => {
    const t = ts.current;
    if (t.type === 'IDENTIFIER' && ts.is('LPAREN', 1)) {
      const name = t.text.toLowerCase();
      if (AGGREGATES.has(name)) return parseAggregate(ts, name.toUpperCase() as AggregateName);
      if (FUNCTIONS.has(name)) return parseFunction(ts, name);
    }
    if (t.type === 'IDENTIFIER') return parsePath(ts);
    if (t.type === 'LSQUARE') return parseVector(ts);
    return parseLiteral(ts);
  });
}

export function parsePath(ts: TokenStream): PathExpr {
  return ts.rule('path', () => {
    const first = ts.expect('IDENTIFIER');
    const segments = [first.text];
    while (ts.is('DOT') && ts.is('IDENTIFIER', 1)) {
      ts.next();
      segments.push(ts.next().text);
    }
    if (ts.is('DOT')) {
      ts.next();
      throw ts.mismatch('IDENTIFIER');
    }
    return { kind: 'path', segments, pos: ts.pos(first) };
  });
}

/** A constant or parameter: strings, signed numbers, TRUE/FALSE/NULL, `:name`, `?`. */
export function parseLiteral(ts: TokenStream): LiteralExpr {
  return ts.rule('constant', () => {
    const t = ts.current;
    const pos = ts.pos(t);
    switch (t.type) {
      case 'STRING_LITERAL': ts.next(); return { kind: 'string', value: t.text, pos };
      case 'TRUE': case 'FALSE': ts.next(); return { kind: 'boolean', value: t.type === 'TRUE', pos };
      case 'NULL': ts.next(); return { kind: 'null', pos };
      case 'COLON': {
        ts.next();
        return { kind: 'param', name: ts.expect('IDENTIFIER').text, pos };
      }
      case 'PARAM': {
        ts.next();
        ts.accept('INTEGER_LITERAL');
        return { kind: 'positionalParam', pos };
      }
      case 'PLUS': case 'MINUS': {
        ts.next();
        const n = parseNumber(ts);
        return { kind: 'number', text: t.type === 'MINUS' ? `-${n}` : n, pos };
      }
      default:
        if (NUMBER_TYPES.has(t.type)) return { kind: 'number', text: parseNumber(ts), pos };
        throw ts.noViableAlternative();
    }
  });
}

export function parseNumber(ts: TokenStream): string {
  if (!NUMBER_TYPES.has(ts.current.type)) throw ts.mismatch('INTEGER_LITERAL');
  return ts.next().text;
}

export function isNumberToken(ts: TokenStream, offset = 0): boolean {
  return NUMBER_TYPES.has(ts.peek(offset).type);
}

/** `count(*)`, `count(p)`, `count(distinct p.x)`, `sum(p.x)`, … */
function parseAggregate(ts: TokenStream, name: AggregateName): Expr {
  return ts.rule('setFunction', () => {
    const pos = ts.pos();
    ts.next();
    ts.expect('LPAREN');
    if (name === 'COUNT' && ts.accept('ASTERISK')) {
      ts.expect('RPAREN');
      return { kind: 'aggregate', name, arg: undefined, distinct: false, pos };
    }
    const distinct = name === 'COUNT' && ts.acceptWord('distinct');
    if (!distinct && name === 'COUNT') ts.acceptWord('all');
    const arg = parsePath(ts);
    ts.expect('RPAREN');
    return { kind: 'aggregate', name, arg, distinct, pos };
  });
}

function parseFunction(ts: TokenStream, name: string): Expr {
  return ts.rule('standardFunction', () => {
    const pos = ts.pos();
    ts.next();
    ts.expect('LPAREN');
    const args: Expr[] = [];
    if (!ts.is('RPAREN')) {
      args.push(parseExpr(ts));
      while (ts.accept('COMMA')) args.push(parseExpr(ts));
    }
    ts.expect('RPAREN');
    return { kind: 'function', name, args, pos };
  });
}

/** `[1.0, 2.0]` or `[:v]`: the vector of a knn predicate. */
function parseVector(ts: TokenStream): Expr {
  return ts.rule('vectorExpr', () => {
    const pos = ts.pos();
    ts.expect('LSQUARE');
    const items: Expr[] = [parseLiteral(ts)];
    while (ts.accept('COMMA')) items.push(parseLiteral(ts));
    ts.expect('RSQUARE');
    return { kind: 'vector', items, pos };
  });
}

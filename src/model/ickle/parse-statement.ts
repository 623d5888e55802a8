import type { DeleteStatement, Expr, FromClause, JoinClause, OrderKey, SelectItem, SelectStatement, Statement } from './ast';
import { parseExpr, parsePath } from './parse-expression';
import { parsePredicate } from './parse-predicate';
import type { TokenStream } from './token-stream';

/** Words that end a FROM item, so they are never taken for an alias written without AS. */
const CLAUSE_WORDS: ReadonlySet<string> = new Set([
  'where', 'order', 'group', 'having', 'join', 'inner', 'left', 'right', 'full', 'outer', 'cross', 'fetch', 'as', 'on', 'with',
]);

/**
 * Statements (docs/reference/query.md#grammar-statements):
 *   statement := selectStatement EOF | DELETE FROM entity [[AS] alias] [WHERE cond] EOF
 *   selectStatement := [SELECT [DISTINCT] item, …] FROM entity [[AS] alias] join* (, entity …)*
 *                      [WHERE cond] [GROUP BY expr, … [HAVING cond]] [ORDER BY expr [ASC|DESC], …]
 */
export function parseStatement(ts: TokenStream): Statement {
  return ts.rule('statement', () => {
    const statement = ts.isWord('delete') ? parseDelete(ts) : parseSelect(ts);
    if (!ts.is('EOF')) throw ts.mismatch('EOF');
    return statement;
  });
}

function parseDelete(ts: TokenStream): DeleteStatement {
  return ts.rule('deleteStatement', () => {
    ts.expectWord('delete');
    const { from, joins } = parseFrom(ts);
    const where = ts.acceptWord('where') ? parsePredicate(ts) : undefined;
    return { kind: 'delete', from, joins, where };
  });
}

function parseSelect(ts: TokenStream): SelectStatement {
  return ts.rule('selectStatement', () => {
    let distinct = false;
    let select: SelectItem[] | undefined;
    if (ts.acceptWord('select')) {
      distinct = ts.acceptWord('distinct');
      select = ts.rule('selectClause', () => commaList(ts, () => parseSelectItem(ts)));
    }
    const { from, joins } = parseFrom(ts);
    const where = ts.acceptWord('where') ? ts.rule('whereClause', () => parsePredicate(ts)) : undefined;
    let groupBy: Expr[] | undefined;
    let having;
    if (ts.isWord('group') && ts.isWord('by', 1)) {
      ts.next();
      ts.next();
      groupBy = ts.rule('groupByClause', () => commaList(ts, () => withCollation(ts, parseExpr(ts))));
      if (ts.acceptWord('having')) having = ts.rule('havingClause', () => parsePredicate(ts));
    }
    let orderBy: OrderKey[] | undefined;
    if (ts.isWord('order') && ts.isWord('by', 1)) {
      ts.next();
      ts.next();
      orderBy = ts.rule('orderByClause', () => commaList(ts, () => parseSortKey(ts)));
    }
    return { kind: 'select', distinct, select, from, joins, where, groupBy, having, orderBy };
  });
}

function commaList<T>(ts: TokenStream, item: () => T): T[] {
  const items = [item()];
  while (ts.accept('COMMA')) items.push(item());
  return items;
}

/** An expression, or `OBJECT(alias)`, with an optional `[AS] name` the result ignores (docs/reference/query.md#result-json). */
function parseSelectItem(ts: TokenStream): SelectItem {
  return ts.rule('selectExpression', () => {
    const pos = ts.pos();
    let expr: Expr;
    if (ts.isWord('object') && ts.is('LPAREN', 1)) {
      ts.next();
      ts.next();
      expr = parsePath(ts);
      ts.expect('RPAREN');
    } else {
      expr = parseExpr(ts);
    }
    if (ts.acceptWord('as')) ts.expect('IDENTIFIER');
    else if (ts.is('IDENTIFIER') && !ts.isWord('from')) ts.next();
    return { expr, pos };
  });
}

function parseSortKey(ts: TokenStream): OrderKey {
  return ts.rule('sortSpecification', () => {
    const expr = withCollation(ts, parseExpr(ts));
    if (ts.acceptWord('desc')) return { expr, descending: true };
    ts.acceptWord('asc');
    return { expr, descending: false };
  });
}

/** `COLLATE name` parses and is ignored, as in the original. */
function withCollation(ts: TokenStream, expr: Expr): Expr {
  if (ts.acceptWord('collate')) parsePath(ts);
  return expr;
}

function parseFrom(ts: TokenStream): { from: FromClause[]; joins: JoinClause[] } {
  return ts.rule('fromClause', () => {
    ts.expectWord('from');
    const from: FromClause[] = [];
    const joins: JoinClause[] = [];
    do {
      from.push(parseEntity(ts));
      for (;;) {
        if (ts.isWord('cross') && ts.isWord('join', 1)) {
          ts.next();
          ts.next();
          from.push(parseEntity(ts));
          continue;
        }
        const join = parseJoin(ts);
        if (!join) break;
        joins.push(join);
      }
    } while (ts.accept('COMMA'));
    return { from, joins };
  });
}

function parseEntity(ts: TokenStream): FromClause {
  return ts.rule('mainEntityPersisterReference', () => {
    const path = parsePath(ts);
    return { entity: path.segments.join('.'), alias: parseAlias(ts), pos: path.pos };
  });
}

function parseAlias(ts: TokenStream): string | undefined {
  if (ts.acceptWord('as')) return ts.expect('IDENTIFIER').text;
  if (ts.is('IDENTIFIER') && !CLAUSE_WORDS.has(ts.current.text.toLowerCase())) return ts.next().text;
  return undefined;
}

/** `[INNER | LEFT | RIGHT | FULL [OUTER]] JOIN [FETCH] path [AS] alias` (docs/reference/query.md#grammar-statements). */
function parseJoin(ts: TokenStream): JoinClause | undefined {
  const start = ts.position;
  if (!ts.acceptWord('inner') && (ts.acceptWord('left') || ts.acceptWord('right') || ts.acceptWord('full'))) ts.acceptWord('outer');
  if (!ts.isWord('join')) {
    if (ts.position !== start) throw ts.mismatch('JOIN');
    return undefined;
  }
  return ts.rule('qualifiedJoin', () => {
    ts.next();
    ts.acceptWord('fetch');
    const path = parsePath(ts);
    return { path, alias: parseAlias(ts), pos: path.pos };
  });
}

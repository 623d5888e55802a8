import { expect } from 'chai';
import { IckleSyntaxError } from '../../../../src/errors';
import type { Expr, FullTextQuery, Predicate, Statement } from '../../../../src/model/ickle/ast';
import { parseIckle } from '../../../../src/model/ickle/parse';

/** A compact, readable rendering of the tree, so the table below reads like the grammar. */
function show(s: Statement): string {
  const from = s.from.map((f) => (f.alias ? `${f.entity} ${f.alias}` : f.entity)).join(', ');
  const joins = s.joins.map((j) => ` join ${j.path.segments.join('.')} ${j.alias}`).join('');
  const where = s.where ? ` where ${pred(s.where)}` : '';
  if (s.kind === 'delete') return `delete from ${from}${joins}${where}`;
  const select = s.select ? `select ${s.distinct ? 'distinct ' : ''}${s.select.map((i) => expr(i.expr)).join(', ')} ` : '';
  const group = s.groupBy ? ` group by ${s.groupBy.map(expr).join(', ')}` : '';
  const having = s.having ? ` having ${pred(s.having)}` : '';
  const order = s.orderBy ? ` order by ${s.orderBy.map((k) => `${expr(k.expr)} ${k.descending ? 'desc' : 'asc'}`).join(', ')}` : '';
  return `${select}from ${from}${joins}${where}${group}${having}${order}`;
}

function expr(e: Expr): string {
  switch (e.kind) {
    case 'path': return e.segments.join('.');
    case 'string': return `'${e.value}'`;
    case 'number': return e.text;
    case 'boolean': return String(e.value);
    case 'null': return 'null';
    case 'param': return `:${e.name}`;
    case 'positionalParam': return '?';
    case 'aggregate': return `${e.name}(${e.distinct ? 'distinct ' : ''}${e.arg ? expr(e.arg) : '*'})`;
    case 'function': return `${e.name}(${e.args.map(expr).join(', ')})`;
    case 'vector': return `[${e.items.map(expr).join(', ')}]`;
  }
}

function pred(p: Predicate): string {
  switch (p.kind) {
    case 'and': case 'or': return `(${p.kind} ${p.operands.map(pred).join(' ')})`;
    case 'not': return `(not ${pred(p.operand)})`;
    case 'compare': return `(${p.op} ${expr(p.left)} ${expr(p.right)})`;
    case 'between': return `(between ${expr(p.operand)} ${expr(p.lower)} ${expr(p.upper)})`;
    case 'in': return `(in ${expr(p.operand)} ${p.values.map(expr).join(' ')})`;
    case 'like': return `(like ${expr(p.operand)} ${expr(p.pattern)}${p.escape ? ` ${expr(p.escape)}` : ''})`;
    case 'isNull': return `(null ${expr(p.operand)})`;
    case 'value': return expr(p.operand);
    case 'fullText': return `(: ${p.path.segments.join('.')} ${ft(p.query)})`;
    case 'occur': return `(${p.occur} ${pred(p.operand)})`;
    case 'knn': return `(knn ${expr(p.path)} ${expr(p.vector)}${p.k ? ` ${expr(p.k)}` : ''}${p.filtering ? ` ${pred(p.filtering)}` : ''})`;
    case 'geo': return `(within ${expr(p.operand)} ${p.shape} ${p.args.map(expr).join(' ')})`;
    case 'unsupported': return `(unsupported ${p.what})`;
  }
}

function ft(q: FullTextQuery): string {
  switch (q.kind) {
    case 'term': return `${expr(q.value)}${q.tilde ? `~${q.tilde.value ?? ''}` : ''}`;
    case 'regexp': return `/${q.pattern}/`;
    case 'range': return `${q.includeLower ? '[' : '{'}${q.lower ? expr(q.lower) : '*'} ${q.upper ? expr(q.upper) : '*'}${q.includeUpper ? ']' : '}'}`;
    case 'boost': return `${ft(q.query)}^${q.boost}`;
    case 'and': case 'or': return `(${q.kind} ${q.operands.map(ft).join(' ')})`;
    case 'occur': return `(${q.occur} ${ft(q.query)})`;
  }
}

const P = 'org.infinispan.rest.search.entity.Person';

describe('Ickle grammar (docs/reference/query.md#grammar)', () => {
  const accepted: Array<[string, string]> = [
    [`from ${P}`, `from ${P}`],
    [`FROM ${P} p`, `from ${P} p`],
    [`from ${P} as p`, `from ${P} p`],
    [`from ${P} p where p.name = 'nobody'`, `from ${P} p where (= p.name 'nobody')`],
    [`from ${P} p where p.id < 5 and p.gender = 'MALE'`, `from ${P} p where (and (< p.id 5) (= p.gender 'MALE'))`],
    [`Select name, surname from ${P}`, `select name, surname from ${P}`],
    [`select p.gender, count(p.name) from ${P} p where p.id < 5 group by p.gender order by p.gender`,
      `select p.gender, COUNT(p.name) from ${P} p where (< p.id 5) group by p.gender order by p.gender asc`],
    [`select p.name from ${P} p where p.id < 5 order by p.name desc`, `select p.name from ${P} p where (< p.id 5) order by p.name desc`],
    ['select distinct count(*), count(g), sum(a), avg(a), min(a), max(a) from G g', 'select distinct COUNT(*), COUNT(g), SUM(a), AVG(a), MIN(a), MAX(a) from G g'],
    ['select count(distinct a) from G', 'select COUNT(distinct a) from G'],
    ['select g, score(g), version(g), g.name as n from G g', 'select g, score(g), version(g), g.name from G g'],
    ['select object(g) from G g', 'select g from G g'],
    ['from G where a != 1 and b <> 2 and c <= 3 and d >= 4 and e > 5', 'from G where (and (!= a 1) (!= b 2) (<= c 3) (>= d 4) (> e 5))'],
    ['from G where a = 1 or b = 2 and not c = 3', 'from G where (or (= a 1) (and (= b 2) (not (= c 3))))'],
    ['from G where a = 1 || b = 2 && !c = 3', 'from G where (or (= a 1) (and (= b 2) (not (= c 3))))'],
    ['from G where (a = 1 or b = 2) and c = 3', 'from G where (and (or (= a 1) (= b 2)) (= c 3))'],
    ['from G where a between 1 and 10 and b not between 2 and 3', 'from G where (and (between a 1 10) (not (between b 2 3)))'],
    ["from G where a in (1, 2, 3) and b not in ('x')", "from G where (and (in a 1 2 3) (not (in b 'x')))"],
    ["from G where a like 'x%' and b not like '_y' escape '!'", "from G where (and (like a 'x%') (not (like b '_y' '!')))"],
    ['from G where a is null and b is not null', 'from G where (and (null a) (not (null b)))'],
    ['from G where true and not false', 'from G where (and true (not false))'],
    ['from G where a = -5 and b = +2.5e3 and c = 10L and d = 0x1F and e = 017 and f = .5f', 'from G where (and (= a -5) (= b 2.5e3) (= c 10L) (= d 0x1F) (= e 017) (= f .5f))'],
    [`from G where a = 'it''s' and b = "dq" and c = 'back\\'slash'`, `from G where (and (= a 'it's') (= b 'dq') (= c 'back\\'slash'))`],
    ['from G where a = :p and b = ?', 'from G where (and (= a :p) (= b ?))'],
    ['from G where a.b.c = 1', 'from G where (= a.b.c 1)'],
    ['from G g join g.phones ph where ph.number = 1', 'from G g join g.phones ph where (= ph.number 1)'],
    ['from G g left outer join g.phones as ph', 'from G g join g.phones ph'],
    ['from A a, B b', 'from A a, B b'],
    ['from A a cross join B b', 'from A a, B b'],
    ['delete from G where a > 10', 'delete from G where (> a 10)'],
    ['DELETE FROM G g', 'delete from G g'],
    ['select a from G group by a, b having count(a) > 2 order by a asc, max(b) desc', 'select a from G group by a, b having (> COUNT(a) 2) order by a asc, MAX(b) desc'],
  ];

  const fullText: Array<[string, string]> = [
    ["from G where t : 'game'", "from G where (: t 'game')"],
    ["from G where t : 'two words'", "from G where (: t 'two words')"],
    ["from G where t : 'jonh'~2 and u : 'jonh'~", "from G where (and (: t 'jonh'~2) (: u 'jonh'~))"],
    ["from G where t : 'a b'~3", "from G where (: t 'a b'~3)"],
    ["from G where t : 'te?t' or t : 'test*'", "from G where (or (: t 'te?t') (: t 'test*'))"],
    ['from G where t : /te?t/^3', 'from G where (: t /te?t/^3)'],
    ["from G where t : ['AAA' 'ZZZ'] and t : ['a' to 'b'} and t : {* TO 'e'] and t : [10 *]", "from G where (and (: t ['AAA' 'ZZZ']) (: t ['a' 'b'}) (: t {* 'e']) (: t [10 *]))"],
    ["from G where t : 'foo'^3.0 || t : 'bar'", "from G where (or (: t 'foo'^3) (: t 'bar'))"],
    ["from G where t : ('foo' and 'bar')^3", "from G where (: t (and 'foo' 'bar')^3)"],
    ["from G where t : (-'foo' +'bar' #'baz' !'x' not 'y')", "from G where (: t (or (mustNot 'foo') (must 'bar') (filter 'baz') (mustNot 'x') (mustNot 'y')))"],
    ["from G where t : ('a' 'b' or 'c' && 'd')", "from G where (: t (or 'a' 'b' (and 'c' 'd')))"],
    ["from G where +t : 'x' and -t : 'y' and not t : 'z' and #t : 'w'", "from G where (and (must (: t 'x')) (mustNot (: t 'y')) (mustNot (: t 'z')) (filter (: t 'w')))"],
    ['from G where n : 5 and n : -3~1 and p.address.street : :param', 'from G where (and (: n 5) (: n -3~1) (: p.address.street :param))'],
  ];

  const knnAndGeo: Array<[string, string]> = [
    ['from G where v <-> [1.0, 2.0]~3', 'from G where (knn v [1.0, 2.0] 3)'],
    ["from G where v <-> [:v]~:k filtering name = 'x'", "from G where (knn v [:v] :k (= name 'x'))"],
    ['from G where loc within circle(1, 2, 3 km)', 'from G where (within loc CIRCLE 1 2 3 km)'],
    ['from G where loc not within box(1, 2, 3, 4)', 'from G where (not (within loc BOX 1 2 3 4))'],
    ['select distance(loc, 1, 2) from G', 'select distance(loc, 1, 2) from G'],
  ];

  for (const [query, tree] of [...accepted, ...fullText, ...knnAndGeo]) {
    it(`parses ${query}`, () => expect(show(parseIckle(query))).to.equal(tree));
  }

  it('parses parameters but the HQL-only forms become "unsupported" nodes', () => {
    expect(show(parseIckle('from G where a is empty or a member of g.b'))).to.equal('from G where (or (unsupported IS EMPTY) (unsupported MEMBER OF))');
  });

  it('treats keywords as soft and case-insensitive', () => {
    expect(show(parseIckle('SeLeCt Order.From FrOm Where w WhErE w.and = 1 OrDeR bY w.group DeSc'))).to.equal('select Order.From from Where w where (= w.and 1) order by w.group desc');
  });

  it('reports line and column of the token it stopped at (1-based line, 0-based column)', () => {
    const error = (q: string): string => {
      try {
        parseIckle(q);
      } catch (e) {
        expect(e).to.be.instanceOf(IckleSyntaxError);
        return (e as Error).message;
      }
      throw new Error(`${q} parsed`);
    };
    const rejected: Array<[string, string]> = [
      ['select p.* from G p', 'line 1:9 mismatched token: [@3,9:9=\'*\',<ASTERISK>,1:9]; expecting type IDENTIFIER'],
      ['select * from G', "line 1:7 no viable alternative; token=[@1,7:7='*',<ASTERISK>,1:7]"],
      ['from G where a = ', "line 1:17 no viable alternative; token=[@5,17:16='<EOF>',<EOF>,1:17]"],
      ['from G order by a DESblah', "line 1:18 mismatched token: [@5,18:24='DESblah',<IDENTIFIER>,1:18]; expecting type EOF"],
      ['from G\nwhere a = 1\n  and', 'line 3:5 no viable alternative'],
      ['from `G`', 'line 1:5 mismatched token'],
      ['where a = 1', 'line 1:0 mismatched token'],
      ['from G where t : word', 'line 1:17 no viable alternative'],
      ['from G where a = 1 b = 2', 'line 1:19 mismatched token'],
      ['from G where t : (\'a\'', 'line 1:21 mismatched token'],
    ];
    for (const [query, detail] of rejected) {
      const message = error(query);
      expect(message, query).to.match(new RegExp(`^ISPN028526: Invalid query: ${query.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}; Parser error messages: \\[\\[statement[^\\]]*\\]: `));
      expect(message, query).to.contain(detail);
    }
  });

  it('drops characters no lexer rule matches, as the original does', () => {
    expect(show(parseIckle("from G where a = 'x'; @"))).to.equal("from G where (= a 'x')");
  });

  it('refuses nesting deeper than its bound instead of exhausting the stack', () => {
    const deep = `from G where ${'('.repeat(100_000)}a = 1${')'.repeat(100_000)}`;
    expect(() => parseIckle(deep)).to.throw(IckleSyntaxError, /nested more than/);
    expect(show(parseIckle(`from G where ${'('.repeat(100)}a = 1${')'.repeat(100)}`))).to.equal('from G where (= a 1)');
  });
});

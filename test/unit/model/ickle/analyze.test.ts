import { expect } from 'chai';
import { QueryError } from '../../../../src/errors';
import type { AnalyzedQuery, Condition } from '../../../../src/model/ickle/analyzed-query';
import { compileIckle } from '../../../../src/model/ickle/compile';
import { findJavaEntity, findProtobufEntity } from '../../../../src/model/ickle/protobuf-entities';
import { checkProtoFiles, findType } from '../../../../src/model/protobuf/proto-files';
import type { ProtobufTypes } from '../../../../src/model/protobuf/protostream-json';
import { COUNT_PROTO, GAME_PROTO, PERSON, PERSON_PROTO, PERSON_PROTO_LEGACY, SALE_PROTO } from '../../../support/query-fixtures';

const EMPLOYEE_PROTO = `package emp;
/* @Indexed */
message Employee {
  /* @Basic */ optional string name = 1;
  /* @Text */ optional string text = 2;
  /* @Keyword(normalizer = "lowercase") */ optional string code = 3;
  /* @Basic */ optional int64 position = 4;
  /* @Basic */ optional bool active = 5;
  /* @Basic */ optional Author author = 6;
  /* @Basic */ repeated Address addresses = 7;
  optional string notIndexed = 8;
  optional double salary = 9 [default = 1.5];
  optional bytes photo = 10;
}
/* @Indexed */
message Author { /* @Basic */ optional string name = 1; }
/* @Indexed */
message Address { /* @Basic */ optional string street = 1; /* @Basic */ optional string postCode = 2; }
enum Level { LOW = 0; HIGH = 1; }
`;

function registry(...files: string[]): ProtobufTypes {
  const check = checkProtoFiles(files.map((content, i) => ({ name: `f${i}.proto`, content })));
  expect([...check.errors.values()]).to.deep.equal([]);
  return { find: (n) => findType(check.root, n), typeIdOf: () => undefined, nameOfTypeId: () => undefined };
}

const types = registry(PERSON_PROTO.replace(/org\.infinispan\.rest\.search\.entity/, 'org.infinispan.rest.search.entity'), EMPLOYEE_PROTO, COUNT_PROTO, SALE_PROTO, GAME_PROTO);

function compile(query: string, indexed = true): AnalyzedQuery {
  return compileIckle(query, { findEntity: (n) => findProtobufEntity(types, n), fullTextAvailable: () => indexed });
}

function failure(query: string, indexed = true): string {
  try {
    compile(query, indexed);
  } catch (e) {
    expect(e, query).to.be.instanceOf(QueryError);
    return (e as Error).message;
  }
  throw new Error(`${query} was accepted`);
}

/** A condition rendered compactly: `(= name 'x')`, `(text description term:bla3)`. */
function cond(c: Condition): string {
  switch (c.kind) {
    case 'true': case 'false': return c.kind;
    case 'and': case 'or': return `(${c.kind} ${c.items.map(cond).join(' ')})`;
    case 'not': return `(not ${cond(c.item)})`;
    case 'compare': return `(${c.op} ${'key' in c.target ? c.target.key : `#${c.target.column}`} ${JSON.stringify(c.value)})`;
    case 'in': return `(in ${'key' in c.target ? c.target.key : '#'} ${c.values.map((v) => JSON.stringify(v)).join(' ')})`;
    case 'like': return `(like ${'key' in c.target ? c.target.key : '#'} ${c.pattern})`;
    case 'isNull': return `(null ${'key' in c.target ? c.target.key : '#'})`;
    case 'text': return `(text ${c.field.key} ${c.match.kind}${'text' in c.match ? `:${c.match.text}` : ''}${c.boost !== 1 ? `^${c.boost}` : ''})`;
  }
}

describe('Ickle semantic checks (docs/reference/query.md#semantic-checks)', () => {
  describe('resolution and conversion', () => {
    it('strips the alias, converts literals to the field type and normalizes NOT forms', () => {
      const q = compile(`from ${PERSON} p where p.id < 5 and gender = 'MALE' and p.id != '3' and age between 1 and 10`);
      expect(cond(q.where)).to.equal('(and (< id 5) (= gender 0) (not (= id 3)) (and (>= age 1) (<= age 10)))');
    });

    it('reads enums by name or number, booleans in any case or as integers', () => {
      expect(cond(compile('from emp.Employee where active = TRUE or active = 0 or author.name in (\'a\', 5)').where))
        .to.equal('(or (= active true) (= active false) (in author.name "a" "5"))');
    });

    it('converts 64-bit literals exactly: a number within 2^53, a bigint beyond, up to Long.MIN_VALUE and Long.MAX_VALUE', () => {
      const q = compile('from emp.Employee where position in (9007199254740991, 9007199254740993, -9223372036854775808, 9223372036854775807, \'-9007199254740993\')');
      expect(q.where).to.include({ kind: 'in' });
      expect((q.where as Extract<Condition, { kind: 'in' }>).values).to.deep.equal([9007199254740991, 9007199254740993n, -(2n ** 63n), 2n ** 63n - 1n, -9007199254740993n]);
      expect((compile('from emp.Employee where salary = 9007199254740993').where as Extract<Condition, { kind: 'compare' }>).value).to.equal(9007199254740992);
    });

    it('resolves join aliases and nested paths', () => {
      const q = compile(`from ${PERSON} p join p.phoneNumbers ph where ph.number = '1' and p.address.postCode = 'x'`);
      expect(cond(q.where)).to.equal('(and (= phoneNumbers.number "1") (= address.postCode "x"))');
    });

    it('turns full-text occurrence groups into AND/OR/NOT and keeps boosts', () => {
      const q = compile("from Game g where g.description : (-'foo' +'bar' 'baz'^2) and description : 'x*'");
      expect(cond(q.where)).to.equal('(and (or (not (text description term:foo)) (text description term:bar) (text description term:baz^2)) (text description wildcard))');
      expect(q.fullText).to.equal(true);
    });

    it('projects paths under their alias-free keys and the alias as *', () => {
      const q = compile('select g, g.name, score(g), version(g) from Game g');
      expect(q.projections!.map((p) => p.key)).to.deep.equal(['*', 'name', 'score()', 'version()']);
    });

    it('lays out grouping queries as grouped fields then aggregates', () => {
      const q = compile('select s.status, count(s.code), count(*), count(s) from Sale s where day >= 45 group by s.status having count(code) > 1 order by status desc');
      expect(q.grouping!.groupBy.map((f) => f.key)).to.deep.equal(['status']);
      expect(q.grouping!.aggregates.map((a) => a.key)).to.deep.equal(['COUNT(code)', 'COUNT(*)']);
      expect(q.projections!.map((p) => p.key)).to.deep.equal(['status', 'COUNT(code)', 'COUNT(*)', 'COUNT(*)']);
      expect(cond(q.grouping!.having!)).to.equal('(> #1 2)'.replace('2', '1'));
      expect(q.orderBy).to.deep.equal([{ target: { column: 0 }, descending: true }]);
    });

    it('reads legacy @Field annotations: analyze=YES strings are analyzed, store=YES projectable', () => {
      const legacy = registry(PERSON_PROTO_LEGACY);
      const q = compileIckle(`from ${PERSON} where address.street : 'st'`, { findEntity: (n) => findProtobufEntity(legacy, n), fullTextAvailable: () => true });
      expect(cond(q.where)).to.equal('(text address.street term:st)');
      const entity = q.entity;
      expect(entity.properties.get('name')!.flags).to.include({ searchable: true, projectable: true, sortable: true, analyzed: false });
    });
  });

  const errors: Array<[string, string, boolean?]> = [
    ['from Whatever', 'Unknown type name : Whatever'],
    [`from ${PERSON}.Gender`, `${PERSON}.Gender is not a message type`],
    ['from emp.Employee e where e.foobar = 1', "ISPN028501: The type emp.Employee does not have an accessible property named 'foobar'."],
    ['select e.author.foo from emp.Employee e', "ISPN028501: The type emp.Employee does not have an accessible property named 'foo'."],
    ['from emp.Employee e where a.name = 1', 'ISPN028502: Unknown alias: a.'],
    ['select e.author from emp.Employee e', 'ISPN028503: Property author can not be selected from type emp.Employee since it is an embedded entity.'],
    ['from emp.Employee e where e.author = 1', 'ISPN028504: The property author is an embedded entity and does not allow comparison predicates'],
    ['from emp.Employee where position = 10L', "ISPN028505: Invalid numeric literal '10L'"],
    ['from emp.Employee where position = 0x10', "ISPN028505: Invalid numeric literal '0x10'"],
    ["from emp.Employee where salary > 'abc'", "ISPN028505: Invalid numeric literal 'abc'"],
    ["from emp.Employee where active = 'yes'", "ISPN028507: Invalid boolean literal 'yes'"],
    [`from ${PERSON} where gender = 'male'`, `ISPN028508: Invalid enum literal 'male' for enum type ${PERSON}.Gender`],
    // a number counts only when the enum declares it, as a name does
    [`from ${PERSON} where gender = 5`, `ISPN028508: Invalid enum literal '5' for enum type ${PERSON}.Gender`],
    [`from ${PERSON} where gender in (0, 7)`, `ISPN028508: Invalid enum literal '7' for enum type ${PERSON}.Gender`],
    [`from ${PERSON} where gender = '__proto__'`, `ISPN028508: Invalid enum literal '__proto__' for enum type ${PERSON}.Gender`],
    ['select count(distinct name) from emp.Employee', 'ISPN028512: Aggregation COUNT_DISTINCT is not supported'],
    ['select avg(name) from emp.Employee', 'ISPN028513: Aggregation AVG cannot be applied to property of type java.lang.String'],
    ['select sum(name) from emp.Employee', 'Aggregation SUM cannot be applied to property of type java.lang.String'],
    ['select sum(e) from emp.Employee e', 'ISPN028514: SUM aggregation can only be applied to property references.'],
    ['from emp.Employee where min(position) > 1', 'ISPN028515: Cannot have aggregate functions in the WHERE clause : MIN.'],
    ['from emp.Employee e where e.name = MIN(e.addresses.street)', 'ISPN028515: Cannot have aggregate functions in the WHERE clause : MIN.'],
    ['from emp.Employee where position between 1 and max(position)', 'ISPN028515: Cannot have aggregate functions in the WHERE clause : MAX.'],
    ['from emp.Employee where position = 9223372036854775808', "ISPN028505: Invalid numeric literal '9223372036854775808'"],
    ['select sum(position) from emp.Employee group by sum(position)', 'ISPN028516: Cannot have aggregate functions in the GROUP BY clause : SUM.'],
    ['from emp.Employee e where e = 1', 'ISPN028519: Cannot apply predicates directly to an entity alias: e'],
    ["select name from emp.Employee group by name having text : 'x'", 'ISPN028520: Full-text queries are not allowed in the HAVING clause'],
    ["from emp.Employee where name : 'x'", "ISPN028521: Full-text queries cannot be applied to property 'name' in type emp.Employee unless the property is indexed and analyzed."],
    ["from NotIndexedEntity where field1 : 'x'", "ISPN028521: Full-text queries cannot be applied to property 'field1' in type NotIndexedEntity unless the property is indexed and analyzed."],
    ["from emp.Employee where text = 'x'", "ISPN028522: No relational queries can be applied to property 'text' in type emp.Employee since the property is analyzed."],
    ["from emp.Employee where text like 'x%'", "ISPN028522: No relational queries can be applied to property 'text' in type emp.Employee since the property is analyzed."],
    ['from emp.Employee order by text', "ISPN028522: No relational queries can be applied to property 'text' in type emp.Employee since the property is analyzed."],
    ["from emp.Employee where 'x' = name", 'ISPN028524: Left side argument must be a property path'],
    ["from emp.Employee where notIndexed : ['a' to 'b']", "ISPN028527: Full-text queries cannot be applied to property 'notIndexed' in type emp.Employee unless the property is indexed."],
    ["from emp.Employee where text : 'x'", 'The cache must be indexed in order to use full-text queries.', false],
    ['from emp.Employee group by name', 'ISPN014021: Queries containing grouping and aggregation functions must use projections.'],
    ['select addresses.street, count(name) from emp.Employee group by addresses.street', "ISPN014023: Using the multi-valued property path 'addresses.street' in the GROUP BY clause is not currently supported"],
    ['from emp.Employee order by addresses.postCode', "ISPN014024: The property path 'addresses.postCode' cannot be used in the ORDER BY clause because it is multi-valued"],
    ['select name, notIndexed from emp.Employee group by name', "ISPN014026: The expression 'notIndexed' must be part of an aggregate function or it should be included in the GROUP BY clause"],
    ['select name from emp.Employee group by name order by position', "ISPN014026: The expression 'position' must be part of an aggregate function or it should be included in the GROUP BY clause"],
    ['select addresses.postCode from emp.Employee', "ISPN014027: The property path 'addresses.postCode' cannot be projected because it is multi-valued"],
    ["from emp.Employee where text : 'te*t'~2", 'ISPN014036: Prefix, wildcard or regexp queries cannot be fuzzy: te*t'],
    ["from emp.Employee where text : 'word'~3", 'maxEdits must be between 0 and 2: 3'],
    ['from emp.Employee where name = :who', "ISPN014825: Query parameter 'who' was not set"],
    ['from emp.Employee where name = ?', 'Positional parameters is not supported by this server'],
    ['from emp.Employee, Game', "Can't target multiple types: [emp.Employee, Game]"],
    ['from emp.Employee where v <-> [1.0]~3', 'Vector search (knn) is not supported by this server'],
    ['from emp.Employee where name within circle(1, 2, 3)', 'Spatial (geo) search is not supported by this server'],
    ['from emp.Employee where addresses is empty', 'IS EMPTY is not supported by this server'],
    ['from emp.Employee where name = notIndexed', 'Comparing a property with another property is not supported by this server'],
  ];

  for (const [query, message, indexed] of errors) {
    it(`refuses ${query}`, () => expect(failure(query, indexed ?? true)).to.equal(message));
  }

  it('names no entity in a java-object cache (ISPN028510)', () => {
    expect(() => compileIckle('from java.lang.String', { findEntity: findJavaEntity, fullTextAvailable: () => false }))
      .to.throw(QueryError, 'ISPN028510: Unknown entity name java.lang.String');
  });

  it('does not check IN against analyzed fields, as the original does not', () => {
    expect(cond(compile("from emp.Employee where text in ('a')").where)).to.equal('(in text "a")');
  });

  it('accepts full-text on normalized keywords and ranges on any searchable field', () => {
    expect(cond(compile("from emp.Employee where code : 'ab' and position : [1 to 5]").where)).to.equal('(and (text code term:ab) (text position range))');
  });
});

import { expect } from 'chai';
import fc from 'fast-check';
import { QueryError } from '../../../../src/errors';
import { compileTermRegExp } from '../../../../src/model/ickle/lucene-regexp';

const matches = (pattern: string, term: string) => compileTermRegExp(pattern).test(term);

describe('full-text /regexp/ in Lucene syntax, on an automaton', () => {
  it('matches whole terms with the operators grid has always supported', () => {
    const table: Array<[string, string, boolean]> = [
      ['te?t', 'tet', true], ['te?t', 'test', false], ['bla[23]', 'bla2', true], ['bla[23]', 'xbla2', false], ['(ab)+', 'abab', true],
      ['a+b*c?', 'aab', true], ['(a|b)c', 'bc', true], ['x{2,3}', 'xxx', true], ['x{2,3}', 'xxxx', false], ['x{2}', 'xx', true],
      ['x{2,}', 'xxxxx', true], ['[a-c]+', 'cab', true], ['[^a-c]+', 'xyz', true], ['[^a-c]+', 'xaz', false], ['.*', '', true],
      ['w.*d', 'word', true], ['\\d+', '123', true], ['\\w+', 'ab_1', true], ['\\s', ' ', true], ['[\\d]x', '7x', true], ['\\D', '7', false],
    ];
    for (const [pattern, term, expected] of table) expect(matches(pattern, term), `/${pattern}/ ~ ${term}`).to.equal(expected);
  });

  it('reads what Lucene reads differently from JavaScript', () => {
    const table: Array<[string, string, boolean]> = [
      ['"a.b"', 'a.b', true], ['"a.b"', 'axb', false], ['^ab$', '^ab$', true], ['^ab$', 'ab', false], ['a\\nb', 'anb', true],
      ['@', '@', true], ['a&b', 'a&b', true], ['~a', '~a', true], ['<1-2>', '<1-2>', true], ['#', '#', true],
      ['*a', '*a', true], ['a|*', '*', true], ['()', '', true], ['a{3,1}', 'aa', false], ['.', '\n', true], ['.', '😀', true],
      ['(a+)+b', 'aaab', true], ['(a|a)*', 'aaaa', true],
    ];
    for (const [pattern, term, expected] of table) expect(matches(pattern, term), `/${pattern}/ ~ ${JSON.stringify(term)}`).to.equal(expected);
  });

  it('agrees with a JavaScript RegExp on the syntax both read alike', () => {
    const atom = fc.constantFrom('a', 'b', '.', '[ab]', '[^a]', '(a|b)', '(ab)', '\\d');
    const quantifier = fc.constantFrom('', '', '*', '+', '?', '{1,2}', '{2}');
    const pattern = fc.array(fc.tuple(atom, quantifier).map(([a, q]) => a + q), { minLength: 1, maxLength: 5 }).map((parts) => parts.join(''));
    const term = fc.array(fc.constantFrom('a', 'b', '1'), { maxLength: 8 }).map((cs) => cs.join(''));
    fc.assert(fc.property(pattern, term, (p, t) => matches(p, t) === new RegExp(`^(?:${p})$`, 's').test(t)), { numRuns: 2_000 });
  });

  it('answers stacked repetitions in microseconds, as Lucene does', () => {
    const started = performance.now();
    const stacked = compileTermRegExp(`${'.*'.repeat(90)}x`);
    for (let i = 0; i < 1000; i++) stacked.test(`ordinaryword${i}`);
    expect(compileTermRegExp(`${'.*'.repeat(5)}x`).test('a'.repeat(255))).to.equal(false);
    expect(performance.now() - started).to.be.below(1000); // a backtracking RegExp takes minutes
  });

  it('refuses what does not parse, and what is too large or too deep, with 400 and a reason', () => {
    const refused: Array<[string, RegExp]> = [
      ['a(b', /does not parse: expected '\)' at position 3/], ['[ab', /does not parse: expected '\]' at position 3/], ['a{x}', /integer expected at position 2/],
      ['a{2', /expected '}' at position 3/], ['"ab', /expected '"' at position 3/], ['a|', /unexpected end-of-string/], ['a\\', /unexpected end-of-string/],
      ['[z-a]', /invalid range/], ['a)', /end-of-string expected at position 1/],
      ['a{1001}', /too large: more than 1000 characters once its repetitions are written out \(limit: regexp size\)/],
      ['(a{10}){101}', /limit: regexp size/], [`${'('.repeat(101)}a${')'.repeat(101)}`, /more than 100 deep \(limit: regexp depth\)/],
    ];
    for (const [pattern, message] of refused) {
      expect(() => compileTermRegExp(pattern), pattern).to.throw(QueryError, message);
    }
  });
});

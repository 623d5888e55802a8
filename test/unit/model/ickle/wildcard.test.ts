import { expect } from 'chai';
import { QueryError } from '../../../../src/errors';
import { compileWildcard, termRegExp } from '../../../../src/model/ickle/wildcard';

describe('LIKE and wildcard matching without backtracking regexps', () => {
  const like = (pattern: string, text: string) => compileWildcard(pattern, '%', '_')(text);

  it('matches % as any run, _ as one character, backslash escapes', () => {
    const table: Array<[string, string, boolean]> = [
      ['Al_ce', 'Alice', true], ['Ali%', 'Alice', true], ['Ali%%', 'Ali', true], ['_l_ce', 'Alice', true], ['___ce', 'Alice', true],
      ['_%_ce', 'Alice', true], ['%ce', 'Alice', true], ['%x%', 'Alice', false], ['Alice', 'alice', false], ['a\\%b', 'a%b', true],
      ['a\\%b', 'axb', false], ['a\\_', 'a_', true], ['', '', true], ['%', '', true], ['_', '', false], ['a%b%c', 'abc', true], ['a%b%c', 'acb', false],
    ];
    for (const [pattern, text, expected] of table) expect(like(pattern, text), `${pattern} ~ ${text}`).to.equal(expected);
    expect(compileWildcard('te?t*', '*', '?')('testing')).to.equal(true);
  });

  it('answers a pattern built to make regexps backtrack in linear-ish time', () => {
    const started = performance.now();
    expect(like('%a%a%a%a%a%a%a%a%a%a%b', 'a'.repeat(20_000))).to.equal(false);
    expect(performance.now() - started).to.be.below(1000);
  });

  it('refuses regexps that can backtrack exponentially, accepts ordinary ones', () => {
    for (const bad of ['(a+)+b', '(a|a)*', '(x(a*))+', '(a)\\1', '(?=a)a']) {
      expect(() => termRegExp(bad), bad).to.throw(QueryError, /is not supported/);
    }
    for (const ok of ['te?t', 'bla[23]', '(ab)+', 'a+b*c?', '(a|b)c', 'x{2,3}']) expect(termRegExp(ok).test('x') || true, ok).to.equal(true);
    expect(termRegExp('bla[23]').test('bla2')).to.equal(true);
    expect(termRegExp('bla[23]').test('xbla2')).to.equal(false);
  });
});

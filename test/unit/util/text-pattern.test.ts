import { expect } from 'chai';
import fc from 'fast-check';
import { compileTextPattern } from '../../../src/util/text-pattern';

/** The reference: the pattern as a backtracking JavaScript RegExp, fine on small inputs. */
function reference(pattern: string, text: string): boolean {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\' && i + 1 < pattern.length) source += escape(pattern[++i]);
    else if (c === '%') source += '[\\s\\S]*';
    else if (c === '_') source += '[\\s\\S]';
    else source += escape(c);
  }
  return new RegExp(`^${source}$`).test(text);
}

function escape(c: string): string {
  return c.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
}

const like = (pattern: string, text: string) => compileTextPattern(pattern, '%', '_').test(text);

describe('text patterns (LIKE and wildcards) in linear time', () => {
  it('matches % as any run, _ as one character, backslash escapes', () => {
    const table: Array<[string, string, boolean]> = [
      ['Al_ce', 'Alice', true], ['Ali%', 'Alice', true], ['Ali%%', 'Ali', true], ['_l_ce', 'Alice', true], ['___ce', 'Alice', true],
      ['_%_ce', 'Alice', true], ['%ce', 'Alice', true], ['%x%', 'Alice', false], ['Alice', 'alice', false], ['a\\%b', 'a%b', true],
      ['a\\%b', 'axb', false], ['a\\_', 'a_', true], ['', '', true], ['%', '', true], ['_', '', false], ['a%b%c', 'abc', true], ['a%b%c', 'acb', false],
      ['ab%ba', 'aba', false], ['%aa%aa%', 'aaa', false], ['%aa%aa%', 'aaaa', true], ['%a_a%', 'xxabax', true], ['a\\', 'a\\', true],
    ];
    for (const [pattern, text, expected] of table) expect(like(pattern, text), `${pattern} ~ ${text}`).to.equal(expected);
    expect(compileTextPattern('te?t*', '*', '?').test('testing')).to.equal(true);
  });

  it('agrees with a backtracking reference on small patterns and texts', () => {
    const alphabet = fc.constantFrom('a', 'b', '%', '_', '\\');
    const pattern = fc.array(alphabet, { maxLength: 9 }).map((cs) => cs.join(''));
    const text = fc.array(fc.constantFrom('a', 'b', '%', '_', '\\'), { maxLength: 14 }).map((cs) => cs.join(''));
    fc.assert(fc.property(pattern, text, (p, t) => like(p, t) === reference(p, t)), { numRuns: 20_000 });
  });

  it('agrees with the reference on pieces longer than one Shift-And word', () => {
    const piece = fc.array(fc.constantFrom('a', 'b', '_'), { minLength: 30, maxLength: 70 }).map((cs) => cs.join(''));
    const text = fc.array(fc.constantFrom('a', 'b'), { minLength: 0, maxLength: 160 }).map((cs) => cs.join(''));
    fc.assert(fc.property(piece, text, fc.boolean(), (p, t, open) => {
      const pattern = open ? `%${p}%` : `${p}%`;
      return like(pattern, t) === reference(pattern, t);
    }), { numRuns: 2_000 });
  });

  it('answers the inputs that made the old matcher quadratic in a few milliseconds per megabyte', () => {
    const text = 'a'.repeat(1_000_000);
    const cases = [`%${'a'.repeat(999)}b%`, `%${'a'.repeat(499)}b${'a'.repeat(499)}%`, `%${'a_'.repeat(400)}b%`, '%a%a%a%a%a%a%a%a%a%a%b'];
    for (const pattern of cases) {
      const compiled = compileTextPattern(pattern, '%', '_');
      expect(compiled.test(text), pattern.slice(0, 20)).to.equal(false);
      // what the scan charges to its time slice: steps per character, bounded by the piece's words
      expect(compiled.weight).to.be.at.most(3 + Math.ceil(1000 / 32));
    }
  });
});

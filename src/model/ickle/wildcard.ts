import { InvalidQueryError } from '../../errors';

type Item = { kind: 'literal'; char: string } | { kind: 'one' } | { kind: 'any' };

/**
 * LIKE (`%`, `_`) and full-text wildcards (`*`, `?`) without regular expressions: a greedy match
 * that backtracks only to the last `any`, so a pattern costs at most O(text × pattern) steps — a
 * client cannot make it backtrack exponentially. Backslash escapes the next character.
 */
export function compileWildcard(pattern: string, any: string, one: string): (text: string) => boolean {
  const items: Item[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\' && i + 1 < pattern.length) items.push({ kind: 'literal', char: pattern[++i] });
    else if (c === any) {
      if (items[items.length - 1]?.kind !== 'any') items.push({ kind: 'any' });
    } else if (c === one) items.push({ kind: 'one' });
    else items.push({ kind: 'literal', char: c });
  }
  return (text) => {
    let t = 0;
    let p = 0;
    let star = -1;
    let mark = 0;
    while (t < text.length) {
      const item = items[p];
      if (item && (item.kind === 'one' || (item.kind === 'literal' && item.char === text[t]))) {
        t++;
        p++;
      } else if (item?.kind === 'any') {
        star = p++;
        mark = t;
      } else if (star >= 0) {
        p = star + 1;
        t = ++mark;
      } else {
        return false;
      }
    }
    while (items[p]?.kind === 'any') p++;
    return p === items.length;
  };
}

/**
 * A full-text `/regexp/` (Lucene syntax, matched against whole terms). JavaScript regexps backtrack,
 * so forms that can take exponential time are refused: a quantified group holding a quantifier or
 * an alternative (`(a+)+`, `(a|a)*`), back-references and lookarounds (not Lucene syntax anyway).
 */
export function termRegExp(pattern: string): RegExp {
  const refuse = (why: string): never => {
    throw new InvalidQueryError(`The regular expression /${pattern}/ is not supported: ${why}`);
  };
  if (/\\[1-9]|\(\?/.test(pattern)) refuse('back-references and lookarounds are not regular expressions');
  const groups: Array<{ risky: boolean }> = [];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      i++;
    } else if (c === '[') {
      while (i < pattern.length && pattern[i] !== ']') i += pattern[i] === '\\' ? 2 : 1;
    } else if (c === '(') {
      groups.push({ risky: false });
    } else if (c === ')') {
      const g = groups.pop();
      const quantified = /[*+?{]/.test(pattern[i + 1] ?? '');
      if (g?.risky && quantified) refuse('a repeated group may not contain repetitions or alternatives');
      if (g?.risky || quantified) markRisky(groups);
    } else if (c === '|' || /[*+?{]/.test(c)) {
      markRisky(groups);
    }
  }
  try {
    return new RegExp(`^(?:${pattern})$`, 'u');
  } catch {
    return refuse('it does not parse');
  }
}

function markRisky(groups: Array<{ risky: boolean }>): void {
  if (groups.length) groups[groups.length - 1].risky = true;
}

import { expect } from 'chai';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

// Comments and docs explain behaviour by citing grid's own reference (docs/reference/README.md#how-to-cite),
// never the documents it was written from: notes a reader of this repository does not have, the
// contract's files by path, or the issue that asked for a change. A citation of one of those is
// a dead end for the reader; this test finds any that comes back.

const ROOT = join(__dirname, '..', '..', '..', '..');
const SELF = 'test/unit/docs/no-outside-citations.test.ts';

/** What a citation of an outside document looks like (case as in a sentence's first word too). */
const OUTSIDE: ReadonlyArray<readonly [string, RegExp]> = [
  ['the behaviour notes', /\bbehavior-notes\b/i],
  ['the query notes', /\bquery-notes\b/i],
  ['the contract by number', /\bspec [12]\b/i],
  ['the contract by path', /\bspec\/0/i],
  ['an issue', /\bissue [0-9]+/i],
];

/** The outside citations in one text, as `line: what (text)`. */
function outsideCitations(text: string): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, i) => {
    for (const [what, pattern] of OUTSIDE) {
      if (pattern.test(line)) found.push(`${i + 1}: ${what} (${line.trim()})`);
    }
  });
  return found;
}

function* walk(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* walk(path);
    else if (/\.(ts|js|md|tsv|json|yaml|yml|sql|txt)$/.test(name)) yield path;
  }
}

describe('citations: only grid\'s own docs', () => {
  it('recognises each outside form, and leaves the reference and other documents\' sections alone', () => {
    expect(outsideCitations('/** Routing (behavior-notes §1.1). */')).to.have.length(1);
    expect(outsideCitations('// the checks of query-notes §4')).to.have.length(1);
    expect(outsideCitations('(spec 1 "CORS")\nSpec 2 wins here')).to.have.length(2);
    expect(outsideCitations('The contract is `spec/01-data-plane.md`.')).to.have.length(1);
    expect(outsideCitations('// Issue 10, item 8: every refusal says why')).to.have.length(1);
    expect(outsideCitations([
      '/** Routing (docs/reference/http.md#routing). */',
      'HTTP/1.1 pipelining (RFC 9112 §9.3.2); the spec states it; the issue says spec wins',
      'see [the reference](reference/README.md#sources-and-precedence)',
    ].join('\n'))).to.deep.equal([]);
  });

  it('finds none in src, test, docs and README.md', () => {
    const sources = [...walk(join(ROOT, 'src')), ...walk(join(ROOT, 'test')), ...walk(join(ROOT, 'docs')), join(ROOT, 'README.md')];
    const found: string[] = [];
    for (const path of sources) {
      const rel = relative(ROOT, path);
      if (rel === SELF || rel === join('docs', 'reference', 'citations.tsv')) continue;
      for (const at of outsideCitations(readFileSync(path, 'utf8'))) found.push(`${rel}:${at}`);
    }
    expect(sources.length, 'files read').to.be.greaterThan(100);
    expect(found, 'cite docs/reference/<file>.md#<id> (or another doc\'s section) instead').to.deep.equal([]);
  });
});

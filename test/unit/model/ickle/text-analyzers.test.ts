import { expect } from 'chai';
import { analyzeText, normalizeKeyword } from '../../../../src/model/ickle/text-analyzers';

/** UAX #29 words as ICU finds them, lower-cased: what `standard` must produce. */
function reference(text: string): string[] {
  const segmenter = new Intl.Segmenter('en', { granularity: 'word' });
  return [...segmenter.segment(text)].filter((s) => s.isWordLike).map((s) => s.segment.toLowerCase());
}

describe('text analyzers (docs/reference/query.md#text-analysis)', () => {
  it('standard: Unicode word boundaries and lower case, the ASCII fast path agreeing with the segmenter', () => {
    const texts = [
      'This is the game #7', 'bla bla3', 'Game n.12', 'a-b c/d e+f (g) [h] {i} "j" x@y.com', '1,000.5 apples', "don't stop", 'foo_bar baz',
      'Vanderbilt Av.', 'NY 10036', 'tabs\tand\nnewlines', '100% sure! ok?', 'C++ & C#', '$5 ^2 ~3 |4| <5> =6', 'Ünïcödé wörds ÇA', '東京 タワー', 'e-mail: a.b@c.d',
    ];
    for (const t of texts) expect(analyzeText('standard', t), t).to.deep.equal(reference(t));
    expect(analyzeText('standard', 'This is the GAME #7')).to.deep.equal(['this', 'is', 'the', 'game', '7']);
  });

  it('splits tokens longer than 255 characters, as Lucene does', () => {
    expect(analyzeText('standard', 'a'.repeat(300)).map((t) => t.length)).to.deep.equal([255, 45]);
  });

  it('whitespace keeps case, keyword keeps the whole value, filename lower-cases it, stemmer drops stop words and plurals', () => {
    expect(analyzeText('whitespace', 'Hello  World!')).to.deep.equal(['Hello', 'World!']);
    expect(analyzeText('keyword', 'Hello World')).to.deep.equal(['Hello World']);
    expect(analyzeText('filename', 'My File.TXT')).to.deep.equal(['my file.txt']);
    expect(analyzeText('stemmer', 'The cats and the ponies')).to.deep.equal(['cat', 'pony']);
    expect(analyzeText('ngram', 'Games')).to.deep.equal(['gam', 'ame', 'mes']);
    expect(analyzeText('no-such-analyzer', 'Fall Back')).to.deep.equal(['fall', 'back']);
  });

  it('normalizes keywords only with the lowercase normalizer', () => {
    expect(normalizeKeyword('lowercase', 'AbC')).to.equal('abc');
    expect(normalizeKeyword(undefined, 'AbC')).to.equal('AbC');
  });
});

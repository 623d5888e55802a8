/**
 * Text analysis for `@Text` fields and `@Keyword` normalizers (docs/reference/query.md#text-analysis). `standard`
 * follows Lucene's StandardAnalyzer: Unicode (UAX #29) word boundaries, lower case, no stop words,
 * tokens longer than 255 characters split. Word boundaries come from ICU's word segmenter, the
 * same rules Lucene's StandardTokenizer implements. Differences are listed in docs/query.md.
 */

const MAX_TOKEN_LENGTH = 255;

/** Lucene's English stop words (EnglishAnalyzer / StopAnalyzer). */
const STOP_WORDS: ReadonlySet<string> = new Set([
  'a', 'an', 'and', 'are', 'as', 'at', 'be', 'but', 'by', 'for', 'if', 'in', 'into', 'is', 'it', 'no', 'not', 'of', 'on', 'or',
  'such', 'that', 'the', 'their', 'then', 'there', 'these', 'they', 'this', 'to', 'was', 'will', 'with',
]);

let segmenter: Intl.Segmenter | undefined;

/**
 * ASCII letters and digits among spaces and characters that always break words in UAX #29 (no
 * `.`, `,`, `;`, `:`, `'` or `_`, which can join): the words are exactly the letter-digit runs, found
 * without the segmenter (the common case on the write path).
 */
const SIMPLE_TEXT = /^[A-Za-z0-9\s!"#$%&()*+\-/<=>?@[\\\]^`{|}~]*$/;

function words(text: string): string[] {
  const out: string[] = [];
  const push = (word: string): void => {
    for (let i = 0; i < word.length; i += MAX_TOKEN_LENGTH) out.push(word.slice(i, i + MAX_TOKEN_LENGTH));
  };
  if (SIMPLE_TEXT.test(text)) {
    for (const w of text.match(/[A-Za-z0-9]+/g) ?? []) push(w);
    return out;
  }
  segmenter ??= new Intl.Segmenter('en', { granularity: 'word' });
  for (const s of segmenter.segment(text)) if (s.isWordLike) push(s.segment);
  return out;
}

const lower = (tokens: string[]): string[] => tokens.map((t) => t.toLowerCase());
const withoutStopWords = (tokens: string[]): string[] => tokens.filter((t) => !STOP_WORDS.has(t));

/** English plural stripping as Lucene's EnglishMinimalStemFilter does it (a light stand-in for Snowball). */
function minimalStem(t: string): string {
  if (t.length < 3 || !t.endsWith('s') || t.endsWith('ss') || t.endsWith('us')) return t;
  if (t.endsWith('ies') && !t.endsWith('eies') && !t.endsWith('aies')) return `${t.slice(0, -3)}y`;
  if (t.endsWith('es') && !/(aes|ees|oes)$/.test(t)) return t.slice(0, -1);
  return t.slice(0, -1);
}

function ngrams(tokens: string[], n = 3): string[] {
  const out: string[] = [];
  for (const t of tokens) {
    const chars = [...t];
    for (let i = 0; i + n <= chars.length; i++) out.push(chars.slice(i, i + n).join(''));
  }
  return out;
}

const ANALYZERS: Readonly<Record<string, (text: string) => string[]>> = {
  standard: (text) => lower(words(text)),
  simple: (text) => lower(words(text)),
  whitespace: (text) => text.split(/\s+/).filter((t) => t !== ''),
  keyword: (text) => [text],
  stemmer: (text) => withoutStopWords(lower(words(text))).map(minimalStem),
  ngram: (text) => ngrams(withoutStopWords(lower(words(text)))),
  filename: (text) => [text.toLowerCase()],
};

/** The tokens of a value for the named analyzer; unknown names analyze as `standard`. */
export function analyzeText(analyzer: string | undefined, text: string): string[] {
  return (ANALYZERS[analyzer ?? 'standard'] ?? ANALYZERS.standard)(text);
}

/** A `@Keyword` normalizer: `lowercase`, else the value unchanged. */
export function normalizeKeyword(normalizer: string | undefined, value: string): string {
  return normalizer === 'lowercase' ? value.toLowerCase() : value;
}

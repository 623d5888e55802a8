/**
 * Patterns with a many-character and a one-character wildcard (LIKE's `%` and `_`, full text's `*`
 * and `?`; backslash escapes the next character) matched in time linear in the text. The pattern
 * is cut at its many-character wildcards into pieces; the first piece must start the text, the
 * last end it, and the others are found left to right, each at its leftmost place after the one
 * before — the leftmost place leaves the most room to the rest, so no other place needs trying.
 * A piece of plain characters is found with Knuth–Morris–Pratt (String#indexOf is not linear on
 * repetitive input: a 20,001-character piece took 50 s over 10 MB of `a`), a piece holding
 * one-character wildcards with the bit-parallel Shift-And, one 32-bit word per 32 characters.
 * Characters are UTF-16 code units, as JavaScript strings index them.
 */
export interface TextPattern {
  test(text: string): boolean;
  /** Steps per character of text, at most: what a match of a long text costs, for time slices. */
  readonly weight: number;
}

interface Piece {
  chars: string;
  /** Set where the piece has a one-character wildcard. */
  any: Uint8Array | undefined;
}

export function compileTextPattern(pattern: string, many: string, one: string): TextPattern {
  const pieces: Piece[] = [];
  let chars = '';
  let any: number[] = [];
  let anchoredStart = true;
  let sawMany = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\' && i + 1 < pattern.length) {
      chars += pattern[++i];
    } else if (c === many) {
      if (!sawMany && chars === '') anchoredStart = false;
      if (chars !== '') pieces.push(pieceOf(chars, any));
      chars = '';
      any = [];
      sawMany = true;
    } else if (c === one) {
      any.push(chars.length);
      chars += '\0';
    } else {
      chars += c;
    }
  }
  const anchoredEnd = !sawMany || chars !== '';
  if (anchoredEnd) pieces.push(pieceOf(chars, any));
  return new PiecewisePattern(pieces, sawMany, anchoredStart, anchoredEnd);
}

function pieceOf(chars: string, any: number[]): Piece {
  if (any.length === 0) return { chars, any: undefined };
  const mask = new Uint8Array(chars.length);
  for (const at of any) mask[at] = 1;
  return { chars, any: mask };
}

class PiecewisePattern implements TextPattern {
  readonly weight: number;
  private readonly finders: Array<Finder | undefined>;

  constructor(private readonly pieces: Piece[], private readonly sawMany: boolean, private readonly anchoredStart: boolean, private readonly anchoredEnd: boolean) {
    // anchored pieces are compared in place; only the ones found in between need a finder
    const first = anchoredStart ? 1 : 0;
    const end = anchoredEnd ? pieces.length - 1 : pieces.length;
    this.finders = pieces.map((p, i) => (i >= first && i < end ? finderOf(p) : undefined));
    // anchored pieces cost their own length, not the text's: one step per character at least
    this.weight = Math.max(1, ...this.finders.map((f) => f?.weight ?? 0));
  }

  test(text: string): boolean {
    const pieces = this.pieces;
    if (!this.sawMany) return text.length === pieces[0].chars.length && matchesAt(pieces[0], text, 0);
    let lo = 0;
    let hi = text.length;
    let first = 0;
    let end = pieces.length;
    if (this.anchoredStart) {
      const p = pieces[0];
      if (p.chars.length > hi || !matchesAt(p, text, 0)) return false;
      lo = p.chars.length;
      first = 1;
    }
    if (this.anchoredEnd && end > first) {
      const p = pieces[end - 1];
      if (hi - p.chars.length < lo || !matchesAt(p, text, hi - p.chars.length)) return false;
      hi -= p.chars.length;
      end--;
    }
    for (let i = first; i < end; i++) {
      const at = this.finders[i]!.find(text, lo, hi);
      if (at < 0) return false;
      lo = at + pieces[i].chars.length;
    }
    return true;
  }
}

function matchesAt(p: Piece, text: string, at: number): boolean {
  const { chars, any } = p;
  for (let i = 0; i < chars.length; i++) {
    if (chars.charCodeAt(i) !== text.charCodeAt(at + i) && !any?.[i]) return false;
  }
  return true;
}

/** Finds a piece at its leftmost place in `text[lo, hi)`; -1 when it is not there. */
interface Finder {
  weight: number;
  find(text: string, lo: number, hi: number): number;
}

function finderOf(p: Piece): Finder {
  if (p.chars.length === 0) return { weight: 0, find: (_t, lo, hi) => (lo <= hi ? lo : -1) };
  return p.any ? new ShiftAnd(p.chars, p.any) : new Kmp(p.chars);
}

/** Knuth–Morris–Pratt: each text character is looked at a constant number of times (amortized 2). */
class Kmp implements Finder {
  readonly weight = 2;
  private readonly fail: Int32Array;

  constructor(private readonly chars: string) {
    const fail = new Int32Array(chars.length);
    let k = 0;
    for (let i = 1; i < chars.length; i++) {
      const c = chars.charCodeAt(i);
      while (k > 0 && c !== chars.charCodeAt(k)) k = fail[k - 1];
      if (c === chars.charCodeAt(k)) k++;
      fail[i] = k;
    }
    this.fail = fail;
  }

  find(text: string, lo: number, hi: number): number {
    const { chars, fail } = this;
    const m = chars.length;
    let k = 0;
    for (let i = lo; i < hi; i++) {
      const c = text.charCodeAt(i);
      while (k > 0 && c !== chars.charCodeAt(k)) k = fail[k - 1];
      if (c === chars.charCodeAt(k) && ++k === m) return i - m + 1;
    }
    return -1;
  }
}

/**
 * Shift-And: bit j of the state says "the piece's first j+1 characters end here"; one step per
 * text character and 32-bit word of the piece, whatever the text.
 */
class ShiftAnd implements Finder {
  readonly weight: number;
  private readonly words: number;
  /** Per character code of the piece, the positions it may stand at; other characters: `others`. */
  private readonly masks = new Map<number, Int32Array>();
  private readonly others: Int32Array;
  private readonly state: Int32Array;

  constructor(private readonly chars: string, any: Uint8Array) {
    const m = chars.length;
    this.words = (m + 31) >>> 5;
    this.weight = this.words + 1;
    this.others = new Int32Array(this.words);
    this.state = new Int32Array(this.words);
    for (let i = 0; i < m; i++) if (any[i]) this.others[i >>> 5] |= 1 << (i & 31);
    for (let i = 0; i < m; i++) {
      if (any[i]) continue;
      const c = chars.charCodeAt(i);
      let mask = this.masks.get(c);
      if (!mask) this.masks.set(c, (mask = Int32Array.from(this.others)));
      mask[i >>> 5] |= 1 << (i & 31);
    }
  }

  find(text: string, lo: number, hi: number): number {
    const m = this.chars.length;
    const words = this.words;
    const state = this.state.fill(0);
    const lastWord = (m - 1) >>> 5;
    const lastBit = 1 << ((m - 1) & 31);
    for (let i = lo; i < hi; i++) {
      const mask = this.masks.get(text.charCodeAt(i)) ?? this.others;
      let carry = 1;
      for (let w = 0; w < words; w++) {
        const s = state[w];
        state[w] = ((s << 1) | carry) & mask[w];
        carry = s >>> 31;
      }
      if (state[lastWord] & lastBit) return i - m + 1;
    }
    return -1;
  }
}

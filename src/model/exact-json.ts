/**
 * JSON.parse loses integers above 2^53. Every bare integer literal (no fraction, no exponent) is
 * quoted first, so it reaches the caller as its exact decimal text; the caller reads it with
 * BigInt where it expects a 64-bit value. Numbers with a fraction or an exponent stay numbers.
 *
 * One pass over the text, in linear time: string literals are copied untouched (escapes
 * included), and a number token is read whole before deciding, so `1.5` or `1e3` is never split.
 * Throws JSON.parse's SyntaxError for text that is not JSON; callers turn it into their error.
 */
export function parseJsonExact(text: string): unknown {
  return JSON.parse(quoteIntegers(text));
}

const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;

function quoteIntegers(text: string): string {
  let out = '';
  let copiedTo = 0;
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x22) { // a string literal: skip to its closing quote
      i++;
      while (i < text.length && text.charCodeAt(i) !== 0x22) i += text.charCodeAt(i) === 0x5c ? 2 : 1;
      i++;
      continue;
    }
    if (c !== 0x2d && !isDigit(c)) { i++; continue; }
    const start = i;
    if (c === 0x2d) i++;
    while (i < text.length && isDigit(text.charCodeAt(i))) i++;
    let integer = i > start + (c === 0x2d ? 1 : 0);
    while (i < text.length && /[0-9.eE+-]/.test(text[i])) { integer = false; i++; }
    if (!integer) continue;
    out += `${text.slice(copiedTo, start)}"${text.slice(start, i)}"`;
    copiedTo = i;
  }
  return copiedTo === 0 ? text : out + text.slice(copiedTo);
}

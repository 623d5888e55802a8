import type { KeyOffset } from './text-location';

const BACKSLASH = 0x5c;
const COLON = 0x3a;

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** End of the string token opening at `start` (the offset of its closing quote), -1 when unterminated. */
function stringEnd(text: string, start: number): number {
  let end = start + 1;
  for (;;) {
    end = text.indexOf('"', end);
    if (end === -1) return -1;
    let backslashes = 0;
    for (let j = end - 1; text.charCodeAt(j) === BACKSLASH; j--) backslashes++;
    if (backslashes % 2 === 0) return end;
    end++;
  }
}

function decode(token: string): string {
  try {
    return JSON.parse(token) as string;
  } catch {
    return token.slice(1, -1);
  }
}

/** Every object key of a JSON text with the offset of its opening quote, in one linear pass. */
export function scanJsonKeys(text: string): KeyOffset[] {
  const keys: KeyOffset[] = [];
  for (let i = text.indexOf('"'); i !== -1;) {
    const end = stringEnd(text, i);
    if (end === -1) break;
    let k = end + 1;
    while (k < text.length && isSpace(text.charCodeAt(k))) k++;
    if (text.charCodeAt(k) === COLON) keys.push({ key: decode(text.slice(i, end + 1)), offset: i });
    i = text.indexOf('"', end + 1);
  }
  return keys;
}

/** How much of a client's text an error message quotes: enough to recognise it, never the whole value. */
export const EXCERPT_CHARS = 200;

/**
 * A client's text as an error message quotes it: cut after `EXCERPT_CHARS` characters (never
 * inside a surrogate pair) and marked with `…`. A 10 MB value refused as invalid JSON would
 * otherwise come back whole inside the 400.
 */
export function excerpt(text: string): string {
  if (text.length <= EXCERPT_CHARS) return text;
  const high = text.charCodeAt(EXCERPT_CHARS - 1);
  const end = high >= 0xd800 && high <= 0xdbff ? EXCERPT_CHARS - 1 : EXCERPT_CHARS;
  return `${text.slice(0, end)}…`;
}

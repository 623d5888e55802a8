import type { ConfigBudget } from './config-limits';

/** One start tag: where it opens and where each of its attributes' names starts. */
export interface XmlTag {
  offset: number;
  attributes: Map<string, number>;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  return i;
}

/** Where the token that ends with `close` ends (after it), or the end of the text. */
function after(text: string, close: string, from: number): number {
  const at = text.indexOf(close, from);
  return at === -1 ? text.length : at + close.length;
}

/**
 * One linear pass over an XML text: the start tags in document order (the order of a pre-order
 * walk of the parsed tree) with their attributes' offsets, counted against the limits as they
 * come, so that nesting and size are refused before the parser builds anything. Returns
 * undefined where the text is not well-formed enough to scan; the parser then reports it.
 */
export function scanXmlTags(text: string, budget: ConfigBudget): XmlTag[] | undefined {
  const tags: XmlTag[] = [];
  let depth = 0;
  let i = text.indexOf('<');
  while (i !== -1 && i < text.length) {
    if (text.startsWith('<!--', i)) i = after(text, '-->', i + 4);
    else if (text.startsWith('<![CDATA[', i)) i = after(text, ']]>', i + 9);
    else if (text.startsWith('<?', i) || text.startsWith('<!', i)) i = after(text, '>', i + 2);
    else if (text.startsWith('</', i)) {
      depth--;
      i = after(text, '>', i + 2);
    } else {
      const tag = scanStartTag(text, i, budget);
      if (!tag) return undefined;
      budget.element(depth + 1);
      tags.push(tag.tag);
      if (!tag.selfClosing) depth++;
      i = tag.end;
    }
    i = text.indexOf('<', i);
  }
  return tags;
}

function scanStartTag(text: string, start: number, budget: ConfigBudget): { tag: XmlTag; end: number; selfClosing: boolean } | undefined {
  const attributes = new Map<string, number>();
  let i = start + 1;
  while (i < text.length && !isSpace(text.charCodeAt(i)) && text[i] !== '/' && text[i] !== '>') i++;
  for (;;) {
    i = skipSpace(text, i);
    if (i >= text.length) return undefined;
    if (text[i] === '>') return { tag: { offset: start, attributes }, end: i + 1, selfClosing: false };
    if (text.startsWith('/>', i)) return { tag: { offset: start, attributes }, end: i + 2, selfClosing: true };
    const nameStart = i;
    while (i < text.length && !isSpace(text.charCodeAt(i)) && text[i] !== '=' && text[i] !== '>' && text[i] !== '/') i++;
    const name = text.slice(nameStart, i);
    i = skipSpace(text, i);
    if (name === '' || text[i] !== '=') return undefined;
    i = skipSpace(text, i + 1);
    const quote = text[i];
    if (quote !== '"' && quote !== "'") return undefined;
    const close = text.indexOf(quote, i + 1);
    if (close === -1) return undefined;
    budget.attribute();
    if (!attributes.has(name)) attributes.set(name, nameStart);
    i = close + 1;
  }
}

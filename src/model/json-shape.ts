/** How large a small JSON document of the management API may be (the server's config limits). */
export interface JsonShapeLimits {
  /** Values (scalars, objects, arrays) in the document: `config-attributes`. */
  maxValues: number;
  /** Nesting of objects and arrays: `config-depth`. */
  maxDepth: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/**
 * Why a JSON text is too large to parse, or undefined. One linear pass counts its values (every
 * value but the first of a container follows a comma) and its nesting, before JSON.parse builds
 * it: JSON.parse holds the event loop as long as the document takes, and a 10 MB array of empty
 * objects took 6 s on a loaded machine. Text that is not JSON passes, and JSON.parse says why.
 */
export function jsonShapeRefusal(text: string, limits: JsonShapeLimits): string | undefined {
  let values = 1;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      for (i++; i < text.length && text.charCodeAt(i) !== QUOTE; i++) if (text.charCodeAt(i) === BACKSLASH) i++;
    } else if (c === COMMA || c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++values > limits.maxValues) return `The document has more than ${limits.maxValues} values (limit config-attributes)`;
      if (c !== COMMA && ++depth > limits.maxDepth) return `The document is nested deeper than ${limits.maxDepth} levels (limit config-depth)`;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
    }
  }
  return undefined;
}

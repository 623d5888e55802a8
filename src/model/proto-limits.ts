import { LimitExceededError } from '../errors';

export interface ProtoLimits {
  schemaBytes: number;
  schemaFields: number;
  schemaDeclarations: number;
  schemaDepth: number;
}

export function checkProtoSize(name: string, text: string, limits: Pick<ProtoLimits, 'schemaBytes'>): void {
  if (Buffer.byteLength(text, 'utf8') > limits.schemaBytes) {
    throw new LimitExceededError(`Schema ${name} is larger than ${limits.schemaBytes} bytes (limit schema-bytes)`);
  }
}

/** Where a scan is: skips comments and string literals in constant time per character. */
function skipTrivia(text: string, i: number): number {
  for (;;) {
    const c = text.charCodeAt(i);
    if (c === 0x2f && text.charCodeAt(i + 1) === 0x2f) {
      const eol = text.indexOf('\n', i + 2);
      i = eol === -1 ? text.length : eol + 1;
    } else if (c === 0x2f && text.charCodeAt(i + 1) === 0x2a) {
      const end = text.indexOf('*/', i + 2);
      i = end === -1 ? text.length : end + 2;
    } else if (c === 0x22 || c === 0x27) {
      i = stringEnd(text, i);
    } else {
      return i;
    }
  }
}

function stringEnd(text: string, start: number): number {
  const quote = text[start];
  let i = start + 1;
  while (i < text.length && text[i] !== quote && text[i] !== '\n') i += text[i] === '\\' ? 2 : 1;
  return Math.min(i + 1, text.length);
}

/**
 * Checks one `.proto` file against the limits in one linear pass, before the parser (whose field
 * handling is quadratic per message) sees it: size, `{}` nesting, declarations in the file and
 * declarations directly inside one message, enum or service (fields,
 * enum values, options, nested types). Throws 400 when over.
 */
export function checkProtoLimits(name: string, text: string, limits: ProtoLimits): void {
  checkProtoSize(name, text, limits);
  const perBlock: number[] = [0];
  let declarations = 0;
  for (let i = skipTrivia(text, 0); i < text.length; i = skipTrivia(text, i + 1)) {
    const c = text[i];
    if (c !== ';' && c !== '{' && c !== '}') continue;
    if (c === '}') {
      if (perBlock.length > 1) perBlock.pop();
      continue;
    }
    if (++declarations > limits.schemaDeclarations) {
      throw new LimitExceededError(`Schema ${name} has more than ${limits.schemaDeclarations} declarations (limit schema-declarations)`);
    }
    if (++perBlock[perBlock.length - 1] > limits.schemaFields && perBlock.length > 1) {
      throw new LimitExceededError(`Schema ${name} has a block with more than ${limits.schemaFields} fields or other declarations (limit schema-fields)`);
    }
    if (c === '{') {
      perBlock.push(0);
      if (perBlock.length - 1 > limits.schemaDepth) {
        throw new LimitExceededError(`Schema ${name} nests blocks deeper than ${limits.schemaDepth} levels (limit schema-depth)`);
      }
    }
  }
}

import { LimitExceededError } from '../../errors';

export interface ProtoLimits {
  schemaBytes: number;
  schemaFields: number;
  schemaDeclarations: number;
  schemaDepth: number;
  /** Declarations of all the schema files of one container together. */
  schemaTotalDeclarations: number;
  /** Bytes of all the schema files of one container together. */
  schemaTotalBytes: number;
}

/** What the other files of the container hold, and what the file being replaced held (0 when new). */
export interface ProtoTotals { others: number; replaced: number }

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
 * Declarations of one `.proto` file — every statement (`;`) and block (`{`): messages, enums,
 * fields, enum values, options, imports — counted in one linear pass, before the parser (whose
 * field handling is quadratic per message) sees the file. With `limits`, also checks its
 * `{}` nesting, its declarations and those directly inside one message, enum or service (fields,
 * enum values, options, nested types), and throws 400 when over.
 */
export function countProtoDeclarations(name: string, text: string, limits?: ProtoLimits): number {
  if (limits) checkProtoSize(name, text, limits);
  const perBlock: number[] = [0];
  let declarations = 0;
  for (let i = skipTrivia(text, 0); i < text.length; i = skipTrivia(text, i + 1)) {
    const c = text[i];
    if (c !== ';' && c !== '{' && c !== '}') continue;
    if (c === '}') {
      if (perBlock.length > 1) perBlock.pop();
      continue;
    }
    declarations++;
    const inBlock = perBlock.length > 1;
    const inThisBlock = ++perBlock[perBlock.length - 1];
    if (c === '{') perBlock.push(0);
    if (!limits) continue;
    if (declarations > limits.schemaDeclarations) {
      throw new LimitExceededError(`Schema ${name} has more than ${limits.schemaDeclarations} declarations (limit schema-declarations)`);
    }
    if (inBlock && inThisBlock > limits.schemaFields) {
      throw new LimitExceededError(`Schema ${name} has a block with more than ${limits.schemaFields} fields or other declarations (limit schema-fields)`);
    }
    if (perBlock.length - 1 > limits.schemaDepth) {
      throw new LimitExceededError(`Schema ${name} nests blocks deeper than ${limits.schemaDepth} levels (limit schema-depth)`);
    }
  }
  return declarations;
}

/**
 * A write may not take the container's schemas past a total (`schema-total-declarations`,
 * `schema-total-bytes`): every stored file is parsed and its types held again on each change, so
 * the total is what a change costs. A write that does not grow the total passes even when the
 * stored files are over a lowered limit, so they can still be shrunk or replaced.
 */
export function checkProtoTotal(name: string, amount: number, totals: ProtoTotals, limit: number, what: 'declarations' | 'bytes'): void {
  const after = totals.others + amount;
  if (after <= limit || amount <= totals.replaced) return;
  const limitName = what === 'bytes' ? 'schema-total-bytes' : 'schema-total-declarations';
  throw new LimitExceededError(`Schema ${name} would bring the schemas of this container to ${after} ${what}, more than ${limit} (limit ${limitName})`);
}

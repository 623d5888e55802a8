import { InvalidLiteralError, QueryFeatureNotSupportedError, QueryParameterNotSetError } from '../../errors';
import type { Scalar } from './analyzed-query';
import type { LiteralExpr } from './ast';
import type { ValueKind } from './entity-model';
import { toJavaLong } from './java-long';

const INT_MIN = -(2 ** 31);
const INT_MAX = 2 ** 31 - 1;
const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;

/** The type a literal is converted to: a field's kind, plus its enum values when it is an enum. */
export interface LiteralTarget {
  kind: ValueKind;
  enumValues?: Record<string, number>;
  enumName?: string;
}

/** The literal's text as written (docs/reference/query.md#literal-conversion: the text is converted, not the token). */
export function literalText(lit: LiteralExpr): string | undefined {
  switch (lit.kind) {
    case 'string': return lit.value;
    case 'number': return lit.text;
    case 'boolean': return String(lit.value);
    case 'null': return undefined;
    case 'param': throw new QueryParameterNotSetError(lit.name);
    case 'positionalParam': throw new QueryFeatureNotSupportedError('Positional parameters');
  }
}

/**
 * Converts a literal to the compared field's type with Java's parsing rules (docs/reference/query.md#literal-conversion):
 * `age = '25'` works, `age = 0x19` or `age = 25L` does not (ISPN028505).
 */
export function convertLiteral(text: string, target: LiteralTarget): Scalar {
  switch (target.kind) {
    case 'string': case 'bytes': return text;
    case 'int': return Number(parseInteger(text, BigInt(INT_MIN), BigInt(INT_MAX)));
    case 'long': return toJavaLong(parseInteger(text, LONG_MIN, LONG_MAX)); // exact: 2^53 + 1 stays itself
    case 'float': return Math.fround(parseDouble(text)); // compared with the stored float32, as Java's Float
    case 'double': return parseDouble(text);
    case 'bool': return parseBoolean(text);
    case 'enum': return parseEnum(text, target);
    case 'message': throw new InvalidLiteralError(`ISPN028505: Invalid numeric literal '${text}'`);
  }
}

function parseInteger(text: string, min: bigint, max: bigint): bigint {
  if (!/^[+-]?\d+$/.test(text)) throw invalidNumber(text);
  const v = BigInt(text);
  if (v < min || v > max) throw invalidNumber(text);
  return v;
}

/** Double.parseDouble: optional sign, decimal or exponent form, f/d suffix, NaN, Infinity. */
function parseDouble(text: string): number {
  const m = /^\s*([+-]?)(NaN|Infinity|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)[fFdD]?\s*$/.exec(text);
  if (!m) throw invalidNumber(text);
  if (m[2] === 'NaN') return NaN;
  return Number(m[1] + m[2]);
}

/** `true`/`false` in any case; protobuf booleans also read integers, non-zero being true. */
function parseBoolean(text: string): boolean {
  const lower = text.toLowerCase();
  if (lower === 'true' || lower === 'false') return lower === 'true';
  if (/^[+-]?\d+$/.test(text)) return Number(text) !== 0;
  throw new InvalidLiteralError(`ISPN028507: Invalid boolean literal '${text}'`);
}

/**
 * An enum by its value name (exact case) or its number, either one the enum declares (the original
 * looks the number up too, docs/reference/query.md#literal-conversion); the engine compares numbers (docs/reference/query.md#scan-semantics).
 */
function parseEnum(text: string, target: LiteralTarget): number {
  const values = target.enumValues;
  if (values && Object.hasOwn(values, text)) return values[text];
  if (/^[+-]?\d+$/.test(text) && (!values || Object.values(values).includes(Number(text)))) return Number(text);
  throw new InvalidLiteralError(`ISPN028508: Invalid enum literal '${text}' for enum type ${target.enumName ?? ''}`);
}

function invalidNumber(text: string): InvalidLiteralError {
  return new InvalidLiteralError(`ISPN028505: Invalid numeric literal '${text}'`);
}

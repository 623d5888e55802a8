import { EncodingError, excerpt } from '../../errors';
import { decodeHex } from '../media/content-codecs';

/**
 * The only Java objects this server understands (docs/reference/media-types.md#java-types): String, the primitive wrappers and
 * byte[]. Everything that crosses Java formats (x-java-object, serialization, marshalling,
 * protostream scalars) goes through this value; any other class is refused, never instantiated.
 */
export type JavaValue =
  | { type: 'java.lang.String'; value: string }
  | { type: 'java.lang.Integer' | 'java.lang.Long' | 'java.lang.Short' | 'java.lang.Byte'; value: bigint }
  | { type: 'java.lang.Boolean'; value: boolean }
  | { type: 'java.lang.Double' | 'java.lang.Float'; value: number }
  | { type: 'java.lang.Character'; value: string }
  | { type: 'byte[]'; value: Buffer };

export type JavaType = JavaValue['type'];

const RANGES = {
  'java.lang.Integer': [-(2n ** 31n), 2n ** 31n - 1n],
  'java.lang.Long': [-(2n ** 63n), 2n ** 63n - 1n],
  'java.lang.Short': [-32768n, 32767n],
  'java.lang.Byte': [-128n, 127n],
} as const;

export function javaString(value: string): JavaValue {
  return { type: 'java.lang.String', value };
}

export function javaBytes(value: Buffer): JavaValue {
  return { type: 'byte[]', value };
}

export type JavaIntegerType = keyof typeof RANGES;

export function javaInteger(type: JavaIntegerType, n: bigint): JavaValue {
  const [min, max] = RANGES[type];
  if (n < min || n > max) throw new EncodingError(`Value out of range. Value:"${n}"`);
  return { type, value: n };
}

/**
 * Decimal digits (an optional sign, then digits: the caller has checked) as a Java integer of
 * `type`. More than 20 significant digits are out of range of every type and refused before
 * BigInt reads them: its parsing and printing grow quadratically (1M digits took 1.6 s).
 */
export function parseJavaInteger(type: JavaIntegerType, digits: string): JavaValue {
  let start = digits.charCodeAt(0) === 0x2b || digits.charCodeAt(0) === 0x2d ? 1 : 0;
  while (start < digits.length - 1 && digits.charCodeAt(start) === 0x30) start++;
  if (digits.length - start > 20) throw new EncodingError(`Value out of range. Value:"${excerpt(digits)}"`);
  return javaInteger(type, BigInt(digits));
}

/** Whether `text` is one Unicode character (a surrogate pair counts as one), without splitting it all. */
function isOneCodePoint(text: string): boolean {
  if (text.length === 1) return true;
  if (text.length !== 2) return false;
  const high = text.charCodeAt(0);
  const low = text.charCodeAt(1);
  return high >= 0xd800 && high <= 0xdbff && low >= 0xdc00 && low <= 0xdfff;
}

/** `type` parameter of `application/x-java-object` → how the text of the value is read (JavaMediaTypeCodec). */
export function parseJavaText(text: string, type: string | undefined): JavaValue {
  switch (type) {
    case undefined:
    case 'java.lang.String': return javaString(text);
    case 'java.lang.Integer':
    case 'java.lang.Long':
    case 'java.lang.Short':
    case 'java.lang.Byte':
      if (!/^[+-]?\d+$/.test(text)) throw new EncodingError(`For input string: "${excerpt(text)}"`);
      return parseJavaInteger(type, text);
    case 'java.lang.Boolean': return { type, value: text.toLowerCase() === 'true' };
    case 'java.lang.Double':
    case 'java.lang.Float': {
      const n = Number(text.trim());
      if (text.trim() === '' || (Number.isNaN(n) && !/^[+-]?NaN$/.test(text.trim()))) throw new EncodingError(`For input string: "${excerpt(text)}"`);
      return { type, value: type === 'java.lang.Float' ? Math.fround(n) : n };
    }
    case 'java.lang.Character':
      if (!isOneCodePoint(text)) throw new EncodingError(`For input string: "${excerpt(text)}"`);
      return { type, value: text };
    case 'byte[]': return javaBytes(Buffer.from(text, 'utf8'));
    // JavaStringCodec.BYTE_ARRAY: the text is `0x` hex (`Bytes` is the spec's name for it)
    case 'ByteArray':
    case 'Bytes': return javaBytes(decodeHex(text));
    default: throw new EncodingError(`Type ${excerpt(type)} is unsupported`);
  }
}

/** `String.valueOf(x)` as Java writes it (byte[] keeps its raw bytes). */
export function formatJavaText(v: JavaValue): Buffer {
  if (v.type === 'byte[]') return v.value;
  return Buffer.from(javaToString(v), 'utf8');
}

export function javaToString(v: Exclude<JavaValue, { type: 'byte[]' }>): string {
  switch (v.type) {
    case 'java.lang.Double': return formatJavaDouble(v.value, false);
    case 'java.lang.Float': return formatJavaDouble(v.value, true);
    default: return String(v.value);
  }
}

/** Double.toString / Float.toString: `1.0`, `1.5E10`, `1.0E-5`, shortest digits that read back. */
export function formatJavaDouble(n: number, float: boolean): string {
  if (Number.isNaN(n)) return 'NaN';
  if (!Number.isFinite(n)) return n > 0 ? 'Infinity' : '-Infinity';
  if (n === 0) return Object.is(n, -0) ? '-0.0' : '0.0';
  const digits = float ? shortestFloat(n) : String(n);
  const [mantissa, exp] = Number(digits).toExponential().split('e');
  const e = Number(exp);
  const abs = Math.abs(n);
  if (abs >= 1e-3 && abs < 1e7) {
    const plain = float ? String(Number(digits)) : String(n);
    return plain.includes('.') ? plain : `${plain}.0`;
  }
  return `${mantissa.includes('.') ? mantissa : `${mantissa}.0`}E${e}`;
}

function shortestFloat(n: number): string {
  for (let p = 1; p <= 9; p++) {
    const s = n.toPrecision(p);
    if (Math.fround(Number(s)) === n) return String(Number(s));
  }
  return String(n);
}

import { EncodingError } from '../errors';
import { decodeHex } from './content-codecs';

/**
 * The only Java objects this server understands (issue 3): String, the primitive wrappers and
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

export function javaInteger(type: keyof typeof RANGES, n: bigint): JavaValue {
  const [min, max] = RANGES[type];
  if (n < min || n > max) throw new EncodingError(`Value out of range. Value:"${n}"`);
  return { type, value: n };
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
      if (!/^[+-]?\d+$/.test(text)) throw new EncodingError(`For input string: "${text}"`);
      return javaInteger(type, BigInt(text));
    case 'java.lang.Boolean': return { type, value: text.toLowerCase() === 'true' };
    case 'java.lang.Double':
    case 'java.lang.Float': {
      const n = Number(text.trim());
      if (text.trim() === '' || (Number.isNaN(n) && !/^[+-]?NaN$/.test(text.trim()))) throw new EncodingError(`For input string: "${text}"`);
      return { type, value: type === 'java.lang.Float' ? Math.fround(n) : n };
    }
    case 'java.lang.Character':
      if ([...text].length !== 1) throw new EncodingError(`For input string: "${text}"`);
      return { type, value: text };
    case 'byte[]': return javaBytes(Buffer.from(text, 'utf8'));
    // JavaStringCodec.BYTE_ARRAY: the text is `0x` hex (`Bytes` is the spec's name for it)
    case 'ByteArray':
    case 'Bytes': return javaBytes(decodeHex(text));
    default: throw new EncodingError(`Type ${type} is unsupported`);
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

// Quantity grammar of the original's TimeQuantity / ByteQuantity (commons/util): a number, optional
// unit; decimals only together with a unit. KB/MB/GB/TB are powers of 1000, KiB/MiB/GiB/TiB of 1024.
const DURATION = /^(-?)(\d*\.?\d+)\s*(ms|s|m|h|d)?$/;
const SIZE = /^(\d*\.?\d+)\s*([KMGT]i?B|B)?$/;

const MS_PER_UNIT: Readonly<Record<string, bigint>> = { ms: 1n, s: 1_000n, m: 60_000n, h: 3_600_000n, d: 86_400_000n };
const POWERS = ['B', 'K', 'M', 'G', 'T'];

interface Decimal { digits: bigint; scale: bigint }

function toDecimal(text: string): Decimal {
  const [whole, fraction = ''] = text.split('.');
  return { digits: BigInt(`${whole}${fraction}` || '0'), scale: 10n ** BigInt(fraction.length) };
}

/** Milliseconds of a duration such as `60000`, `5s`, `1.5h`; undefined when it does not parse. */
export function parseDurationMs(text: string): number | undefined {
  const match = DURATION.exec(text.trim());
  if (!match) return undefined;
  const [, sign, number, unit] = match;
  if (unit === undefined && number.includes('.')) return undefined;
  const { digits, scale } = toDecimal(number);
  const ms = (digits * MS_PER_UNIT[unit ?? 'ms']) / scale; // truncates, as the original does
  return Number(sign === '-' ? -ms : ms);
}

/** Bytes of a size such as `1000`, `400MB`, `1.5GiB`; undefined when it does not parse or is fractional. */
export function parseSizeBytes(text: string): number | undefined {
  const match = SIZE.exec(text.trim());
  if (!match) return undefined;
  const [, number, unit] = match;
  if (unit === undefined && number.includes('.')) return undefined;
  const base = unit?.includes('i') ? 1024n : 1000n;
  const power = BigInt(unit === undefined ? 0 : POWERS.indexOf(unit[0]));
  const { digits, scale } = toDecimal(number);
  const scaled = digits * base ** power;
  if (scaled % scale !== 0n) return undefined;
  return Number(scaled / scale);
}

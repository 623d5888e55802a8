import { InvalidCounterConfigurationError, MethodRequiresContentError, NoCounterElementError } from '../errors';
import type { AttributeDifference } from './cache-config';
import { parseJsonExact } from './exact-json';

export type CounterKind = 'weak-counter' | 'strong-counter';
export type CounterStorage = 'VOLATILE' | 'PERSISTENT';

export const LONG_MIN = -(2n ** 63n);
export const LONG_MAX = 2n ** 63n - 1n;

/** A counter definition (docs/reference/management-plane.md#counter-config); values are 64-bit, kept as BigInt end to end. */
export interface CounterConfig {
  kind: CounterKind;
  initialValue: bigint;
  storage: CounterStorage;
  /** weak counters only */
  concurrencyLevel: number;
  /** strong counters: bounded when either bound was given */
  bounded: boolean;
  lowerBound: bigint;
  upperBound: bigint;
  /** strong counters: ms after the last update at which the value returns to its initial value; -1 = never */
  lifespan: bigint;
}

const ATTRIBUTES: Record<CounterKind, readonly string[]> = {
  'weak-counter': ['name', 'initial-value', 'storage', 'concurrency-level'],
  'strong-counter': ['name', 'initial-value', 'storage', 'lower-bound', 'upper-bound', 'lifespan'],
};

function parseConfigJson(text: string): unknown {
  try {
    return parseJsonExact(text);
  } catch (err) {
    throw new InvalidCounterConfigurationError(`Invalid JSON: ${(err as Error).message}`);
  }
}

function toLong(name: string, raw: unknown): bigint {
  const v = typeof raw === 'object' && raw !== null && 'value' in raw ? (raw as { value: unknown }).value : raw; // legacy {"value": n}
  if ((typeof v === 'string' && /^[+-]?\d+$/.test(v.trim())) || (typeof v === 'number' && Number.isSafeInteger(v))) {
    const n = BigInt(typeof v === 'string' ? v.trim() : v);
    if (n >= LONG_MIN && n <= LONG_MAX) return n;
  }
  throw new InvalidCounterConfigurationError(`Invalid value '${JSON.stringify(v)}' for attribute '${name}': expected a 64-bit integer`);
}

/** Parses the body of `POST /counters/{name}` whatever its Content-Type said. */
export function parseCounterConfig(text: string): CounterConfig {
  if (text.trim() === '') throw new MethodRequiresContentError();
  const doc = parseConfigJson(text);
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new InvalidCounterConfigurationError('A counter configuration must be a JSON object');
  const kinds = Object.keys(doc).filter((k): k is CounterKind => k === 'weak-counter' || k === 'strong-counter');
  if (kinds.length === 0) throw new NoCounterElementError();
  if (kinds.length > 1 || Object.keys(doc).length > 1) throw new InvalidCounterConfigurationError('A counter configuration holds exactly one "weak-counter" or "strong-counter" element');
  const kind = kinds[0];
  const body = (doc as Record<string, unknown>)[kind];
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new InvalidCounterConfigurationError(`"${kind}" must be a JSON object`);
  const attrs = body as Record<string, unknown>;
  for (const key of Object.keys(attrs)) {
    if (!ATTRIBUTES[kind].includes(key)) throw new InvalidCounterConfigurationError(`Unexpected attribute '${key}' in '${kind}'`);
  }
  return validate({
    kind,
    initialValue: attrs['initial-value'] === undefined ? 0n : toLong('initial-value', attrs['initial-value']),
    storage: parseStorage(attrs.storage),
    concurrencyLevel: attrs['concurrency-level'] === undefined ? 16 : Number(toLong('concurrency-level', attrs['concurrency-level'])),
    bounded: attrs['lower-bound'] !== undefined || attrs['upper-bound'] !== undefined,
    lowerBound: attrs['lower-bound'] === undefined ? LONG_MIN : toLong('lower-bound', attrs['lower-bound']),
    upperBound: attrs['upper-bound'] === undefined ? LONG_MAX : toLong('upper-bound', attrs['upper-bound']),
    lifespan: attrs.lifespan === undefined ? -1n : toLong('lifespan', attrs.lifespan),
  });
}

function parseStorage(raw: unknown): CounterStorage {
  if (raw === undefined) return 'VOLATILE';
  const s = String(raw).toUpperCase();
  if (s === 'VOLATILE' || s === 'PERSISTENT') return s;
  throw new InvalidCounterConfigurationError(`Invalid storage '${String(raw)}': expected VOLATILE or PERSISTENT`);
}

function validate(c: CounterConfig): CounterConfig {
  if (c.kind === 'weak-counter' && c.concurrencyLevel < 1) {
    throw new InvalidCounterConfigurationError(`ISPN029509: Invalid concurrency-level. It must be higher than zero but it was ${c.concurrencyLevel}`);
  }
  if (c.bounded && c.lowerBound === c.upperBound) {
    throw new InvalidCounterConfigurationError(`ISPN029524: Lower bound (${c.lowerBound}) and upper bound (${c.upperBound}) can't be the same.`);
  }
  if (c.bounded && (c.initialValue < c.lowerBound || c.initialValue > c.upperBound)) {
    throw new InvalidCounterConfigurationError(
      `ISPN029508: Invalid initial value for counter. It must be between ${c.lowerBound} and ${c.upperBound} (inclusive) but was ${c.initialValue}`);
  }
  return c;
}

/** `GET /counters/{name}/config`: unnamed element, every attribute written, numbers as strings. */
export function formatCounterConfig(c: CounterConfig, pretty: boolean): string {
  const attrs: Record<string, string> = { 'initial-value': String(c.initialValue), storage: c.storage };
  if (c.kind === 'weak-counter') {
    attrs['concurrency-level'] = String(c.concurrencyLevel);
  } else {
    if (c.bounded) {
      attrs['upper-bound'] = String(c.upperBound);
      attrs['lower-bound'] = String(c.lowerBound);
    }
    attrs.lifespan = String(c.lifespan);
  }
  return JSON.stringify({ [c.kind]: attrs }, null, pretty ? 2 : undefined);
}

/** The attributes whose values differ, named as `GET /counters/{name}/config` writes them (`strong-counter.initial-value`). */
export function counterDifferences(a: CounterConfig, b: CounterConfig): AttributeDifference[] {
  if (a.kind !== b.kind) return [{ attribute: 'kind', existing: a.kind, updated: b.kind }];
  const [before, after] = [a, b].map((c) => (JSON.parse(formatCounterConfig(c, false)) as Record<string, Record<string, string>>)[c.kind]);
  return [...new Set([...Object.keys(before), ...Object.keys(after)])]
    .filter((name) => before[name] !== after[name])
    .map((name) => ({ attribute: `${a.kind}.${name}`, existing: before[name] ?? 'null', updated: after[name] ?? 'null' }));
}

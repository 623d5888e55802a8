import { illegalEnumValueError, illegalValueError } from './config-messages';
import { parseDurationMs, parseSizeBytes } from './quantities';
import type { RawAttribute, RawValue } from './raw-config';
import type { ValueKind } from './schema-spec';
import type { ConfigValue } from './types';

const INTEGER = /^[+-]?\d+$/;
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

function rawText(value: RawValue): string {
  return Array.isArray(value) ? value.join(' ') : String(value);
}

type TextKind = 'integer' | 'number' | 'duration' | 'size' | 'string';

/** Why `text` is not a value of `kind`, or undefined when it is one. */
function problemWith(kind: TextKind, text: string): string | undefined {
  switch (kind) {
    case 'integer': return INTEGER.test(text) ? undefined : 'expected an integer';
    case 'number': return DECIMAL.test(text) ? undefined : 'expected a number';
    case 'duration': return parseDurationMs(text) === undefined ? `Cannot parse time quantity ${text}` : undefined;
    case 'size': return parseSizeBytes(text) === undefined ? `Cannot parse bytes quantity ${text}` : undefined;
    case 'string': return undefined;
  }
}

/**
 * Gives a written value the type its schema kind demands: booleans become booleans, lists arrays,
 * everything else the decimal or literal text (JSON numbers included), so that the same definition
 * written in XML, JSON or YAML yields the same tree. Enum values take the schema's spelling.
 */
export function normalizeValue(element: string, attribute: RawAttribute, kind: ValueKind): ConfigValue {
  const { name, value, location } = attribute;
  if (kind === 'string-list') {
    return Array.isArray(value) ? [...value] : String(value).split(/\s+/).filter((item) => item !== '');
  }
  const text = rawText(value);
  if (Array.isArray(value)) throw illegalValueError(element, name, text, location, 'expected a single value, not a list');
  if (kind === 'boolean') {
    if (typeof value === 'boolean') return value;
    const lower = text.trim().toLowerCase();
    if (lower === 'true' || lower === 'false') return lower === 'true';
    throw illegalValueError(element, name, text, location, 'expected true or false');
  }
  if (typeof kind === 'object') {
    const match = kind.enum.find((allowed) => allowed.toLowerCase() === text.trim().toLowerCase());
    if (match === undefined) throw illegalEnumValueError(element, name, text, location, kind.enum);
    return match;
  }
  const problem = problemWith(kind, text.trim());
  if (problem !== undefined) throw illegalValueError(element, name, text, location, problem);
  return kind === 'string' ? text : text.trim();
}

/** Free-form attributes (store properties) keep their type without validation. */
export function freeFormValue(value: RawValue): ConfigValue {
  if (Array.isArray(value) || typeof value === 'boolean') return value;
  return String(value);
}

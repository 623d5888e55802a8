import type { ConfigValue } from './types';

export type ValueKind =
  | 'boolean' | 'integer' | 'number' | 'duration' | 'size' | 'string' | 'string-list'
  | { readonly enum: readonly string[] };

export interface AttributeSpec {
  readonly kind: ValueKind;
  /** Effective value when the element is present but the attribute is not. */
  readonly default?: ConfigValue;
  /** Effective value when the element itself is absent, if it differs from `default`. */
  readonly absentDefault?: ConfigValue;
  /** A default that depends on the element's other attributes. */
  readonly defaultFrom?: (attributes: Readonly<Record<string, ConfigValue>>) => ConfigValue;
}

export interface ElementSpec {
  readonly attributes: Readonly<Record<string, AttributeSpec>>;
  readonly children: Readonly<Record<string, ElementSpec>>;
  /** May appear more than once under its parent (JSON/YAML: an array, or a map when keyed). */
  readonly repeatable?: boolean;
  /** Repeated items written in JSON/YAML as a map keyed by this attribute (e.g. backups by site). */
  readonly mapKey?: string;
  /** Its mere presence changes what the cache is (a store, a backup site). */
  readonly significant?: boolean;
  /** Free-form attributes (store `properties`). */
  readonly anyAttributes?: boolean;
}

type Flags = Pick<ElementSpec, 'repeatable' | 'mapKey' | 'significant' | 'anyAttributes'>;

export function element(
  attributes: Record<string, AttributeSpec>,
  children: Record<string, ElementSpec> = {},
  flags: Flags = {},
): ElementSpec {
  return { attributes, children, ...flags };
}

function spec(kind: ValueKind, value?: ConfigValue | number, absent?: ConfigValue | number): AttributeSpec {
  const text = (v: ConfigValue | number | undefined) => (typeof v === 'number' ? String(v) : v);
  const result: { kind: ValueKind; default?: ConfigValue; absentDefault?: ConfigValue } = { kind };
  if (value !== undefined) result.default = text(value);
  if (absent !== undefined) result.absentDefault = text(absent);
  return result;
}

export const bool = (value?: boolean, absent?: boolean): AttributeSpec => spec('boolean', value, absent);
export const integer = (value?: number): AttributeSpec => spec('integer', value);
export const decimal = (value?: number): AttributeSpec => spec('number', value);
export const duration = (value?: number): AttributeSpec => spec('duration', value);
export const size = (): AttributeSpec => spec('size');
export const text = (value?: string): AttributeSpec => spec('string', value);
export const list = (): AttributeSpec => spec('string-list', []);
export const oneOf = (values: readonly string[], value?: string): AttributeSpec => spec({ enum: values }, value);

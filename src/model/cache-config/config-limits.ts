import { InvalidConfigurationError } from '../../errors';

/**
 * How large a configuration document may be (the server's `config-*` limits). Every reader checks
 * them as it goes, so a hostile document costs at most the work the limits allow.
 */
export interface ConfigLimits {
  configBytes: number;
  configElements: number;
  configAttributes: number;
  configDepth: number;
}

/** Definitions the server wrote itself (stored ones, built-in ones) are read without caps. */
export const NO_CONFIG_LIMITS: ConfigLimits = {
  configBytes: Infinity, configElements: Infinity, configAttributes: Infinity, configDepth: 10_000,
};

export function tooLargeError(what: string, limit: number, name: string): InvalidConfigurationError {
  return new InvalidConfigurationError(`The configuration has more than ${limit} ${what} (limit ${name})`);
}

export function tooDeepError(limit: number): InvalidConfigurationError {
  return new InvalidConfigurationError(`The configuration is nested deeper than ${limit} levels (limit config-depth)`);
}

/** Counts elements and attributes against the limits while a reader walks a document. */
export class ConfigBudget {
  private elements = 0;
  private attributes = 0;

  constructor(readonly limits: ConfigLimits) {}

  checkSize(text: string): void {
    // a UTF-8 byte is at least a third of a UTF-16 unit: only texts near the limit are measured
    if (text.length * 3 > this.limits.configBytes && Buffer.byteLength(text, 'utf8') > this.limits.configBytes) {
      throw new InvalidConfigurationError(`The configuration is larger than ${this.limits.configBytes} bytes (limit config-bytes)`);
    }
  }

  element(depth: number): void {
    if (depth > this.limits.configDepth) throw tooDeepError(this.limits.configDepth);
    if (++this.elements > this.limits.configElements) throw tooLargeError('elements', this.limits.configElements, 'config-elements');
  }

  attribute(count = 1): void {
    this.attributes += count;
    if (this.attributes > this.limits.configAttributes) throw tooLargeError('attributes', this.limits.configAttributes, 'config-attributes');
  }
}

/** `record[key]` for own keys only: `__proto__`, `constructor` or `toString` name nothing in a schema table. */
export function own<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}

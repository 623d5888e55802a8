import { InvalidConfigurationError } from '../../errors';
import type { ConfigBudget } from './config-limits';
import type { RawDocument } from './raw-config';
import { readObjectConfig } from './read-object-config';
import { scanJsonKeys } from './scan-json-keys';
import { KeyLocator, LineIndex } from './text-location';

/** The parsed value and where each key is in the text (for messages that point at it). */
export function readJsonDocument(text: string): { value: unknown; locator: KeyLocator } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new InvalidConfigurationError(err instanceof Error ? err.message : String(err));
  }
  return { value, locator: new KeyLocator(scanJsonKeys(text), new LineIndex(text)) };
}

export function readJsonConfig(text: string, budget: ConfigBudget): RawDocument {
  const { value, locator } = readJsonDocument(text);
  return readObjectConfig(value, { toName: (key) => key, locator, budget });
}

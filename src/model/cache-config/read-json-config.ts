import { InvalidConfigurationError } from '../../errors';
import type { ConfigBudget } from './config-limits';
import type { RawDocument } from './raw-config';
import { readObjectConfig } from './read-object-config';
import { scanJsonKeys } from './scan-json-keys';
import { KeyLocator, LineIndex } from './text-location';

export function readJsonConfig(text: string, budget: ConfigBudget): RawDocument {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new InvalidConfigurationError(err instanceof Error ? err.message : String(err));
  }
  const locator = new KeyLocator(scanJsonKeys(text), new LineIndex(text));
  return readObjectConfig(parsed, { toName: (key) => key, locator, budget });
}

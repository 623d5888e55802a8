import { InvalidConfigurationError } from '../../errors';
import type { RawDocument } from './raw-config';
import { readObjectConfig } from './read-object-config';
import { KeyLocator } from './text-location';

export function readJsonConfig(text: string): RawDocument {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new InvalidConfigurationError(err instanceof Error ? err.message : String(err));
  }
  return readObjectConfig(parsed, { toName: (key) => key, locator: new KeyLocator(text, 'json') });
}

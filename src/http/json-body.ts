import type { GridError } from '../errors';
import { jsonShapeRefusal } from '../model/json-shape';
import type { Services } from '../services';
import { readText } from './request-body';
import type { GridContext } from './route-spec';

/**
 * The text of a small JSON document of the management API — a counter definition, a backup or
 * restore request, an x-site take-offline configuration — read as a configuration is: 413 past
 * `config-bytes`, and `invalid(reason)` past `config-attributes` values or `config-depth` levels,
 * counted before anything parses it (docs/security.md, Limits).
 */
export async function readJsonText(ctx: GridContext, s: Services, invalid: (reason: string) => GridError): Promise<string> {
  const text = await readText(ctx, Math.min(s.bodyLimit, s.limits.configBytes));
  checkJsonShape(text, s, invalid);
  return text;
}

/** The same count for JSON text that came another way (a multipart field). */
export function checkJsonShape(text: string, s: Services, invalid: (reason: string) => GridError): void {
  const refusal = jsonShapeRefusal(text, { maxValues: s.limits.configAttributes, maxDepth: s.limits.configDepth });
  if (refusal) throw invalid(refusal);
}

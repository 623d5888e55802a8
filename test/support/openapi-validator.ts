import type { Validator } from '@seriousme/openapi-schema-validator';

/** The validator is an ES module; TypeScript's CommonJS output would turn `import()` into `require()`. */
const importModule = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<unknown>;

/** Errors of an OpenAPI document against the official 3.x JSON schemas, [] when it is valid. */
export async function openApiErrors(document: unknown): Promise<string[]> {
  const { Validator: ValidatorClass } = (await importModule('@seriousme/openapi-schema-validator')) as { Validator: new () => Validator };
  const result = await new ValidatorClass().validate(document as Record<string, unknown>);
  if (result.valid) return [];
  const errors = result.errors ?? 'invalid';
  return typeof errors === 'string' ? [errors] : errors.map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
}

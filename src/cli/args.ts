import { parseArgs, type ParseArgsConfig } from 'node:util';

/** Bad usage: printed with a hint, exit code 2. */
export class UsageError extends Error {}

export type Parsed = ReturnType<typeof parseArgs<ParseArgsConfig>>;

/** Node's own argument parser, strict: unknown flags are usage errors. Every command has -h. */
export function parse(args: string[], options: ParseArgsConfig['options']): Parsed {
  try {
    return parseArgs({ args, options: { ...options, help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

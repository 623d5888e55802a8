import { parseArgs, type ParseArgsConfig } from 'node:util';
import { didYouMean } from './did-you-mean';

/** Bad usage: printed with a hint, exit code 2. */
export class UsageError extends Error {}

export type Parsed = ReturnType<typeof parseArgs<ParseArgsConfig>>;

// A negative number is a value (`grid counter add c -5`, `--ttl -1`), never a flag: no flag is a digit.
const NEGATIVE = /^-\d+(\.\d+)?$/;
const MARK = '\u0000';

/**
 * Node's own argument parser, strict: unknown flags are usage errors, with the nearest known flag
 * as a suggestion. Every command has -h.
 */
export function parse(args: string[], options: ParseArgsConfig['options']): Parsed {
  const all = { ...options, help: { type: 'boolean' as const, short: 'h' } };
  const marked = args.map((a) => (NEGATIVE.test(a) ? MARK + a : a));
  let parsed: Parsed;
  try {
    parsed = parseArgs({ args: marked, options: all, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError(explain(err as Error & { code?: string }, all));
  }
  const unmark = (v: unknown): unknown => (typeof v === 'string' && v.startsWith(MARK) ? v.slice(1) : Array.isArray(v) ? v.map(unmark) : v);
  return {
    ...parsed,
    positionals: parsed.positionals.map((p) => unmark(p) as string),
    values: Object.fromEntries(Object.entries(parsed.values).map(([k, v]) => [k, unmark(v)])) as Parsed['values'],
  };
}

/** parseArgs' messages, in the CLI's words: one sentence, with a did-you-mean for a misspelt flag. */
function explain(err: Error & { code?: string }, options: NonNullable<ParseArgsConfig['options']>): string {
  const unknown = /^Unknown option '([^']+)'/.exec(err.message);
  if (err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && unknown) {
    const flag = unknown[1];
    const known = Object.entries(options).flatMap(([name, o]) => [`--${name}`, ...(o.short ? [`-${o.short}`] : [])]);
    const guess = didYouMean(flag.startsWith('--') ? flag : flag.length > 2 ? `-${flag}` : flag, known);
    return `unknown flag '${flag.replace(MARK, '')}'${guess ? `: did you mean ${guess}?` : ''}`;
  }
  return err.message.split('\n')[0].replace(MARK, '');
}

/** An unknown command or sub-command (`grid cahce`, `grid cache lst`), with the nearest known one. */
export function unknownCommand(word: string, known: readonly string[], parent?: string): UsageError {
  const guess = didYouMean(word, known);
  const full = (w: string) => (parent ? `${parent} ${w}` : w);
  return new UsageError(`unknown command '${full(word)}'${guess ? `: did you mean '${full(guess)}'?` : `; there are ${known.join(', ')}`}`);
}

/**
 * The sub-command and its argument of `grid GROUP SUB [ARG]`: a missing or unknown sub-command, a
 * missing argument and an argument too many are usage errors. `operand` names what a sub-command
 * needs (`NAME`, `FILE`), or nothing for the ones that take no argument (`ls`).
 */
export function subcommand(group: string, positionals: string[], subcommands: readonly string[], operand: (sub: string) => string | undefined): { sub: string; arg: string | undefined } {
  const [sub, arg, ...extra] = positionals;
  if (extra.length) throw new UsageError(`unexpected argument '${extra[0]}'`);
  if (sub === undefined) throw new UsageError(`${group} needs a command: ${subcommands.join(', ')}`);
  if (!subcommands.includes(sub)) throw unknownCommand(sub, subcommands, group);
  const needed = operand(sub);
  if (needed !== undefined && !arg) throw new UsageError(`${group} ${sub} needs a ${needed}`);
  return { sub, arg };
}

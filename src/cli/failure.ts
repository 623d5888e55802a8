/** Exit codes of the CLI (docs/cli.md, Exit codes). */
export const EXIT = {
  /** The command did not do what was asked: the server refused, something is missing, a file cannot be read. */
  failed: 1,
  /** The command line is wrong: printed with a hint to --help. */
  usage: 2,
  /** Nothing answers at the server's URL. */
  noServer: 3,
} as const;

/** A command that could not do its work: one sentence on stderr, an exit code, never a stack trace. */
export class CommandFailure extends Error {
  constructor(message: string, readonly exitCode: number = EXIT.failed) {
    super(message);
  }
}

import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import { CommandFailure } from './failure';

/** A file named on the command line, read whole (configurations, schemas, scripts, values). */
export function readInputFile(file: string): Buffer {
  try {
    return readFileSync(file === '-' ? 0 : file);
  } catch (err) {
    throw unreadable(file, err);
  }
}

/** A large file (an archive), read while it is sent: checked here, and its size. */
export function inputFile(file: string): { size: number } {
  try {
    const stat = statSync(file);
    if (!stat.isFile()) throw new CommandFailure(`${file} is not a file`);
    accessSync(file, constants.R_OK);
    return { size: stat.size };
  } catch (err) {
    throw unreadable(file, err);
  }
}

export function unreadable(file: string, err: unknown): CommandFailure {
  if (err instanceof CommandFailure) return err;
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return new CommandFailure(`${file} does not exist`);
  if (code === 'EACCES' || code === 'EPERM') return new CommandFailure(`${file} cannot be read: permission denied`);
  if (code === 'EISDIR') return new CommandFailure(`${file} is a directory, not a file`);
  return new CommandFailure(`${file} cannot be read: ${(err as Error).message}`);
}

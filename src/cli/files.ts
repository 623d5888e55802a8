import { openAsBlob, readFileSync, statSync } from 'node:fs';
import { CommandFailure } from './failure';

/** A file named on the command line, read whole (configurations, schemas, scripts, values). */
export function readInputFile(file: string): Buffer {
  try {
    return readFileSync(file === '-' ? 0 : file);
  } catch (err) {
    throw unreadable(file, err);
  }
}

/** A large file (an archive) as a blob read from disk while it is sent, and its size. */
export async function openInputFile(file: string): Promise<{ blob: Blob; size: number }> {
  try {
    if (!statSync(file).isFile()) throw new CommandFailure(`${file} is not a file`);
    return { blob: await openAsBlob(file), size: statSync(file).size };
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

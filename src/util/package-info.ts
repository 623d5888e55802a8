import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The folder holding package.json (works from `src/` and from the compiled `dist/src/`). */
export function packageRoot(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('package.json not found above ' + __dirname);
    dir = parent;
  }
  return dir;
}

let cachedVersion: string | undefined;

export function packageVersion(): string {
  cachedVersion ??= (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
  return cachedVersion;
}

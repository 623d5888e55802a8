import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { packageRoot } from '../../src/util/package-info';

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `node bin/grid …args` from the package root, as a user would (the compiled dist/ must exist).
 * APP_* variables of the calling shell are not passed on.
 */
export function runGrid(args: string[], timeoutMs = 15_000): CliResult {
  const env = { ...process.env };
  for (const name of ['APP_USER', 'APP_PASS', 'APP_ROLE']) delete env[name];
  const root = packageRoot();
  const r = spawnSync(process.execPath, [join(root, 'bin', 'grid'), ...args], { cwd: root, env, encoding: 'utf8', timeout: timeoutMs });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

import { execFileSync } from 'node:child_process';

/** True when `command` runs (`command --version`, or the flag given). */
export function hasTool(command: string, versionFlag = '--version'): boolean {
  try {
    execFileSync(command, [versionFlag], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Skips the test (or the `describe` whose `before` calls it) when `command` is missing — but under
 * CI (`CI` set, as `.ci/run` does), which installs every tool the tests use, a missing tool fails
 * instead: a skipped check must not pass for a green run.
 */
export function needTool(ctx: Mocha.Context, command: string, what: string, versionFlag?: string): void {
  if (hasTool(command, versionFlag)) return;
  if (process.env.CI) throw new Error(`${command} is missing under CI (${what}): .ci/run installs it`);
  console.log(`      skipped: ${command} is not installed (${what}; .ci/run installs it)`);
  ctx.skip();
}

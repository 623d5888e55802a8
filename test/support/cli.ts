import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
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

export interface GridRun {
  /** exit code */
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `bin/grid …args` as a child process without blocking this process, so a server started in
 * it (startTestServer) can answer. The environment is clean of GRID_*, NETRC and APP_*, and HOME is
 * `home` (default: a folder with no ~/.netrc) unless `env` says otherwise.
 */
export function grid(args: string[], opts: { env?: Record<string, string>; input?: string | Buffer; timeoutMs?: number; cwd?: string } = {}): Promise<GridRun> {
  const env = cleanEnv(opts.env);
  const root = packageRoot();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, 'bin', 'grid'), ...args], { cwd: opts.cwd ?? root, env, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 15_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
    });
    child.stdin.end(opts.input ?? '');
  });
}

const EMPTY_HOME = mkdtempSync(join(tmpdir(), 'grid-cli-home-'));

/** This process's environment without what would change whom the CLI talks to or as whom. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: EMPTY_HOME };
  for (const name of Object.keys(env)) if (/^(GRID_|APP_)/.test(name) || name === 'NETRC') delete env[name];
  return { ...env, ...extra };
}

/**
 * Runs `bin/grid …args` on a pseudo-terminal (util-linux `script`), as a person at a terminal
 * would: stdout and stderr are both the terminal, so the answer holds what was drawn, in order.
 */
export function gridOnTerminal(args: string[], env: Record<string, string> = {}): Promise<GridRun> {
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const command = [process.execPath, join(packageRoot(), 'bin', 'grid'), ...args].map(quote).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], { cwd: packageRoot(), env: cleanEnv({ COLUMNS: '200', ...env }), stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => out.push(c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(out).toString('utf8').replace(/\r\n/g, '\n'), stderr: '' }));
    child.stdin.end();
  });
}

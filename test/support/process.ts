import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

export const GRID_BIN = join(__dirname, '..', '..', '..', 'bin', 'grid');

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  output: () => string;
}

/**
 * Starts `bin/grid start` as a real process on port 0 and waits for its "listening on" line.
 * `wrapper` runs it under another command (e.g. `['strace', '-f', …]`), which gets node's path next.
 */
export function spawnServer(args: string[], env: Record<string, string> = {}, wrapper: string[] = []): Promise<ServerProcess> {
  const command = [...wrapper, process.execPath, GRID_BIN, 'start', '--port', '0', '--log-level', 'warn', ...args];
  const child = spawn(command[0], command.slice(1), {
    env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('server did not start:\n' + out)), 15_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[1], output: () => out });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (c: Buffer) => { out += c.toString(); });
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`server exited with ${code}:\n${out}`)); });
  });
}

export function waitForExit(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

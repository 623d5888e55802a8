import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { ensurePrivateDir, ensurePrivateFile } from '../util/private-files';
import { CommandFailure } from './failure';

/**
 * One `redis-server` of a local Redis (docs/scale-out.md, "A local cluster"): started from the
 * installed binary on loopback, with its own directory, configuration file and PID file, and
 * stopped by that PID only — never by name, so nobody else's Redis is touched.
 */

/** A node's client port and its cluster bus port (Redis's default is the client port + 10000). */
export interface RedisNodeSpec {
  port: number;
  busPort: number;
}

export interface RedisNodeOptions {
  /** `cluster-enabled yes`; false: a plain Redis (the probe's tests need one). */
  cluster: boolean;
  /** `requirepass` and `masterauth`; written to the node's 0600 configuration file, never to argv. */
  password?: string;
  /** In a process group of its own, outliving the caller (the CLI); false: dies with a test run's Ctrl-C. */
  detached: boolean;
}

const HOST = '127.0.0.1';
const START_TIMEOUT_MS = 10_000;
const STOP_TIMEOUT_MS = 15_000;

export function nodeDir(dir: string, port: number): string {
  return join(dir, `node-${port}`);
}

export function address(port: number): string {
  return `${HOST}:${port}`;
}

/**
 * The node's settings: loopback only, protected, every write in the append-only file and fsynced
 * before it is acknowledged, no RDB snapshots; in a cluster a 2 s node timeout (a killed master's
 * replica takes over in about 4 s).
 */
function configText(home: string, spec: RedisNodeSpec, opts: RedisNodeOptions): string {
  const lines = [
    `port ${spec.port}`, `bind ${HOST}`, 'protected-mode yes', `dir ${home}`, `logfile ${join(home, 'redis.log')}`,
    'appendonly yes', 'appendfsync always', 'save ""',
  ];
  if (opts.cluster) {
    lines.push('cluster-enabled yes', `cluster-port ${spec.busPort}`, 'cluster-config-file nodes.conf', 'cluster-node-timeout 2000');
  }
  if (opts.password !== undefined) lines.push(`requirepass ${opts.password}`, `masterauth ${opts.password}`);
  return lines.join('\n') + '\n';
}

/** Client and bus ports the system had free a moment ago (all held at once, so they differ): for throwaway nodes. */
export async function freeNodePorts(count: number): Promise<RedisNodeSpec[]> {
  const servers: Server[] = [];
  try {
    for (let i = 0; i < count * 2; i++) {
      const server = createServer();
      await new Promise<void>((resolve) => server.listen(0, HOST, resolve));
      servers.push(server);
    }
    const ports = servers.map((s) => (s.address() as { port: number }).port);
    return Array.from({ length: count }, (_, i) => ({ port: ports[2 * i], busPort: ports[2 * i + 1] }));
  } finally {
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  }
}

/** Writes a file only its owner can read (it may hold the password). */
export function writePrivateFile(path: string, text: string): void {
  ensurePrivateFile(path);
  writeFileSync(path, text);
}

/** Starts the node in `dir/node-PORT` and waits until it answers PING; its PID is in `redis.pid`. */
export async function startRedisNode(dir: string, spec: RedisNodeSpec, opts: RedisNodeOptions): Promise<number> {
  const home = nodeDir(dir, spec.port);
  ensurePrivateDir(home);
  const conf = join(home, 'redis.conf');
  writePrivateFile(conf, configText(home, spec, opts));
  const child = spawn('redis-server', [conf], { cwd: home, detached: opts.detached, stdio: 'ignore' });
  const pid = await spawned(child);
  writePrivateFile(join(home, 'redis.pid'), `${pid}\n`);
  if (opts.detached) child.unref();
  let exited = false;
  child.once('exit', () => { exited = true; });
  for (const end = Date.now() + START_TIMEOUT_MS; Date.now() < end;) {
    if (exited) throw new CommandFailure(`redis-server on port ${spec.port} exited at start: ${lastLogLine(home)}`);
    if (await redisCli(spec.port, ['PING'], opts.password).then((out) => out === 'PONG', () => false)) return pid;
    await sleep(100);
  }
  throw new CommandFailure(`redis-server on port ${spec.port} did not answer within ${START_TIMEOUT_MS / 1000} s: ${lastLogLine(home)}`);
}

function spawned(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    child.once('spawn', () => resolve(child.pid!));
    child.once('error', (err: NodeJS.ErrnoException) => reject(err.code === 'ENOENT'
      ? new CommandFailure('redis-server is not installed: apt-get install redis-server (it brings redis-cli)')
      : err));
  });
}

function lastLogLine(home: string): string {
  try {
    const lines = readFileSync(join(home, 'redis.log'), 'utf8').trim().split('\n');
    return lines[lines.length - 1].replace(/^\d+:[A-Z] [^*#.-]*[*#.-] /, '') || 'no log';
  } catch {
    return 'no log';
  }
}

/**
 * The PID of the node's redis-server when it runs: the PID file's process, and only while it is
 * still a redis-server on that port (Linux: its title, as /proc shows it), so a PID the system gave
 * to another process since is never signalled.
 */
export function runningPid(dir: string, port: number): number | undefined {
  let pid: number;
  try {
    pid = Number(readFileSync(join(nodeDir(dir, port), 'redis.pid'), 'utf8').trim());
  } catch {
    return undefined;
  }
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  let title: string;
  try {
    title = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined; // no such process
    return isAlive(pid) ? pid : undefined; // no /proc here: the PID file is all there is
  }
  return title.startsWith('redis-server') && title.includes(`:${port}`) ? pid : undefined;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Stops the node by its PID: SIGTERM (Redis writes and closes its files), or `SIGKILL` for a
 * throwaway node; SIGKILL after 15 s still running. False when it was not running.
 */
export async function stopRedisNode(dir: string, port: number, signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'): Promise<boolean> {
  const pid = runningPid(dir, port);
  if (pid === undefined) return false;
  process.kill(pid, signal);
  for (const end = Date.now() + STOP_TIMEOUT_MS; runningPid(dir, port) === pid;) {
    if (Date.now() > end) process.kill(pid, 'SIGKILL');
    await sleep(50);
  }
  return true;
}

/**
 * `redis-cli -h 127.0.0.1 -p PORT …args`, its output trimmed; the password goes in REDISCLI_AUTH,
 * where other users cannot read it (they can read argv). Rejects when redis-cli fails or answers
 * with an error.
 */
export function redisCli(port: number, args: string[], password?: string, timeoutMs = 30_000): Promise<string> {
  const env = { ...process.env, ...(password === undefined ? {} : { REDISCLI_AUTH: password }) };
  return new Promise((resolve, reject) => {
    execFile('redis-cli', ['-h', HOST, '-p', String(port), ...args], { env, timeout: timeoutMs, encoding: 'utf8' }, (err, stdout, stderr) => {
      const out = stdout.trim();
      if (err) {
        const missing = (err as NodeJS.ErrnoException).code === 'ENOENT';
        reject(new CommandFailure(missing ? 'redis-cli is not installed: apt-get install redis-server (it brings redis-cli)' : `redis-cli ${args[0]} on port ${port} failed: ${(stderr.trim() || out).split('\n').pop()}`));
      } else if (/^(ERR|NOAUTH|WRONGPASS|MOVED|CLUSTERDOWN|Could not connect)\b/.test(out)) {
        reject(new CommandFailure(`redis-cli ${args[0]} on port ${port}: ${out.split('\n')[0]}`));
      } else {
        resolve(out);
      }
    });
  });
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

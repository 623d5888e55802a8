import { cpus, loadavg, networkInterfaces, tmpdir } from 'node:os';
import { cp, mkdtemp, readdir, readFile, readlink, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { lazy } from '../../util/lazy';
import { PRIVATE_FILE_MODE } from '../../util/private-files';

const tar = lazy(() => require('tar') as typeof import('tar'));
import type { RuntimeInfo } from './runtime-info';

export interface ReportInput {
  nodeName: string;
  dataDir: string;
  configuration: unknown;
  runtime: RuntimeInfo;
  now: Date;
}

export interface Report {
  filename: string;
  stream: Readable;
}

/**
 * `GET /server/report` (docs/reference/management-plane.md#server-runtime): a tar.gz of the configuration, log files, memory and
 * CPU figures, open files, network listeners and a thread dump, written to a temp folder first and
 * streamed; the folder goes once the stream ends.
 *
 * @public loaded on first use, through `lazy(() => require(…))`, which the dead-export check cannot follow
 */
export async function buildReport(input: ReportInput): Promise<Report> {
  const dir = await mkdtemp(join(tmpdir(), 'grid-report-'));
  try {
    await writeFile(join(dir, 'server-config.json'), JSON.stringify(input.configuration, null, 2), { mode: PRIVATE_FILE_MODE });
    await writeFile(join(dir, 'env.json'), JSON.stringify(input.runtime.properties(), null, 2), { mode: PRIVATE_FILE_MODE });
    await writeFile(join(dir, 'memory.json'), JSON.stringify(input.runtime.memory(), null, 2), { mode: PRIVATE_FILE_MODE });
    await writeFile(join(dir, 'cpu.json'), JSON.stringify({ cpus: cpus(), loadavg: loadavg(), process: process.cpuUsage() }, null, 2), { mode: PRIVATE_FILE_MODE });
    await writeFile(join(dir, 'threads.txt'), input.runtime.threadDump(), { mode: PRIVATE_FILE_MODE });
    await writeFile(join(dir, 'open-files.txt'), await openFiles(), { mode: PRIVATE_FILE_MODE });
    await writeFile(join(dir, 'network.txt'), await network(), { mode: PRIVATE_FILE_MODE });
    const logs = join(input.dataDir, 'log');
    if (existsSync(logs)) await cp(logs, join(dir, 'log'), { recursive: true });
    const entries = await readdir(dir);
    // tar's stream is a Minipass, not a Node stream: wrap it so Koa streams it rather than serialising it.
    // tar's own gzip runs on the event loop (33 MB of logs held it 0.6 s): Node's runs on the thread pool.
    const tarball = Readable.from(tar().create({ cwd: dir, portable: true }, entries) as AsyncIterable<Buffer>);
    const stream = tarball.pipe(createGzip());
    tarball.once('error', (err) => stream.destroy(err));
    const cleanup = () => { void rm(dir, { recursive: true, force: true }); };
    stream.once('close', cleanup);
    return { filename: `grid-${input.nodeName.replace(/[^\w.-]/g, '-')}-${stamp(input.now)}-report.tar.gz`, stream };
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
}

function stamp(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}`;
}

/** The process's open file descriptors (Linux /proc; elsewhere a note). */
async function openFiles(): Promise<string> {
  try {
    const fds = await readdir('/proc/self/fd');
    const lines = await Promise.all(fds.map(async (fd) => `${fd}\t${await readlink(`/proc/self/fd/${fd}`).catch(() => '?')}`));
    return lines.join('\n') + '\n';
  } catch {
    return 'open files are only listed on Linux (/proc)\n';
  }
}

async function network(): Promise<string> {
  const parts = [`interfaces:\n${JSON.stringify(networkInterfaces(), null, 2)}`];
  for (const f of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const text = await readFile(f, 'utf8').catch(() => undefined);
    if (text) parts.push(`${f}:\n${text}`);
  }
  return parts.join('\n\n') + '\n';
}

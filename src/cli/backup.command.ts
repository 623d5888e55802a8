import { createWriteStream, openAsBlob, statSync } from 'node:fs';
import { basename } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileNameOf } from '../model/name-encoding';
import { parse, UsageError } from './args';
import { USAGE } from './usage';

interface Target {
  server: string;
  /** `/rest`, or `/rest/<tenant>` for a tenant's container. */
  rest: string;
  authorization: string | undefined;
}

/** `grid backup create|restore`: a client of a running server's backup and restore API. */
export async function runBackup(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, {
    server: { type: 'string' }, user: { type: 'string', short: 'u' }, password: { type: 'string', short: 'p' },
    output: { type: 'string', short: 'o' }, name: { type: 'string' }, tenant: { type: 'string' },
  });
  if (values.help) {
    process.stdout.write(USAGE.backup + '\n');
    return 0;
  }
  const [sub, arg, ...extra] = positionals;
  if (extra.length) throw new UsageError(`unexpected argument '${extra[0]}'`);
  const user = (values.user as string | undefined) ?? process.env.GRID_USER;
  const password = (values.password as string | undefined) ?? process.env.GRID_PASSWORD;
  const target: Target = {
    server: ((values.server as string | undefined) ?? 'http://127.0.0.1:11222').replace(/\/+$/, ''),
    rest: values.tenant === undefined ? '/rest' : `/rest/${encodeURIComponent(values.tenant as string)}`,
    authorization: user === undefined ? undefined : 'Basic ' + Buffer.from(`${user}:${password ?? ''}`).toString('base64'),
  };
  switch (sub) {
    case 'create':
      if (!arg) throw new UsageError('backup create needs a NAME');
      // by default the archive's own file name: the name encoded, so `a/b` or `..` is one file here
      return create(target, arg, (values.output as string | undefined) ?? `${fileNameOf(arg)}.zip`);
    case 'restore':
      if (!arg) throw new UsageError('backup restore needs a FILE');
      return restore(target, arg, (values.name as string | undefined) ?? `restore-${Date.now()}`);
    default:
      throw new UsageError(sub ? `unknown backup command '${sub}'` : 'backup needs a command: create or restore');
  }
}

async function call(t: Target, method: string, path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (t.authorization) headers.set('Authorization', t.authorization);
  return fetch(t.server + path, { ...init, method, headers });
}

/** Waits while the operation answers 202; returns the final status. */
async function waitFor(t: Target, path: string, progress: Progress): Promise<number> {
  for (;;) {
    const r = await call(t, 'HEAD', path);
    if (r.status !== 202) return r.status;
    progress.tick('waiting for the server');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function create(t: Target, name: string, output: string): Promise<number> {
  const progress = new Progress(`backup ${name}`);
  const path = `${t.rest}/v2/cluster/backups/${encodeURIComponent(name)}`;
  const started = await call(t, 'POST', path);
  if (started.status !== 202) return fail(`the server refused the backup: ${started.status} ${await started.text()}`);
  const status = await waitFor(t, path, progress);
  if (status !== 200) return fail(`the backup failed on the server (${status})`);
  const download = await call(t, 'GET', path);
  if (download.status !== 200 || !download.body) return fail(`download failed: ${download.status}`);
  const body = Readable.fromWeb(download.body as import('node:stream/web').ReadableStream);
  let bytes = 0;
  body.on('data', (chunk: Buffer) => progress.tick(`${(bytes += chunk.length).toLocaleString()} bytes`));
  await pipeline(body, createWriteStream(output, { mode: 0o600 })); // the archive holds every entry: owner only
  progress.done(`saved ${output} (${bytes.toLocaleString()} bytes)`);
  return 0;
}

async function restore(t: Target, file: string, name: string): Promise<number> {
  const progress = new Progress(`restore ${name}`);
  const size = statSync(file).size;
  const form = new FormData();
  form.append('backup', await openAsBlob(file, { type: 'application/zip' }), basename(file));
  progress.tick(`uploading ${size.toLocaleString()} bytes`);
  const path = `${t.rest}/v2/cluster/restores/${encodeURIComponent(name)}`;
  const started = await call(t, 'POST', path, { body: form });
  if (started.status !== 202) return fail(`the server refused the restore: ${started.status} ${await started.text()}`);
  const status = await waitFor(t, path, progress);
  if (status !== 201) return fail(`the restore failed on the server (${status})`);
  progress.done(`restored ${file} as '${name}'`);
  return 0;
}

function fail(message: string): number {
  process.stderr.write(`grid: ${message}\n`);
  return 1;
}

/** A one-line progress display on a terminal; plain lines, at most one a second, otherwise. */
class Progress {
  private lastLine = 0;
  private readonly tty = process.stdout.isTTY === true;

  constructor(private readonly label: string) {}

  tick(text: string): void {
    if (this.tty) {
      process.stdout.write(`\r${this.label}: ${text}\x1b[K`);
      return;
    }
    if (Date.now() - this.lastLine < 1000) return;
    this.lastLine = Date.now();
    process.stdout.write(`${this.label}: ${text}\n`);
  }

  done(text: string): void {
    process.stdout.write(`${this.tty ? '\r' : ''}${this.label}: ${text}${this.tty ? '\x1b[K' : ''}\n`);
  }
}

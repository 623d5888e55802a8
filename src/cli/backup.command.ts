import { createReadStream, createWriteStream, renameSync, rmSync } from 'node:fs';
import { basename } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileNameOf } from '../model/name-encoding';
import { parse, subcommand, UsageError } from './args';
import { summarizeArchive } from './archive-summary';
import { CommandFailure } from './failure';
import { inputFile } from './files';
import { printLines } from './output';
import { formatBytes, Progress } from './progress';
import { CONNECTION_OPTIONS, connect, seg, type RestClient } from './rest-client';
import { USAGE } from './usage';

const SUBCOMMANDS = ['ls', 'create', 'download', 'rm', 'restore'];

/** The resource selectors of a backup or restore (docs/backup-format.md, Resource selector), as flags. */
const SELECTORS = { caches: 'caches', templates: 'templates', counters: 'counters', schemas: 'proto-schemas', tasks: 'tasks' } as const;
const SELECTOR_OPTIONS = Object.fromEntries(Object.keys(SELECTORS).map((k) => [k, { type: 'string' as const }]));

/**
 * `grid backup ls|create|download|rm` and `grid restore FILE`: a client of a running server's
 * backup and restore API (`/rest/v2/cluster/backups`, `…/restores`).
 */
export async function runBackup(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, { ...CONNECTION_OPTIONS, ...SELECTOR_OPTIONS, output: { type: 'string', short: 'o' }, name: { type: 'string' } });
  if (values.help) {
    process.stdout.write(USAGE.backup + '\n');
    return 0;
  }
  const { sub, arg } = subcommand('backup', positionals, SUBCOMMANDS, (s) => (s === 'ls' ? undefined : s === 'restore' ? 'FILE' : 'NAME'));
  if (sub === 'restore') return restore(connect(values), arg!, values);
  const client = connect(values);
  const name = arg!;
  const path = `/v2/cluster/backups/${seg(name)}`;
  const explain = { 404: `there is no backup named '${name}' (see \`grid backup ls\`)` };
  switch (sub) {
    case 'ls':
      printLines(await client.json<string[]>('GET', '/v2/cluster/backups'));
      return 0;
    case 'create': {
      const resources = selection(values);
      const progress = new Progress(`backup ${name}`);
      await client.request('POST', path, {
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(resources ? { resources } : {}),
        explain: { 409: `a backup named ${name} exists: choose another name or \`grid backup rm ${name}\`` },
      });
      await waitWhile202(client, path, progress, explain);
      if (values.output === undefined) {
        progress.done(`created on the server (\`grid backup download ${name}\` saves it here)`);
        return 0;
      }
      return download(client, path, values.output as string, progress, explain);
    }
    case 'download': {
      const progress = new Progress(`backup ${name}`);
      await waitWhile202(client, path, progress, explain);
      return download(client, path, (values.output as string | undefined) ?? `${fileNameOf(name)}.zip`, progress, explain);
    }
    default: { // rm
      const r = await client.request('DELETE', path, { explain });
      process.stdout.write(r.status === 202 ? `backup '${name}' is still running: it is removed when done\n` : `backup '${name}' removed\n`);
      return 0;
    }
  }
}

/** `grid restore FILE`: uploads a backup archive and waits until the server has restored it. */
export async function runRestore(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, { ...CONNECTION_OPTIONS, ...SELECTOR_OPTIONS, name: { type: 'string' } });
  if (values.help) {
    process.stdout.write(USAGE.restore + '\n');
    return 0;
  }
  const [file, ...extra] = positionals;
  if (!file) throw new UsageError('restore needs a FILE (a backup zip)');
  if (extra.length) throw new UsageError(`unexpected argument '${extra[0]}'`);
  return restore(connect(values), file, values);
}

async function restore(client: RestClient, file: string, values: Record<string, unknown>): Promise<number> {
  const name = (values.name as string | undefined) ?? `restore-${Date.now()}`;
  const resources = selection(values);
  const { size } = inputFile(file);
  // credentials and the ADMIN permission are checked before the archive is read and sent
  await client.login('/v2/cluster/restores');
  const progress = new Progress(`restore ${name}`);
  const summary = await summarizeArchive(file, (n) => progress.tick(`reading ${file}: ${n.toLocaleString('en-US')} entries`));
  const caches = `${summary.caches} cache${summary.caches === 1 ? '' : 's'}`;
  const holding = summary.entries === undefined ? caches : `${summary.entries.toLocaleString('en-US')} entr${summary.entries === 1 ? 'y' : 'ies'} in ${caches}`;
  const path = `/v2/cluster/restores/${seg(name)}`;
  const boundary = `grid-${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`;
  try {
    await client.request('POST', path, {
      headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` },
      body: multipart(boundary, file, size, resources, (sent) => progress.tick(`uploading ${holding}: ${formatBytes(sent, size)}`)),
      explain: { 409: `a restore named ${name} exists: choose another --name` },
    });
    await waitWhile202(client, path, progress, {}, `restoring ${holding}`, 201);
  } catch (err) {
    progress.clear();
    throw err;
  }
  progress.done(`restored ${file}: ${holding}`);
  return 0;
}

/** The `resources` object of --caches a,b --templates … (each a comma list, `*` for all), or undefined. */
function selection(values: Record<string, unknown>): Record<string, string[]> | undefined {
  const out: Record<string, string[]> = {};
  for (const [flag, key] of Object.entries(SELECTORS)) {
    const list = values[flag] as string | undefined;
    if (list !== undefined) out[key] = list.split(',').map((n) => n.trim()).filter(Boolean);
  }
  return Object.keys(out).length ? out : undefined;
}

/** Polls HEAD while the server answers 202 (still running); any other status than `done` is a failure. */
async function waitWhile202(client: RestClient, path: string, progress: Progress, explain: Record<number, string>, doing = 'waiting for the server', done = 200): Promise<void> {
  const started = Date.now();
  for (;;) {
    const r = await client.request('HEAD', path, { ok: [200, 201, 202], explain: { ...explain, 500: `it failed on the server (500): the server's log says why` } });
    if (r.status !== 202) {
      if (r.status !== done) throw new CommandFailure(`the server answered ${r.status} instead of ${done}`);
      return;
    }
    progress.tick(`${doing} (${Math.round((Date.now() - started) / 1000)} s)`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Saves the archive to `<output>.part`, renamed to `output` once whole: a failed download leaves no half file. */
async function download(client: RestClient, path: string, output: string, progress: Progress, explain: Record<number, string>): Promise<number> {
  const r = await client.request('GET', path, { explain });
  const total = Number(r.header('content-length') ?? '') || undefined;
  const body = r.stream;
  let bytes = 0;
  body.on('data', (chunk: Buffer) => progress.tick(`downloading ${formatBytes((bytes += chunk.length), total)}`));
  const part = `${output}.part`;
  try {
    await pipeline(body, createWriteStream(part, { mode: 0o600 })); // the archive holds every entry: owner only
    renameSync(part, output);
  } catch (err) {
    rmSync(part, { force: true });
    progress.clear();
    throw new CommandFailure(`cannot save ${output}: ${(err as Error).message}`);
  }
  progress.done(`saved ${output} (${formatBytes(bytes)})`);
  return 0;
}

/** multipart/form-data with the `resources` field and the `backup` file part, counting the bytes sent. */
function multipart(boundary: string, file: string, size: number, resources: Record<string, string[]> | undefined, onSent: (bytes: number) => void): { stream: Readable; length: number } {
  const quoted = basename(file).replace(/["\\\r\n]/g, '_');
  const head = Buffer.from((resources ? `--${boundary}\r\nContent-Disposition: form-data; name="resources"\r\nContent-Type: application/json\r\n\r\n${JSON.stringify(resources)}\r\n` : '')
    + `--${boundary}\r\nContent-Disposition: form-data; name="backup"; filename="${quoted}"\r\nContent-Type: application/zip\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  async function* parts(): AsyncGenerator<Buffer> {
    yield head;
    let sent = 0;
    for await (const chunk of createReadStream(file)) {
      onSent((sent += (chunk as Buffer).length));
      yield chunk as Buffer;
    }
    yield tail;
  }
  return { stream: Readable.from(parts(), { objectMode: false }), length: head.length + size + tail.length };
}

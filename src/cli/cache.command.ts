import { extname } from 'node:path';
import { parse, subcommand, UsageError } from './args';
import { readInputFile } from './files';
import { printJson, printLines, printText } from './output';
import { CONNECTION_OPTIONS, connect, seg, type RestClient } from './rest-client';
import { USAGE } from './usage';

const SUBCOMMANDS = ['ls', 'create', 'delete', 'stats', 'clear', 'size'];

/** `grid cache ls|create|delete|stats|clear|size`: `/rest/v2/caches` (docs/cli.md). */
export async function runCache(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, { ...CONNECTION_OPTIONS, template: { type: 'string' }, file: { type: 'string', short: 'f' } });
  if (values.help) return help();
  const { sub, arg: name } = subcommand('cache', positionals, SUBCOMMANDS, (s) => (s === 'ls' ? undefined : 'cache NAME'));
  if (sub !== 'create' && (values.template !== undefined || values.file !== undefined)) throw new UsageError(`--template and --file belong to 'cache create'`);
  const client = connect(values);
  switch (sub) {
    case 'ls':
      printLines(await client.json<string[]>('GET', '/v2/caches'));
      return 0;
    case 'create':
      return create(client, name!, values.template as string | undefined, values.file as string | undefined);
    case 'delete':
      await client.request('DELETE', `/v2/caches/${seg(name!)}`, { explain: { 404: noCache(name!) } });
      printText(`cache '${name}' deleted`);
      return 0;
    case 'stats':
      printJson(await client.json('GET', `/v2/caches/${seg(name!)}`, { query: { action: 'stats' }, explain: { 404: noCache(name!) } }));
      return 0;
    case 'clear':
      await client.request('POST', `/v2/caches/${seg(name!)}`, { query: { action: 'clear' }, explain: { 404: noCache(name!) } });
      printText(`cache '${name}' cleared`);
      return 0;
    default: // size
      printText(String(await client.json<number>('GET', `/v2/caches/${seg(name!)}`, { query: { action: 'size' }, explain: { 404: noCache(name!) } })));
      return 0;
  }
}

async function create(client: RestClient, name: string, template: string | undefined, file: string | undefined): Promise<number> {
  if (template !== undefined && file !== undefined) throw new UsageError('cache create takes --template or --file, not both');
  const body = file === undefined ? undefined : readInputFile(file);
  // the original (and grid) answer 400 ISPN000507 for a name taken; 409 is the HTTP way to say it
  const exists = `a cache named '${name}' exists: choose another name or \`grid cache delete ${name}\``;
  await client.request('POST', `/v2/caches/${seg(name)}`, {
    query: { template },
    headers: body ? { 'Content-Type': configType(file!, body) } : {},
    body,
    explain: { 400: (said) => (said.startsWith('ISPN000507') ? exists : undefined), 409: exists },
  });
  printText(`cache '${name}' created`);
  return 0;
}

/** A configuration's media type by its file's extension, else by its first character. */
function configType(file: string, body: Buffer): string {
  const ext = extname(file).toLowerCase();
  if (ext === '.json') return 'application/json';
  if (ext === '.xml') return 'application/xml';
  if (ext === '.yaml' || ext === '.yml') return 'application/yaml';
  const first = body.toString('utf8', 0, 64).trimStart()[0];
  return first === '<' ? 'application/xml' : first === '{' ? 'application/json' : 'application/yaml';
}

export function noCache(name: string): string {
  return `there is no cache named '${name}' (see \`grid cache ls\`)`;
}

function help(): number {
  process.stdout.write(USAGE.cache + '\n');
  return 0;
}

import { parse, UsageError } from './args';
import { noCache } from './cache.command';
import { readInputFile } from './files';
import { printLines, printText } from './output';
import { CONNECTION_OPTIONS, connect, seg, type Explain } from './rest-client';
import { USAGE } from './usage';

/** `grid get|put|rm|keys`: the entries of a cache, `/rest/v2/caches/{cache}/{key}` (docs/cli.md). */
export async function runEntry(command: 'get' | 'put' | 'rm' | 'keys', args: string[]): Promise<number> {
  const { values, positionals } = parse(args, {
    ...CONNECTION_OPTIONS,
    ...(command === 'put' ? { file: { type: 'string', short: 'f' }, ttl: { type: 'string' }, 'max-idle': { type: 'string' }, 'content-type': { type: 'string' } } : {}),
    ...(command === 'get' ? { accept: { type: 'string' } } : {}),
    ...(command !== 'keys' ? { 'key-content-type': { type: 'string' } } : { limit: { type: 'string' } }),
  });
  if (values.help) {
    process.stdout.write(USAGE[command] + '\n');
    return 0;
  }
  const [cache, key, value, ...extra] = positionals;
  if (!cache) throw new UsageError(`${command} needs a CACHE`);
  if (command === 'keys') {
    if (key !== undefined) throw new UsageError(`unexpected argument '${key}'`);
    const client = connect(values);
    const limit = values.limit as string | undefined;
    if (limit !== undefined && !/^-?\d+$/.test(limit)) throw new UsageError(`--limit must be a whole number, not '${limit}'`);
    printLines(await client.json<unknown[]>('GET', `/v2/caches/${seg(cache)}`, { query: { action: 'keys', limit }, explain: { 404: noCache(cache) } }));
    return 0;
  }
  if (key === undefined) throw new UsageError(`${command} needs a CACHE and a KEY`);
  const extraArg = command === 'put' ? extra[0] : value;
  if (extraArg !== undefined) throw new UsageError(`unexpected argument '${extraArg}'`);
  const keyHeaders: Record<string, string> = values['key-content-type'] ? { 'Key-Content-Type': values['key-content-type'] as string } : {};
  const path = `/v2/caches/${seg(cache)}/${seg(key)}`;
  // a missing cache is ISPN012010 (here and in the original); any other 404 is the key's
  const explain: Explain = { 404: (said) => (said.includes('ISPN012010') ? noCache(cache) : `cache '${cache}' has no key '${key}'`) };
  if (command === 'get') {
    const client = connect(values);
    const accept: Record<string, string> = values.accept ? { Accept: values.accept as string } : {};
    const bytes = await (await client.request('GET', path, { headers: { ...keyHeaders, ...accept }, explain })).bytes();
    process.stdout.write(bytes);
    // on a terminal the prompt starts on a line of its own; piped, the value's bytes are exact
    if (process.stdout.isTTY && bytes.length && bytes[bytes.length - 1] !== 0x0a) process.stdout.write('\n');
    return 0;
  }
  if (command === 'rm') {
    await connect(values).request('DELETE', path, { headers: keyHeaders, explain });
    printText(`removed '${key}' from '${cache}'`);
    return 0;
  }
  return put(values, cache, key, value, keyHeaders, path);
}

async function put(values: Record<string, unknown>, cache: string, key: string, value: string | undefined, keyHeaders: Record<string, string>, path: string): Promise<number> {
  const file = values.file as string | undefined;
  if ((value === undefined) === (file === undefined)) throw new UsageError('put needs a VALUE or --file FILE (- for standard input), one of them');
  const headers: Record<string, string> = { ...keyHeaders };
  headers['Content-Type'] = (values['content-type'] as string | undefined) ?? (file === undefined ? 'text/plain; charset=utf-8' : 'application/octet-stream');
  for (const [flag, header] of [['ttl', 'timeToLiveSeconds'], ['max-idle', 'maxIdleTimeSeconds']] as const) {
    const seconds = values[flag] as string | undefined;
    if (seconds === undefined) continue;
    if (!/^-?\d+$/.test(seconds)) throw new UsageError(`--${flag} takes whole seconds, not '${seconds}'`);
    headers[header] = seconds;
  }
  const body = file === undefined ? Buffer.from(value!, 'utf8') : readInputFile(file);
  await connect(values).request('PUT', path, { headers, body, explain: { 404: noCache(cache) } });
  printText(`put '${key}' into '${cache}'`);
  return 0;
}

import { parse, unknownCommand, UsageError } from './args';
import { printLines, printText } from './output';
import { CONNECTION_OPTIONS, connect, seg } from './rest-client';
import { USAGE } from './usage';

const SUBCOMMANDS = ['ls', 'create', 'get', 'add', 'reset', 'rm'];

/** `grid counter ls|create|get|add|reset|rm`: `/rest/v2/counters` (docs/cli.md). */
export async function runCounter(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, {
    ...CONNECTION_OPTIONS, type: { type: 'string' }, 'initial-value': { type: 'string' }, storage: { type: 'string' },
  });
  if (values.help) {
    process.stdout.write(USAGE.counter + '\n');
    return 0;
  }
  const [sub, name, delta, ...extra] = positionals;
  const unexpected = sub === 'add' ? extra[0] : delta;
  if (unexpected !== undefined) throw new UsageError(`unexpected argument '${unexpected}'`);
  if (sub === undefined) throw new UsageError(`counter needs a command: ${SUBCOMMANDS.join(', ')}`);
  if (!SUBCOMMANDS.includes(sub)) throw unknownCommand(sub, SUBCOMMANDS, 'counter');
  if (sub !== 'ls' && !name) throw new UsageError(`counter ${sub} needs a NAME`);
  if (delta !== undefined && !/^-?\d+$/.test(delta)) throw new UsageError(`counter add takes a whole number, not '${delta}'`);
  const definition = sub === 'create' ? counterDefinition(values) : undefined;
  if (sub !== 'create' && ['type', 'initial-value', 'storage'].some((f) => values[f] !== undefined)) throw new UsageError(`--type, --initial-value and --storage belong to 'counter create'`);
  const client = connect(values);
  const path = `/v2/counters/${seg(name ?? '')}`;
  const explain = { 404: `there is no counter named '${name}' (see \`grid counter ls\`)` };
  switch (sub) {
    case 'ls':
      printLines(await client.json<string[]>('GET', '/v2/counters'));
      return 0;
    case 'create':
      await client.request('POST', path, {
        headers: { 'Content-Type': 'application/json' },
        body: definition,
        // the server answers 304 when a counter of that name exists (docs/reference/management-plane.md#counter-create)
        ok: [200],
        explain: { 304: `a counter named '${name}' exists: choose another name or \`grid counter rm ${name}\`` },
      });
      printText(`counter '${name}' created`);
      return 0;
    case 'get':
      printText(await (await client.request('GET', path, { explain })).text());
      return 0;
    case 'rm':
      await client.request('DELETE', path, { explain });
      printText(`counter '${name}' removed`);
      return 0;
    case 'add': {
      // a weak counter answers 204 without its value (docs/reference/management-plane.md#counter-updates): read it back then
      const r = await client.request('POST', path, { query: { action: 'add', delta: delta ?? '1' }, explain });
      printText(r.status === 204 ? await (await client.request('GET', path, { explain })).text() : await r.text());
      return 0;
    }
    default: // reset
      await client.request('POST', path, { query: { action: 'reset' }, explain });
      printText(`counter '${name}' reset`);
      return 0;
  }
}

/**
 * `{"strong-counter":{"initial-value":N,"storage":"PERSISTENT"}}` from --type, --initial-value and
 * --storage; the value's digits are written as given (counters are 64-bit, beyond a JS number).
 */
function counterDefinition(values: Record<string, unknown>): string {
  const type = ((values.type as string | undefined) ?? 'strong').toLowerCase();
  if (type !== 'strong' && type !== 'weak') throw new UsageError(`--type is strong or weak, not '${type}'`);
  const fields: string[] = [];
  const initial = values['initial-value'] as string | undefined;
  if (initial !== undefined) {
    if (!/^-?\d{1,19}$/.test(initial)) throw new UsageError(`--initial-value takes a whole number, not '${initial}'`);
    fields.push(`"initial-value":${initial}`);
  }
  const storage = (values.storage as string | undefined)?.toUpperCase();
  if (storage !== undefined && storage !== 'VOLATILE' && storage !== 'PERSISTENT') throw new UsageError(`--storage is volatile or persistent, not '${values.storage}'`);
  if (storage) fields.push(`"storage":"${storage}"`);
  return `{"${type}-counter":{${fields.join(',')}}}`;
}

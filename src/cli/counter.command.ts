import { parse, unknownCommand, UsageError } from './args';
import { printLines, printText } from './output';
import { CONNECTION_OPTIONS, connect, seg } from './rest-client';
import { USAGE } from './usage';

const SUBCOMMANDS = ['ls', 'get', 'add', 'reset'];

/** `grid counter ls|get|add|reset`: `/rest/v2/counters` (docs/cli.md). */
export async function runCounter(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, CONNECTION_OPTIONS);
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
  const client = connect(values);
  const path = `/v2/counters/${seg(name ?? '')}`;
  const explain = { 404: `there is no counter named '${name}' (see \`grid counter ls\`)` };
  switch (sub) {
    case 'ls':
      printLines(await client.json<string[]>('GET', '/v2/counters'));
      return 0;
    case 'get':
      printText(await (await client.request('GET', path, { explain })).text());
      return 0;
    case 'add': {
      // a weak counter answers 204 without its value (spec 1, Counters): read it back then
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

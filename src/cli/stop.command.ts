import { parse, UsageError } from './args';
import { printText } from './output';
import { CONNECTION_OPTIONS, connect } from './rest-client';
import { USAGE } from './usage';

/** `grid stop`: `POST /rest/v2/server?action=stop` — the server answers, then stops cleanly. */
export async function runStop(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, CONNECTION_OPTIONS);
  if (values.help) {
    process.stdout.write(USAGE.stop + '\n');
    return 0;
  }
  if (positionals.length) throw new UsageError(`unexpected argument '${positionals[0]}'`);
  if (values.tenant !== undefined) throw new UsageError('stop stops the whole server, every tenant: --tenant does not apply');
  const client = connect(values);
  await client.request('POST', '/v2/server', { query: { action: 'stop' } });
  printText(`the server at ${client.server} is stopping`);
  return 0;
}
